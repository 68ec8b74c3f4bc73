/**
 * The page's files over HTTP (after `npm run build`), from a real server from the package entry:
 * each in the coding the request takes (brotli, else gzip, else as built), the hashed script and
 * stylesheet kept a year (`immutable`), index.html revalidated by its ETag (`304`), and the CSP on
 * every file. Raw node:http, so no client decodes or caches anything behind the test's back.
 */
import { get } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, folderCatalog, type RunningServer, startServer } from "../../src/index.js";
import { GRAPHS } from "./harness.js";

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({
    exec: createExecutor({ dir: GRAPHS, checkpointer: "memory" }),
    graphs: await folderCatalog(GRAPHS),
    auth: undefined,
    port: 0,
    page: true,
  });
});
afterAll(() => server?.close(1000));

function fetchRaw(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(`${server.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers as Record<string, string | undefined>,
          body: Buffer.concat(chunks),
        }),
      );
    }).on("error", reject);
  });
}

const decoded = (coding: string | undefined, body: Buffer) =>
  coding === "br" ? brotliDecompressSync(body) : coding === "gzip" ? gunzipSync(body) : body;

describe("the page's files", () => {
  it("go out in the coding the request takes, each decoding to the same file", async () => {
    const plain = await fetchRaw("/");
    const script = /src="(\/ui\/main-\w+\.js)"/.exec(plain.body.toString())?.[1];
    expect(script).toBeDefined();
    const asBuilt = await fetchRaw(script!);
    expect(asBuilt.headers["content-encoding"]).toBeUndefined();
    for (const [accept, coding] of [
      ["gzip, deflate, br", "br"],
      ["gzip", "gzip"],
      ["br;q=0, gzip", "gzip"],
      ["*", "br"],
      ["identity", undefined],
    ] as const) {
      const r = await fetchRaw(script!, { "accept-encoding": accept });
      expect([accept, r.headers["content-encoding"]]).toEqual([accept, coding]);
      // By the coding asked, and (as every answer of the server) by the Origin (request-origin.ts).
      expect(r.headers.vary).toBe("accept-encoding, Origin");
      expect(decoded(coding, r.body).equals(asBuilt.body)).toBe(true);
      if (coding) expect(r.body.length).toBeLessThan(asBuilt.body.length / 3);
    }
  });

  it("keeps hashed files a year and revalidates index.html by its ETag", async () => {
    const html = await fetchRaw("/", { "accept-encoding": "br" });
    expect(html.status).toBe(200);
    expect(html.headers["cache-control"]).toBe("no-cache");
    expect(html.headers["content-security-policy"]).toContain("default-src 'self'");
    const etag = html.headers.etag!;
    expect(etag).toMatch(/^".+"$/);
    const again = await fetchRaw("/", { "accept-encoding": "br", "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    const other = await fetchRaw("/", { "accept-encoding": "br", "if-none-match": '"stale"' });
    expect(other.status).toBe(200);

    const text = decoded("br", html.body).toString();
    for (const path of [
      /src="(\/ui\/main-\w+\.js)"/.exec(text)?.[1],
      /href="(\/ui\/style-\w+\.css)"/.exec(text)?.[1],
    ]) {
      const r = await fetchRaw(path!);
      expect([path, r.status]).toEqual([path, 200]);
      expect(r.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(r.headers["content-security-policy"]).toContain("default-src 'self'");
      expect(r.headers["x-content-type-options"]).toBe("nosniff");
    }
    // The unhashed names of older builds are gone: nothing serves a file that could go stale.
    expect((await fetchRaw("/ui/app.js")).status).toBe(404);
  });
});
