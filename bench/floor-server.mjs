#!/usr/bin/env node
/**
 * The floor for `bench:server`: the hand-written program (`compile(spec, { checkpointer })` +
 * `invoke()` / `stream()`, exactly the bench's in-process side) behind the least HTTP server the
 * official SDK can call — `node:http`, the two routes the bench uses, no records, no checks, no
 * framework. No server can answer the SDK for less than this; what it costs over the in-process
 * side is the HTTP transport and the SDK client alone (bench/README.md, issue 26 item 4).
 *
 * Started by bench/server.mjs: `node bench/floor-server.mjs BUILD SPEC memory|sqlite DB`. Prints
 * its URL once it listens.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { MemorySaver } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";

const [build, spec, kind, db] = process.argv.slice(2);
const { compile } = await import(pathToFileURL(join(build, "dist", "index.js")).href);
const graph = await compile(spec, {
  checkpointer: kind === "sqlite" ? SqliteSaver.fromConnString(db) : new MemorySaver(),
});

const ROUTE = /^\/threads\/([^/]+)\/runs\/(wait|stream)$/;

const server = createServer(async (req, res) => {
  const m = req.method === "POST" ? ROUTE.exec(req.url ?? "") : null;
  if (!m) {
    res.writeHead(404).end();
    return;
  }
  let body = "";
  for await (const chunk of req) body += chunk;
  const { input = {} } = JSON.parse(body || "{}");
  const config = { configurable: { thread_id: decodeURIComponent(m[1]) } };
  try {
    if (m[2] === "wait") {
      const values = await graph.invoke(input, config);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(values));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write(`event: metadata\ndata: ${JSON.stringify({ run_id: randomUUID() })}\n\n`);
    for await (const v of await graph.stream(input, { ...config, streamMode: "values" }))
      res.write(`event: values\ndata: ${JSON.stringify(v)}\n\n`);
    res.end();
  } catch (e) {
    if (res.headersSent)
      res.end(`event: error\ndata: ${JSON.stringify({ message: String(e) })}\n\n`);
    else
      res
        .writeHead(500, { "content-type": "application/json" })
        .end(JSON.stringify({ error: String(e) }));
  }
});
server.keepAliveTimeout = 5_000;
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address();
  console.log(`http://127.0.0.1:${port}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
