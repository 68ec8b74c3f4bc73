/**
 * How `graphspec dev` serves its executor over HTTP: a function from the executor to a listening
 * server. The LangGraph Platform API (src/server/) plugs in here; until it does, a placeholder
 * answers `GET /ok` and `GET /health`, so the loop (watch, reload, print the URL) stands on its own.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Executor } from "../run/executor-api.js";

export interface ServerAddress {
  port: number;
  host: string;
}

export interface RunningServer {
  /** `http://HOST:PORT`, the port the server really got (for `--port 0`). */
  url: string;
  close(): Promise<void>;
}

export type StartServer = (executor: Executor, address: ServerAddress) => Promise<RunningServer>;

export const placeholderServer: StartServer = (_executor, { port, host }) =>
  new Promise((resolve, reject) => {
    const server = createServer((req, res) => {
      const known = req.method === "GET" && (req.url === "/ok" || req.url === "/health");
      res.writeHead(known ? 200 : 404, { "content-type": "application/json" });
      res.end(JSON.stringify(known ? { ok: true } : { error: "not found" }));
    });
    server.once("error", reject);
    server.listen(port, host, () => {
      const { port: actual } = server.address() as AddressInfo;
      const shown = host.includes(":") ? `[${host}]` : host;
      resolve({
        url: `http://${shown}:${actual}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
