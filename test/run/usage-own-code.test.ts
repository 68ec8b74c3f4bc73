/**
 * A run's token usage counts the model calls of the user's own code too — a function node's, a
 * tool's, a subgraph's function node's — though that code does not pass its config on (LangChain
 * finds the run's callbacks in its async context), each call once; and `maxTokens` stops a run
 * on them. The executor gives its usage handler to the nodes that may call a model, not to every
 * runnable of the graph (src/compile/run-usage.ts): this is what that must keep. Real ChatOpenAI
 * over HTTP against the provider simulator.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { type ProviderSim, startProviderSim } from "../support/provider-sim/server.js";

const DIR = join(import.meta.dirname, "../fixtures/usage/own-code");

let sim: ProviderSim;
let exec: Executor;
beforeAll(async () => {
  sim = await startProviderSim();
  exec = createExecutor({ dir: DIR, checkpointer: "memory" });
});
afterAll(async () => {
  await exec?.close();
  await sim?.close();
});

describe("usage of the user's own model calls", () => {
  it("counts each call of a function node, a tool and a subgraph's function node once", async () => {
    const before = sim.reported.length;
    sim.push(
      { text: "hi", usage: { input_tokens: 11, output_tokens: 2 } },
      { text: "a summary", usage: { input_tokens: 23, output_tokens: 5 } },
      { text: "hi again", usage: { input_tokens: 37, output_tokens: 3 } },
    );
    const result = await exec.run("asks", { context: { url: sim.openaiUrl } });
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("completed");
    expect(result.output.said).toEqual(["hi", "a summary", "hi again"]);
    expect(sim.reported.length - before).toBe(3);
    expect(result.usage).toEqual({ inputTokens: 71, outputTokens: 10, totalTokens: 81 });
  });

  it("stops the run at maxTokens on a function node's call", async () => {
    sim.push(
      { text: "hi", usage: { input_tokens: 40, output_tokens: 20 } },
      { text: "never asked", usage: { input_tokens: 1, output_tokens: 1 } },
    );
    const before = sim.requests.length;
    const result = await exec.run("asks", { context: { url: sim.openaiUrl }, maxTokens: 50 });
    expect(result.status).toBe("failed");
    expect(result.error?.code).toBe("budget-exceeded");
    expect(sim.requests.length - before).toBe(1);
    expect(result.usage.totalTokens).toBe(60);
    // The turn not asked for stays queued: take it out for whoever runs next.
    sim.push();
  });
});
