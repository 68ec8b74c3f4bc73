/**
 * The page `graphspec dev` serves at `/` (built from src/web into dist/web by `npm run build`):
 * the files its manifest lists, read once at start, so no request names a path on disk. A
 * Content-Security-Policy of `'self'` only: the page loads nothing from elsewhere (it works
 * offline) and no injected script could send data away.
 *
 * Caching: the script and stylesheet have their content's hash in their names
 * (scripts/build-web.mjs), so browsers keep them a year without asking again (`immutable`);
 * index.html, which names them, is `no-cache` with an ETag, so a repeat load is one 304. Each
 * file goes out brotli- or gzip-compressed, as built, when the browser takes it.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Hono } from "hono";
import { matchesEtag, type PageEncoding, pickEncoding } from "./page-encoding.js";
import type { ServerEnv } from "./server-parts.js";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

const CSP =
  "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

/** A hashed name never changes content: kept a year, never revalidated. */
const IMMUTABLE = "public, max-age=31536000, immutable";

/** dist/web, from dist/server (the package) or src/server (tests running the sources). */
export const WEB_DIR = join(dirname(fileURLToPath(import.meta.url)), "../../dist/web");

export interface WebPage {
  routes: Hono<ServerEnv>;
  /** `/` and `/ui/<file>`: public like /ok (the files hold no data). */
  paths: ReadonlySet<string>;
}

interface PageFile {
  type: string;
  cacheControl: string;
  /** The file as built, and its brotli and gzip forms when the build wrote them. */
  bodies: Map<PageEncoding, { body: Buffer; etag: string }>;
}

const etagOf = (body: Buffer, encoding: PageEncoding) =>
  `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}${encoding === "identity" ? "" : `-${encoding}`}"`;

async function readPageFile(dir: string, name: string): Promise<PageFile | undefined> {
  const bodies: PageFile["bodies"] = new Map();
  for (const [encoding, suffix] of [
    ["identity", ""],
    ["br", ".br"],
    ["gzip", ".gz"],
  ] as const) {
    const body = await readFile(join(dir, name + suffix)).catch(() => undefined);
    if (body) bodies.set(encoding, { body, etag: etagOf(body, encoding) });
  }
  if (!bodies.has("identity")) return undefined;
  return {
    type: TYPES[extname(name)] ?? "application/octet-stream",
    cacheControl: name === "index.html" ? "no-cache" : IMMUTABLE,
    bodies,
  };
}

/** What the build wrote (manifest.json), else nothing: a build by tsc alone has no page. */
async function manifestOf(dir: string): Promise<string[]> {
  const text = await readFile(join(dir, "manifest.json"), "utf8").catch(() => undefined);
  if (text === undefined) return [];
  const files = (JSON.parse(text) as { files?: unknown }).files;
  // Names only: nothing from the manifest reaches a path outside dir.
  return Array.isArray(files)
    ? files.filter((f): f is string => typeof f === "string" && /^[\w.-]+$/.test(f))
    : [];
}

export async function webPageRoutes(dir = WEB_DIR): Promise<WebPage> {
  const files = new Map<string, PageFile>();
  // The encodings each file is kept in, looked up per request.
  const encodings = new Map<string, ReadonlySet<PageEncoding>>();
  for (const name of await manifestOf(dir)) {
    const file = await readPageFile(dir, name);
    if (!file) continue;
    files.set(name, file);
    encodings.set(name, new Set(file.bodies.keys()));
  }
  const page = new Hono<ServerEnv>();
  const send = (name: string, req: Request) => {
    const file = files.get(name);
    if (!file)
      return new Response(
        `graphspec dev: the page is not built (${join(dir, name)} is missing); run \`npm run build\`\n`,
        { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } },
      );
    const encoding = pickEncoding(
      req.headers.get("accept-encoding") ?? undefined,
      encodings.get(name)!,
    );
    const { body, etag } = file.bodies.get(encoding)!;
    // What a 304 carries too (RFC 9110 §15.4.5): the cached copy is updated from these.
    const validators = { "cache-control": file.cacheControl, etag, vary: "accept-encoding" };
    if (matchesEtag(req.headers.get("if-none-match") ?? undefined, etag))
      return new Response(null, { status: 304, headers: validators });
    return new Response(new Uint8Array(body), {
      headers: {
        ...validators,
        "content-type": file.type,
        "content-security-policy": CSP,
        "x-content-type-options": "nosniff",
        ...(encoding === "identity" ? {} : { "content-encoding": encoding }),
      },
    });
  };
  page.get("/", (c) => send("index.html", c.req.raw));
  const paths = new Set(["/"]);
  for (const name of files.keys()) {
    if (name === "index.html") continue;
    paths.add(`/ui/${name}`);
    page.get(`/ui/${name}`, (c) => send(name, c.req.raw));
  }
  return { routes: page, paths };
}
