/**
 * A model call's whole-call deadline (src/compile/models/call-deadline.ts) on both real LangChain
 * clients — ChatOpenAI and ChatAnthropic — against the provider simulator: a provider that never
 * answers, and one that stops midway through a streamed answer, fail the run with `timeout` naming
 * the model and the node, whichever way the node calls the model (plain, with tools bound for an
 * agent, for structured output) and whether the run is invoked or streamed; the checkpoint before
 * the call is kept and a resume goes on once the provider answers.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, type Executor, type RunResult } from "../../src/index.js";
import { type ProviderSim, startProviderSim } from "../support/provider-sim/server.js";
import { simEnv, simModels } from "../support/provider-sim/spec-models.js";
import { streamResult } from "../support/stream-result.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-model-deadline-"));
mkdirSync(join(dir, "graphs"));
writeFileSync(join(dir, "package.json"), "{}");
writeFileSync(
  join(dir, "lookup.mjs"),
  `import { tool } from "@langchain/core/tools";
export const lookup = tool(async ({ id }) => "record " + id, {
  name: "lookup",
  description: "Look a record up by its id.",
  schema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
});
`,
);
const MODELS = simModels(", timeout_ms: 800");
/** How each node kind calls its model: plain, tools bound (an agent), for structured output. */
const NODES = {
  llm: "{ kind: llm, prompt: hi }",
  agent: "{ kind: agent, tools: [lookup], max_steps: 3 }",
  structured:
    "{ kind: llm, prompt: hi, output: { schema: { type: object, properties: { ok: { type: boolean } }, required: [ok] } }, write: { ok: '${{ output.ok }}' } }",
};
for (const [api, model] of Object.entries(MODELS))
  for (const [kind, node] of Object.entries(NODES))
    writeFileSync(
      join(dir, "graphs", `${kind}-${api}.yaml`),
      `version: 1
name: ${kind}-${api}
state:
  messages: { type: messages }
  log: { type: array, items: { type: string }, reducer: append, default: [] }
  ok: { type: boolean }
models:
  ${api}: ${model}
tools:
  lookup: { module: ../lookup.mjs, export: lookup }
nodes:
  first: { kind: set, values: { log: first ran } }
  call: ${node.replace("{ kind:", `{ model: ${api}, kind:`)}
edges:
  - { from: START, to: first }
  - { from: first, to: call }
  - { from: call, to: END }
`,
    );

let sim: ProviderSim;
let exec: Executor;
beforeAll(async () => {
  sim = await startProviderSim();
  exec = createExecutor({
    dir: join(dir, "graphs"),
    checkpointer: "memory",
    env: simEnv(sim),
  });
});
afterAll(async () => {
  await exec?.close();
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The run's result, invoked or streamed; with `threadId`, going on from its last checkpoint. */
function runOf(graph: string, streamed: boolean, threadId?: string): Promise<RunResult> {
  if (!streamed)
    return threadId ? exec.resume(graph, { threadId }) : exec.run(graph, { input: {} });
  return streamResult(
    threadId ? exec.stream(graph, { threadId, continue: true }) : exec.stream(graph, { input: {} }),
  );
}

/** The answer that lets each node kind finish. */
const answer = (kind: string) =>
  kind === "structured" ? { structured: { ok: true } } : { text: "done" };

describe.each(Object.keys(MODELS))("a %s model past its timeout_ms", (api) => {
  describe.each(Object.keys(NODES))("called by an %s node", (kind) => {
    it.each([
      ["never answers", { stall: true as const }, false],
      [
        "stops midway through its answer",
        { text: "never finished", stall: "mid-stream" as const },
        true,
      ],
    ])(
      "%s: the run fails with `timeout` naming the model and node; a resume goes on",
      async (_, stall, streamed) => {
        const graph = `${kind}-${api}`;
        sim.push(
          kind === "structured" && stall.stall === "mid-stream"
            ? { ...stall, structured: { ok: false } }
            : stall,
        );
        const failed = await runOf(graph, streamed);
        expect(failed).toMatchObject({
          status: "failed",
          next: ["call"],
          output: { log: ["first ran"] },
          error: { code: "timeout", node: "call" },
        });
        expect(failed.error!.message).toMatch(
          new RegExp(
            `^model \`${api}\` \\(\`${api}:[^\`]+\`\\) timed out: no answer within 800 ms$`,
          ),
        );
        expect(failed.error!.hint).toContain(`models.${api}.timeout_ms`);
        sim.push(answer(kind));
        const resumed = await runOf(graph, streamed, failed.threadId);
        expect(resumed.status, JSON.stringify(resumed.error)).toBe("completed");
        expect(resumed.output).toMatchObject({ log: ["first ran"] });
      },
    );
  });
});
