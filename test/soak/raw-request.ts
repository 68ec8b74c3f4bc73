/**
 * One HTTP request with node:http, for what fetch cannot send: a declared length the body never
 * reaches, a chunked body of any size written until the server answers. Ends with the answer
 * (status, headers, body), or with what happened instead (a connection error, a timeout).
 */
import { request } from "node:http";

export interface RawAnswer {
  status?: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Why no answer came: `timeout` or the socket error's code. */
  failure?: string;
}

export function rawRequest(
  url: string,
  opts: {
    method?: string;
    path: string;
    headers: Record<string, string>;
    /** Bytes to write, in chunks of `chunk.length`, until the server answers. */
    total: number;
    chunk: Buffer;
    timeoutMs: number;
  },
): Promise<RawAnswer> {
  const u = new URL(url);
  return new Promise((resolve) => {
    let done = false;
    let status: number | undefined;
    let headers: RawAnswer["headers"] = {};
    let body = "";
    const finish = (failure?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.destroy();
      resolve({
        ...(status !== undefined ? { status } : {}),
        headers,
        body,
        ...(failure ? { failure } : {}),
      });
    };
    const timer = setTimeout(() => finish("timeout"), opts.timeoutMs);
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: opts.path,
        method: opts.method ?? "POST",
        headers: opts.headers,
      },
      (res) => {
        status = res.statusCode;
        headers = res.headers;
        res.setEncoding("utf8");
        res.on("data", (d) => {
          body += d;
        });
        res.on("end", () => finish());
        res.on("error", () => finish());
      },
    );
    // The server closing the upload after its 413 is expected: the answer has come by then.
    req.on("error", (e: NodeJS.ErrnoException) => {
      if (status === undefined) finish(e.code ?? e.message);
    });
    let written = 0;
    const pump = () => {
      while (!done && status === undefined && !req.destroyed) {
        if (written >= opts.total) return void req.end();
        const piece = opts.chunk.subarray(0, Math.min(opts.chunk.length, opts.total - written));
        written += piece.length;
        if (!req.write(piece)) return void req.once("drain", pump);
      }
    };
    pump();
  });
}
