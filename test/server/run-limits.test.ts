/**
 * A run's deadline and token budget over HTTP, through the official SDK: the server's bound
 * (`runDeadlineMs`, `runMaxTokens` — `--run-deadline`, `--run-max-tokens`) holds every run, a run
 * may ask for less in `config.configurable`, never for more; a stopped run keeps its checkpoints
 * and its thread says `error`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./harness.js";

type Gates = { __graphspecGates?: (() => void)[] };
const openGates = () => {
  const gates = (globalThis as Gates).__graphspecGates ?? [];
  for (const open of gates.splice(0)) open();
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    runDeadlineMs: 1500,
    runMaxTokens: 3000,
    // Each answer reports 2,000 tokens: the second call passes a budget of 3,000.
    scripts: {
      small: [
        {
          tool_calls: [{ name: "add", args: { a: 2, b: 3 } }],
          usage: { input_tokens: 1990, output_tokens: 10 },
        },
        { text: "5", usage: { input_tokens: 1990, output_tokens: 10 } },
      ],
    },
  });
});
afterEach(openGates);
afterAll(() => h.stop());

const messages = { messages: [{ role: "user", content: "2 + 3?" }] };

describe("a run's deadline over HTTP", () => {
  // 900 ms, under the server's 1.5 s: long enough that the run reaches its gated node (and its
  // checkpoint naming it) before the deadline on a loaded machine — 200 ms failed once at a load of 25.
  it("a run that asks for 900ms stops then, its thread in error, its checkpoint kept", async () => {
    const client = h.client();
    const thread = await client.threads.create();
    await expect(
      client.runs.wait(thread.thread_id, "gated", {
        input: {},
        config: { configurable: { graphspec_deadline: "900ms" } },
        raiseError: true,
      }),
      // The run's own deadline stopped it, not the server's (1.5 s).
    ).rejects.toThrow(/deadline-exceeded: the run passed its deadline \(900 ms\)/);
    expect((await client.threads.get(thread.thread_id)).status).toBe("error");
    const state = await client.threads.getState(thread.thread_id);
    expect(state.next).toEqual(["hold"]);
  });

  it("a run that asks for nothing gets the server's bound, background runs too", async () => {
    const client = h.client();
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "gated", { input: {} });
    const joined = await client.runs.join(thread.thread_id, run.run_id);
    expect(joined).toMatchObject({
      __error__: { error: "deadline-exceeded", message: "the run passed its deadline (1500 ms)" },
    });
    const ended = await client.runs.get(thread.thread_id, run.run_id);
    expect(ended.status).toBe("error");
    expect((await client.threads.get(thread.thread_id)).status).toBe("error");
  });

  it("a run may not ask for more than the server allows, nor for a duration that is none", async () => {
    const client = h.client();
    const thread = await client.threads.create();
    for (const [asked, says] of [
      ["2h", /graphspec_deadline.*longer than this server allows.*1\.5s|1500ms/],
      ["soon", /graphspec_deadline.*duration above 0/],
      [-5, /graphspec_deadline.*duration above 0/],
    ] as const) {
      const refused = client.runs.wait(thread.thread_id, "gated", {
        input: {},
        config: { configurable: { graphspec_deadline: asked } },
        raiseError: true,
      });
      await expect(refused).rejects.toThrow(says);
    }
    // Refused before anything ran: the thread never started.
    expect((await client.threads.getState(thread.thread_id)).values).toEqual({});
  });
});

describe("a run's token budget over HTTP", () => {
  it("the server's budget stops a run whose model calls pass it, after the call that did", async () => {
    const client = h.client();
    const thread = await client.threads.create();
    await expect(
      client.runs.wait(thread.thread_id, "chooser", { input: messages, raiseError: true }),
    ).rejects.toThrow(/budget-exceeded/);
    expect((await client.threads.get(thread.thread_id)).status).toBe("error");
  });

  it("a run may ask for fewer tokens (stopped after its first call), never for more", async () => {
    const client = h.client();
    const thread = await client.threads.create();
    await expect(
      client.runs.wait(thread.thread_id, "chooser", {
        input: messages,
        config: { configurable: { graphspec_max_tokens: 1000 } },
        raiseError: true,
      }),
    ).rejects.toThrow(/budget-exceeded/);
    // Stopped inside the agent's one step, after its first model call: the step is abandoned
    // (as LangGraph abandons a step on its signal), the input's checkpoint kept.
    const values = (await client.threads.getState(thread.thread_id)).values as {
      messages: { type: string }[];
    };
    expect(values.messages.map((m) => m.type)).toEqual(["human"]);
    const other = await client.threads.create();
    await expect(
      client.runs.wait(other.thread_id, "chooser", {
        input: messages,
        config: { configurable: { graphspec_max_tokens: 5000 } },
        raiseError: true,
      }),
    ).rejects.toThrow(/graphspec_max_tokens.*more than this server allows \(3000\)/);
  });
});

describe("a saved assistant's deadline and token budget", () => {
  it("are held to the server's bounds when it is saved or updated, not at each of its runs", async () => {
    const client = h.client();
    await expect(
      client.assistants.create({
        graphId: "gated",
        config: { configurable: { graphspec_deadline: "2h" } },
      }),
    ).rejects.toThrow(/422.*graphspec_deadline.*longer than this server allows/s);
    const saved = await client.assistants.create({
      graphId: "chooser",
      config: { configurable: { graphspec_max_tokens: 1000 } },
    });
    await expect(
      client.assistants.update(saved.assistant_id, {
        config: { configurable: { graphspec_max_tokens: 5000 } },
      }),
    ).rejects.toThrow(/422.*graphspec_max_tokens.*more than this server allows \(3000\)/s);
    // What it may ask holds its runs: stopped after the first call, as a run asking 1,000 is.
    const thread = await client.threads.create();
    await expect(
      client.runs.wait(thread.thread_id, saved.assistant_id, { input: messages, raiseError: true }),
    ).rejects.toThrow(/budget-exceeded/);
  });
});

describe("a deadline and a token budget asked for, at the server's bounds", () => {
  /** Saves an assistant asking for `configurable` (held to the server's bounds): its answer. */
  const save = async (configurable: Record<string, unknown>) => {
    const r = await fetch(`${h.url}/assistants`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ graph_id: "gated", config: { configurable } }),
    });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  const refused = (field: string, message: string, hint: string) => ({
    status: 422,
    body: {
      error: "invalid-request",
      message,
      detail: message,
      field: `config.configurable.${field}`,
      hint,
    },
  });

  it("exactly the server's is taken; a millisecond or a token more is refused, naming both", async () => {
    for (const ok of [
      { graphspec_deadline: "1500ms" },
      { graphspec_deadline: 1500 },
      { graphspec_deadline: 1 },
      { graphspec_deadline: null, graphspec_max_tokens: null },
      { graphspec_max_tokens: 3000 },
      { graphspec_max_tokens: 1 },
    ])
      expect((await save(ok)).status, JSON.stringify(ok)).toBe(200);
    expect(await save({ graphspec_deadline: "1501ms" })).toEqual(
      refused(
        "graphspec_deadline",
        "`config.configurable.graphspec_deadline` (1501ms) is longer than this server allows (1500ms)",
        "ask for 1500ms or less, or leave it out to get the server's; an operator raises it with --run-deadline",
      ),
    );
    expect((await save({ graphspec_deadline: "2s" })).body.message).toBe(
      "`config.configurable.graphspec_deadline` (2s) is longer than this server allows (1500ms)",
    );
    expect(await save({ graphspec_max_tokens: 3001 })).toEqual(
      refused(
        "graphspec_max_tokens",
        "`config.configurable.graphspec_max_tokens` (3001) is more than this server allows (3000)",
        "ask for 3000 or fewer, or leave it out to get the server's; an operator raises it with --run-max-tokens",
      ),
    );
  });

  it("a deadline that is no duration above 0, and tokens that are no whole number above 0, are refused", async () => {
    // "9…9h" is a duration too long to be a number (Infinity).
    for (const asked of [0, -1, "soon", true, {}, `${"9".repeat(400)}h`])
      expect(await save({ graphspec_deadline: asked }), JSON.stringify(asked)).toEqual(
        refused(
          "graphspec_deadline",
          "`config.configurable.graphspec_deadline` must be a duration above 0",
          'e.g. "30s", "5m", "1h", or a number of milliseconds',
        ),
      );
    for (const asked of [0, -1, 1.5, "10", 2 ** 53])
      expect(await save({ graphspec_max_tokens: asked }), JSON.stringify(asked)).toEqual(
        refused(
          "graphspec_max_tokens",
          "`config.configurable.graphspec_max_tokens` must be a whole number of tokens above 0",
          "e.g. 20000",
        ),
      );
  });
});
