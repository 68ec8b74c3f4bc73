/**
 * graphspec's run errors after `graphspec export langgraph`, as an SDK client sees them from the
 * official dev server (`@langchain/langgraph-cli dev`, offline on 127.0.0.1) — next to what
 * `graphspec serve` sends for the same failure. The official server passes an error's `name` and
 * `message` only, so there the code is `error` and the hint ends the message (docs/deploy.md).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, folderCatalog, type RunningServer, startServer } from "../src/index.js";
import { type LanggraphDev, startLanggraphDev } from "./support/langgraph-dev.js";

const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, "bin/graphspec.js");

/** A `tool` node whose tool throws. */
const TOOLED = `version: 1
name: tooled
state:
  order: { type: string, default: "" }
  status: { type: string, default: "" }
tools:
  lookup:
    module: ../tools.mjs
    description: Looks an order up.
    schema: { type: object, properties: { order: { type: string } }, required: [order] }
nodes:
  check: { kind: tool, tool: lookup, args: { order: "\${{ state.order }}" }, write: status }
edges:
  - { from: START, to: check }
  - { from: check, to: END }
`;

/** A route whose \`when\` reads a channel nothing wrote. */
const ROUTED = `version: 1
name: routed
state:
  count: { type: integer }
  log: { type: array, items: { type: string }, reducer: append, default: [] }
nodes:
  a: { kind: set, values: { log: a } }
edges:
  - { from: START, to: a }
  - from: a
    route:
      - { when: "state.count > 1", to: END }
      - { default: END }
`;

/** Ten steps, and a spec limit of three. */
const LOOPER = `version: 1
name: looper
state:
  n: { type: integer, reducer: sum, default: 0 }
nodes:
  step: { kind: set, values: { n: 1 } }
edges:
  - { from: START, to: step }
  - from: step
    route:
      - { when: "state.n < 10", to: step }
      - { default: END }
limits: { recursion: 3 }
`;

/** What a client sees of one failed run. */
interface Seen {
  /** The stream's `error` event's data (graphspec serve: a refused run's 422 body). */
  streamed: Record<string, unknown>;
  /** The message of the error `runs.wait` throws. */
  waited: string;
  /** What `runs.join` returns for a background run. */
  joined: unknown;
  /** The thread's state after the failure, as JSON. */
  state: string;
}

let dir: string;
let official: LanggraphDev | undefined;
let ours: RunningServer | undefined;
let officialClient: Client;
let ourClient: Client;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "graphspec-export-errors-"));
  writeFileSync(join(dir, "package.json"), "{}\n");
  mkdirSync(join(dir, "graphs"));
  writeFileSync(join(dir, "graphs/tooled.yaml"), TOOLED);
  writeFileSync(join(dir, "graphs/routed.yaml"), ROUTED);
  writeFileSync(join(dir, "graphs/looper.yaml"), LOOPER);
  writeFileSync(
    join(dir, "tools.mjs"),
    "export const lookup = async ({ order }) => { throw new Error(`the warehouse has no ${order}`); };\n",
  );
  const r = spawnSync(process.execPath, [BIN, "export", "langgraph"], {
    cwd: dir,
    encoding: "utf8",
  });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  const out = join(dir, "langgraph-export");
  // As `npm install` in the export would: graphspec (this repository) and LangGraph.
  mkdirSync(join(out, "node_modules/@langchain"), { recursive: true });
  symlinkSync(ROOT, join(out, "node_modules/graphspec"));
  symlinkSync(
    join(ROOT, "node_modules/@langchain/langgraph"),
    join(out, "node_modules/@langchain/langgraph"),
  );
  official = await startLanggraphDev(out);
  officialClient = new Client({ apiUrl: official.url, callerOptions: { maxRetries: 0 } });
  ours = await startServer({
    exec: createExecutor({ dir: join(dir, "graphs"), checkpointer: "memory" }),
    graphs: await folderCatalog(join(dir, "graphs")),
    auth: undefined,
    port: 0,
  });
  ourClient = new Client({ apiUrl: ours.url, callerOptions: { maxRetries: 0 } });
}, 150_000);

afterAll(async () => {
  await official?.stop();
  await ours?.close(1000);
  rmSync(dir, { recursive: true, force: true });
});

/** One failing run, streamed, waited for and joined, each on a thread of its own. */
async function fail(client: Client, graph: string, input: Record<string, unknown>): Promise<Seen> {
  const streamThread = await client.threads.create();
  let streamed: Record<string, unknown> | undefined;
  try {
    for await (const e of client.runs.stream(streamThread.thread_id, graph, { input }))
      if (e.event === "error") streamed = e.data as Record<string, unknown>;
  } catch (e) {
    // graphspec serve refuses a bad input before the run starts: the same fields, in a 422's body.
    const { status, text } = e as { status?: number; text?: string };
    if (status !== 422 || !text) throw e;
    streamed = JSON.parse(text);
  }
  const waitThread = await client.threads.create();
  const waited = await client.runs.wait(waitThread.thread_id, graph, { input }).then(
    () => "no error",
    (e: Error) => e.message,
  );
  const joinThread = await client.threads.create();
  const run = await client.runs.create(joinThread.thread_id, graph, { input });
  const joined = await client.runs.join(joinThread.thread_id, run.run_id);
  expect((await client.runs.get(joinThread.thread_id, run.run_id)).status).toBe("error");
  const state = JSON.stringify(await client.threads.getState(joinThread.thread_id));
  expect(streamed).toBeDefined();
  return { streamed: streamed as Record<string, unknown>, waited, joined, state };
}

/**
 * The official server's stream says what graphspec serve's says — the code as `error`, the
 * message, then the hint — and so do wait and join, in the wrapping the official server gives
 * them (docs/deploy.md, "Known upstream problems"). No path of the server's anywhere.
 */
function expectAgreement(official: Seen, ours: Seen, code: string) {
  const { error, message, hint } = ours.streamed;
  expect(error).toBe(code);
  expect(typeof hint).toBe("string");
  expect(official.streamed).toEqual({ error: code, message: `${message}\nhint: ${hint}` });
  // Upstream serializes the stream's error once more for wait and join.
  expect(official.waited).toBe(`Error: ${JSON.stringify(official.streamed)}`);
  expect(official.joined).toEqual({
    __error__: { error: "Error", message: JSON.stringify(official.streamed) },
  });
  expect(ours.waited).toMatch(new RegExp(`^(${code}: |HTTP 422: )`));
  for (const seen of [official, ours]) {
    expect(JSON.stringify(seen)).not.toContain(dir);
    const { streamed, waited, joined } = seen;
    expect(JSON.stringify({ streamed, waited, joined })).not.toContain("GraphspecRunError");
  }
}

describe("graphspec's run errors through the official LangGraph dev server", () => {
  it("a tool that throws: tool-error, the tool's message and graphspec's hint", async () => {
    const input = { order: "O-9" };
    const seen = await fail(officialClient, "tooled", input);
    expectAgreement(seen, await fail(ourClient, "tooled", input), "tool-error");
    expect(seen.streamed.message).toContain("the warehouse has no O-9");
  });

  it("an expression that fails: expression, the spec's expression named, and a hint", async () => {
    const input = { log: ["start"] };
    const seen = await fail(officialClient, "routed", input);
    expectAgreement(seen, await fail(ourClient, "routed", input), "expression");
  });

  it("an input key the graph does not accept: invalid-input, with the key it meant", async () => {
    const input = { ordr: "O-1" };
    const seen = await fail(officialClient, "tooled", input);
    expectAgreement(seen, await fail(ourClient, "tooled", input), "invalid-input");
    expect(seen.streamed.message).toContain("`ordr`");
    expect(seen.streamed.message).toMatch(/hint: .*`order`/);
  });

  it("a loop past the spec's limits.recursion: recursion-limit, LangGraph's message and graphspec's hint", async () => {
    const input = { n: 0 };
    const seen = await fail(officialClient, "looper", input);
    expectAgreement(seen, await fail(ourClient, "looper", input), "recursion-limit");
    expect(seen.streamed.message).toMatch(
      /^Recursion limit of 3 reached[\s\S]*\nhint: raise `limits.recursion`/,
    );
  });
});
