/**
 * What a checkpointer is handed when a run has secrets (src/run/secret-guard.ts): the saver's
 * `put` and `putWrites` see channel values, pending writes and metadata with the secrets masked,
 * and LangGraph's own names, ids and bookkeeping as they were. The runs of
 * test/security/secrets.test.ts show a masked thread end to end; this pins each channel's and
 * each metadata key's rule, on a real saver's serializer.
 */
import { AIMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import {
  type Checkpoint,
  type CheckpointMetadata,
  DeltaSnapshot,
  type PendingWrite,
} from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { guardSecrets, SCRUB_KEY } from "../../src/run/secret-guard.js";
import { scrubber } from "../../src/spec/secrets.js";

const SECRET = "hunter22";
const said = `pw=${SECRET}`;

/** A saver whose put and putWrites record what the guard hands them. */
function guarded(keep: string[] = []) {
  const saver = new MemorySaver();
  const puts: [Checkpoint, CheckpointMetadata][] = [];
  const writes: PendingWrite[][] = [];
  saver.put = async (config, checkpoint, metadata) => {
    puts.push([checkpoint, metadata]);
    return config;
  };
  saver.putWrites = async (_config, w) => {
    writes.push(w);
  };
  guardSecrets(saver, keep);
  return { saver, puts, writes };
}
const config = (secrets: string[] = [SECRET], scrub: unknown = scrubber(secrets)) => ({
  configurable: { thread_id: "t", [SCRUB_KEY]: scrub },
});
const checkpoint = (channel_values: Record<string, unknown>): Checkpoint => ({
  v: 4,
  id: `id-${SECRET}`,
  ts: "2026-01-01T00:00:00.000Z",
  channel_values,
  channel_versions: {},
  versions_seen: {},
});
const metadata = (extra: Record<string, unknown> = {}) =>
  ({ source: "loop", step: 1, parents: {}, ...extra }) as CheckpointMetadata;

describe("put", () => {
  it("masks channel values, at any depth, and keeps the checkpoint's own fields", async () => {
    const { saver, puts } = guarded();
    await saver.put(
      config(),
      checkpoint({ note: said, deep: { list: [said, 1, null] }, n: 3 }),
      metadata(),
    );
    const [stored] = puts[0]!;
    expect(stored.channel_values).toEqual({
      note: "pw=***",
      deep: { list: ["pw=***", 1, null] },
      n: 3,
    });
    expect(stored.id).toBe(`id-${SECRET}`);
  });

  it("masks what a message was built from, and keeps it a message", async () => {
    const { saver, puts } = guarded();
    const message = new AIMessage({ content: said, id: "m1", name: "bot" });
    await saver.put(config(), checkpoint({ messages: [message] }), metadata());
    const [stored] = puts[0]!;
    const [m] = stored.channel_values.messages as AIMessage[];
    expect(m).toBeInstanceOf(AIMessage);
    expect(m!.content).toBe("pw=***");
    expect(m!.id).toBe("m1");
    // The run's own value is untouched: only the stored copy is masked.
    expect(message.content).toBe(said);
  });

  it("never masks LangChain's own names: a secret that is a class name leaves the message a message", async () => {
    const { saver, puts } = guarded();
    await saver.put(
      config(["AIMessage", "constructor"]),
      checkpoint({
        messages: [new AIMessage({ content: "AIMessage constructor", id: "m1" })],
        error: new Error("Error constructor"),
      }),
      metadata(),
    );
    const values = puts[0]![0].channel_values;
    const [m] = values.messages as AIMessage[];
    expect(m).toBeInstanceOf(AIMessage);
    expect(m!.content).toBe("*** ***");
    // An Error's record (`lc: 2`) names its class too.
    expect(values.error).toBeInstanceOf(Error);
    expect((values.error as Error).message).toBe("Error ***");
  });

  it("masks the values inside a Map, a Set and an Error", async () => {
    const { saver, puts } = guarded();
    await saver.put(
      config(),
      checkpoint({
        map: new Map([["k", said]]),
        set: new Set([said]),
        error: new Error(said),
      }),
      metadata(),
    );
    const v = puts[0]![0].channel_values as {
      map: Map<string, string>;
      set: Set<string>;
      error: Error;
    };
    expect([...v.map]).toEqual([["k", "pw=***"]]);
    expect([...v.set]).toEqual(["pw=***"]);
    expect(v.error.message).toBe("pw=***");
  });

  it("masks a delta channel's snapshot, and keeps it a snapshot", async () => {
    const { saver, puts } = guarded();
    await saver.put(config(), checkpoint({ log: new DeltaSnapshot([said, "ok"]) }), metadata());
    const log = puts[0]![0].channel_values.log as DeltaSnapshot;
    expect(log).toBeInstanceOf(DeltaSnapshot);
    expect(log.value).toEqual(["pw=***", "ok"]);
  });

  it("hands over the very same checkpoint when no value holds a secret", async () => {
    const { saver, puts } = guarded();
    const cp = checkpoint({ note: "nothing here", other: { x: "hunter2" } });
    await saver.put(config(), cp, metadata());
    expect(puts[0]![0]).toBe(cp);
  });

  it("masks metadata, except LangGraph's own keys and the ones it was told to keep", async () => {
    const { saver, puts } = guarded(["graphspec_graph"]);
    await saver.put(
      config(),
      checkpoint({}),
      metadata({
        source: said,
        step: said,
        parents: { "": said },
        counters_since_delta_snapshot: said,
        delta_writes_versioned: said,
        graphspec_graph: said,
        graphspec_context: { token: said },
        other: said,
      }),
    );
    expect(puts[0]![1]).toEqual({
      source: said,
      step: said,
      parents: { "": said },
      counters_since_delta_snapshot: said,
      delta_writes_versioned: said,
      graphspec_graph: said,
      graphspec_context: { token: "pw=***" },
      other: "pw=***",
    });
  });

  it("passes everything as it is without a Scrub, or with one that has no secrets", async () => {
    for (const c of [
      { configurable: { thread_id: "t" } },
      config([]),
      config([SECRET], "not a scrub"),
      config([SECRET], () => "a function that is no Scrub"),
      {},
    ]) {
      const { saver, puts } = guarded();
      const cp = checkpoint({ note: said });
      const meta = metadata({ other: said });
      await saver.put(c, cp, meta);
      expect(puts[0]![0]).toBe(cp);
      expect(puts[0]![1]).toBe(meta);
    }
  });
});

describe("putWrites", () => {
  it("masks each write by its channel's rule", async () => {
    const { saver, writes } = guarded();
    await saver.putWrites(
      config(),
      [
        ["note", said],
        ["__error__", { message: said }],
        ["__interrupt__", [{ id: `i-${SECRET}`, value: { ask: said } }]],
        ["__interrupt__", { id: `i-${SECRET}`, value: said }],
        ["__interrupt__", "no fields"],
        ["__pregel_tasks", { node: SECRET, args: { q: said } }],
        ["__error_source_node__", SECRET],
        ["__no_writes__", SECRET],
        ["__scheduled__", SECRET],
        ["__snapshot_bumps__", SECRET],
        [`branch:to:${SECRET}`, SECRET],
        ["note", said],
      ],
      "task",
    );
    expect(writes[0]).toEqual([
      ["note", "pw=***"],
      ["__error__", { message: "pw=***" }],
      ["__interrupt__", [{ id: `i-${SECRET}`, value: { ask: "pw=***" } }]],
      ["__interrupt__", { id: `i-${SECRET}`, value: "pw=***" }],
      ["__interrupt__", "no fields"],
      ["__pregel_tasks", { node: SECRET, args: { q: "pw=***" } }],
      ["__error_source_node__", SECRET],
      ["__no_writes__", SECRET],
      ["__scheduled__", SECRET],
      ["__snapshot_bumps__", SECRET],
      [`branch:to:${SECRET}`, SECRET],
      ["note", "pw=***"],
    ]);
  });

  it("hands over the very same writes when none holds a secret, or there are none", async () => {
    const { saver, writes } = guarded();
    const w: PendingWrite[] = [["note", "fine"]];
    await saver.putWrites(config(), w, "task");
    const none: PendingWrite[] = [];
    await saver.putWrites(config(), none, "task");
    await saver.putWrites({ configurable: {} }, [["note", said]], "task");
    expect(writes[0]).toBe(w);
    expect(writes[1]).toBe(none);
    expect(writes[2]).toEqual([["note", said]]);
  });

  it("masks a secret written with JSON escapes as the saver stores it", async () => {
    const quoted = 'say "hi"\\now';
    const { saver, writes } = guarded();
    await saver.putWrites(config([quoted]), [["note", `x ${quoted} y`]], "task");
    expect(writes[0]).toEqual([["note", "x *** y"]]);
  });
});
