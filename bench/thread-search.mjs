/**
 * `threads.search` (the official SDK) on a SQLite file holding many threads the server's records
 * do not know (a restart whose records were in memory): the first search, which adopts them all
 * (one listing of the checkpointer), the searches after it, and a search after another process
 * wrote one more thread. Uses dist/ (`npm run build` first).
 *
 *   node bench/thread-search.mjs [--threads 3000] [--rounds 20] [--records memory|sqlite]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { Client } from "@langchain/langgraph-sdk";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    records: { type: "string", default: "memory" },
    threads: { type: "string", default: "3000" },
    rounds: { type: "string", default: "20" },
  },
});
const threads = Number(values.threads);
const rounds = Number(values.rounds);
const { createExecutor, folderCatalog, startServer } = await import(
  pathToFileURL(join(ROOT, "dist", "index.js")).href
);

const dir = mkdtempSync(join(tmpdir(), "graphspec-bench-search-"));
const graphs = join(dir, "graphs");
mkdirSync(graphs);
writeFileSync(join(dir, "package.json"), "{}");
writeFileSync(
  join(graphs, "counts.yaml"),
  "version: 1\nname: counts\nstate:\n  count: { type: integer, reducer: sum, default: 0 }\nnodes:\n  add: { kind: set, values: { count: 1 } }\nedges:\n  - { from: START, to: add }\n  - { from: add, to: END }\n",
);
const sqlitePath = join(dir, "state.db");
const exec = () => createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath });

const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  let t0 = process.hrtime.bigint();
  const writer = exec();
  for (let i = 0; i < threads; i++) await writer.run("counts", { threadId: `t-${i}`, input: {} });
  console.log(`wrote ${threads} threads (3 checkpoints each) in ${ms(t0).toFixed(0)} ms`);
  const server = await startServer({
    exec: exec(),
    graphs: await folderCatalog(graphs),
    auth: undefined,
    port: 0,
    records: values.records === "sqlite" ? { sqlite: sqlitePath } : "memory",
  });
  const client = new Client({ apiUrl: server.url, apiKey: null });
  t0 = process.hrtime.bigint();
  const first = await client.threads.search({ limit: 10 });
  console.log(
    `first search (adopts ${threads} threads): ${ms(t0).toFixed(1)} ms, ${first.length} listed`,
  );
  const times = [];
  for (let r = 0; r < rounds; r++) {
    t0 = process.hrtime.bigint();
    await client.threads.search({ limit: 10, offset: r * 10, metadata: { graph_id: "counts" } });
    times.push(ms(t0));
  }
  console.log(`later searches (limit 10, by graph_id): median ${median(times).toFixed(1)} ms`);
  for (const when of ["first", "again (statuses kept)"]) {
    t0 = process.hrtime.bigint();
    const errored = await client.threads.search({ limit: 10, status: "error" });
    console.log(
      `search by status error, ${when} (none of ${threads} is): ${ms(t0).toFixed(0)} ms, ${errored.length} listed`,
    );
  }
  await writer.run("counts", { threadId: "one-more", input: {} });
  t0 = process.hrtime.bigint();
  const [newest] = await client.threads.search({ limit: 1 });
  console.log(
    `search after another connection wrote a thread: ${ms(t0).toFixed(1)} ms (newest: ${newest.thread_id})`,
  );
  await writer.close();
  await server.close(1000);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
