/**
 * The page `graphspec dev` serves at `/` (built from src/web into dist/web by `npm run build`):
 * a fixed list of files read once, so no request names a path on disk. A Content-Security-Policy
 * of `'self'` only: the page loads nothing from elsewhere (it works offline) and no injected
 * script could send data away.
 */
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Hono } from "hono";
import type { ServerEnv } from "./server-parts.js";

const FILES: Record<string, string> = {
  "index.html": "text/html; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "app.js.map": "application/json; charset=utf-8",
  "app.js.LEGAL.txt": "text/plain; charset=utf-8",
  "style.css": "text/css; charset=utf-8",
};

const CSP =
  "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

/** dist/web, from dist/server (the package) or src/server (tests running the sources). */
export const WEB_DIR = join(dirname(fileURLToPath(import.meta.url)), "../../dist/web");

/** The paths of the page: `/` and `/ui/<file>`, public like /ok (the files hold no data). */
export const PAGE_PATHS = new Set(["/", ...Object.keys(FILES).map((f) => `/ui/${f}`)]);

export async function webPageRoutes(dir = WEB_DIR): Promise<Hono<ServerEnv>> {
  const files = new Map<string, Buffer>();
  for (const name of Object.keys(FILES)) {
    // A build without the page (tsc alone) serves the API; `/` then says how to build it.
    const body = await readFile(join(dir, name)).catch(() => undefined);
    if (body) files.set(name, body);
  }
  const page = new Hono<ServerEnv>();
  const send = (name: string) => {
    const body = files.get(name);
    if (!body)
      return new Response(
        `graphspec dev: the page is not built (${join(dir, name)} is missing); run \`npm run build\`\n`,
        { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } },
      );
    return new Response(new Uint8Array(body), {
      headers: {
        "content-type": FILES[name]!,
        "content-security-policy": CSP,
        "x-content-type-options": "nosniff",
        "cache-control": "no-cache",
      },
    });
  };
  page.get("/", () => send("index.html"));
  for (const name of Object.keys(FILES)) page.get(`/ui/${name}`, () => send(name));
  return page;
}
