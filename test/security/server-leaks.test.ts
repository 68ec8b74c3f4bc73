/**
 * Error messages a tenant reads (issue 23, item 11): the executor names threads by their stored
 * id — the tenant's scope in front, `alpha/appr` — and specs by the server's absolute path. Through
 * the official SDK as tenant `alpha`: refusals (a resume of a finished thread, a thread of another
 * graph, a spec that does not compile), in the HTTP error and in a background run's end, name the
 * client's own thread id and project-relative paths only.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createExecutor,
  folderCatalog,
  type RunningServer,
  serverAuth,
  startServer,
} from "../../src/index.js";

const KEY = "key-of-tenant-alpha-0123456789";
const STEPS = (name: string) => `version: 1
name: ${name}
state:
  n: { type: integer, reducer: sum, default: 0 }
nodes:
  one: { kind: set, values: { n: 1 } }
edges:
  - { from: START, to: one }
  - { from: one, to: END }
`;
const BOOM = `version: 1
name: boom
state:
  n: { type: integer, default: 0 }
nodes:
  one: { kind: function, module: ../nodes/boom.mjs, export: run, writes: [n] }
edges:
  - { from: START, to: one }
  - { from: one, to: END }
`;

let root: string;
let server: RunningServer;
let client: Client;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "graphspec-server-leaks-"));
  mkdirSync(join(root, "graphs"));
  mkdirSync(join(root, "nodes"));
  writeFileSync(join(root, "package.json"), '{ "type": "module" }\n');
  writeFileSync(join(root, "graphs/steps.yaml"), STEPS("steps"));
  writeFileSync(join(root, "graphs/other.yaml"), STEPS("other"));
  writeFileSync(join(root, "graphs/boom.yaml"), BOOM);
  writeFileSync(join(root, "nodes/boom.mjs"), 'throw new Error("import failed");\n');
  writeFileSync(join(root, "keys.json"), JSON.stringify({ [KEY]: "alpha" }));
  const sqlitePath = join(root, "state.db");
  server = await startServer({
    exec: createExecutor({ dir: join(root, "graphs"), checkpointer: "sqlite", sqlitePath }),
    graphs: await folderCatalog(join(root, "graphs")),
    auth: await serverAuth({ apiKeys: join(root, "keys.json") }),
    records: { sqlite: sqlitePath },
  });
  client = new Client({ apiUrl: server.url, apiKey: KEY, callerOptions: { maxRetries: 0 } });
});
afterAll(async () => {
  await server?.close(1000);
  rmSync(root, { recursive: true, force: true });
});

/** The HTTP error's body the SDK throws (`HTTP 409: {...}`). */
async function refusal(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => undefined,
    (e: Error) => e,
  );
  expect(e).toBeInstanceOf(Error);
  return e!.message;
}

function expectOwnTerms(text: string) {
  expect(text).not.toContain("alpha/");
  expect(text).not.toContain(root);
}

describe("a tenant's error messages", () => {
  it("name its own thread id: a resume of a finished thread, a thread of another graph", async () => {
    await client.threads.create({ threadId: "appr" });
    await client.runs.wait("appr", "steps", { input: {} });
    const resume = await refusal(client.runs.wait("appr", "steps", { command: { resume: true } }));
    expect(resume).toContain("nothing-to-resume");
    expect(resume).toContain("thread `appr`");
    expectOwnTerms(resume);
    const other = await refusal(client.runs.wait("appr", "other", { input: {} }));
    expect(other).toContain("thread-graph-mismatch");
    expect(other).toContain("thread `appr`");
    expectOwnTerms(other);
  });

  it("name spec files relative to the project: a spec that does not compile", async () => {
    await client.threads.create({ threadId: "boom-now" });
    const now = await refusal(client.runs.wait("boom-now", "boom", { input: {} }));
    expect(now).toContain("graphs/boom.yaml:6:");
    expectOwnTerms(now);
  });

  it("and so does a background run's end, read from its record", async () => {
    await client.threads.create({ threadId: "boom-later" });
    const run = await client.runs.create("boom-later", "boom", { input: {} });
    const joined = JSON.stringify(await client.runs.join("boom-later", run.run_id));
    expect(joined).toContain("graphs/boom.yaml:6:");
    expectOwnTerms(joined);
  });
});
