/**
 * `--max-body-bytes` holds for chunked bodies, which declare no length: the server counts bytes
 * as they arrive, answers 413 once the limit is passed and reads no further — the client's upload
 * is cut, and the server's memory does not grow by the body's size. Before, the whole body was
 * read and measured after (two 900 MB chunked requests took `serve` to 4.3 GB before its 413).
 * `graphspec serve` as users run it (dist/, after `npm run build`), in a process of its own so its
 * peak RSS (Linux's /proc VmHWM) is its own; raw requests with node:http on 127.0.0.1.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "bin", "graphspec.js");
const GRAPHS = join(ROOT, "test", "fixtures", "server", "graphs");
const MiB = 1024 * 1024;

let dir: string;
let server: ChildProcess;
let url: URL;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "graphspec-chunked-"));
  server = spawn(
    process.execPath,
    [BIN, "serve", GRAPHS, "--no-auth", "--port", "0", "--host", "127.0.0.1"].concat([
      "--max-body-bytes",
      "1MiB",
      "--checkpointer",
      "memory",
    ]),
    { cwd: dir, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  server.stderr!.on("data", (d) => {
    err += d;
  });
  url = new URL(
    await new Promise<string>((resolve, reject) => {
      server.stdout!.on("data", (d) => {
        out += d;
        if (out.includes("\n")) resolve(out.split("\n")[0]!);
      });
      server.once("exit", (code) => reject(new Error(`serve exited ${code}: ${err}`)));
    }),
  );
});
afterAll(() => {
  server?.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** The server's resident and peak resident memory, in bytes (Linux). */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kB = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)![1]) * 1024;
  return { rss: kB("VmRSS"), peak: kB("VmHWM") };
}

/**
 * POSTs a chunked body of up to `total` bytes, 64 KiB a chunk, writing until the server answers
 * or closes; the status (if any answer came) and how many bytes the client managed to write.
 */
function sendChunked(
  path: string,
  total: number,
  head = "",
): Promise<{ status?: number; body: string; written: number }> {
  return new Promise((resolve) => {
    let written = 0;
    let status: number | undefined;
    let body = "";
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      resolve({ ...(status !== undefined ? { status } : {}), body, written });
    };
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: "POST",
        headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
      },
      (res) => {
        status = res.statusCode;
        res.setEncoding("utf8");
        res.on("data", (d) => {
          body += d;
        });
        res.on("end", () => {
          req.destroy();
          finish();
        });
      },
    );
    req.on("error", finish);
    req.on("close", finish);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!finished && status === undefined && !req.destroyed) {
        if (written === 0 && head) {
          written += Buffer.byteLength(head);
          if (!req.write(head)) return void req.once("drain", pump);
          continue;
        }
        if (written >= total) return void req.end();
        written += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
    };
    pump();
  });
}

describe.skipIf(!existsSync("/proc/self/status"))("a chunked body over --max-body-bytes", () => {
  it("a chunked body within the limit is read and answered as usual", async () => {
    const r = await sendChunked(
      "/threads/search",
      0,
      JSON.stringify({ limit: 5 }) + " ".repeat(200 * 1024),
    );
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual(expect.any(Array));
  });

  it("is refused with 413 once the limit is passed; the rest is not read, and memory does not grow by its size", async () => {
    const before = memory(server.pid!);
    const TOTAL = 200 * MiB;
    const r = await sendChunked("/threads/search", TOTAL, '{"limit": 5, "pad": "');
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ error: "body-too-large" });
    // The server answered and closed long before the client had sent everything (loopback
    // buffers and the HTTP server's short drain take some: far less than the body).
    expect(r.written).toBeLessThan(TOTAL / 2);
    const after = memory(server.pid!);
    // Reading 200 MB and measuring after took at least 200 MB more at the peak.
    expect(after.peak - before.rss).toBeLessThan(100 * MiB);
    // The server still answers.
    expect((await fetch(new URL("/ok", url))).status).toBe(200);
  });
});
