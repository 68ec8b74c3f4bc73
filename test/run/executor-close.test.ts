/**
 * Closing an executor (src/run/call-gate.ts): `close()` waits for the calls in flight — a run in
 * the middle of a node ends and keeps its checkpoints — then releases the checkpointer; every call
 * after it is refused with ExecutorClosedError instead of opening the database again.
 */
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createExecutor, ExecutorClosedError } from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-executor-close-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
writeFileSync(
  join(dir, "hold.mjs"),
  // The test holds the run inside this node until it lets go.
  "export default async () => { globalThis.enteredStep?.(); await globalThis.heldStep; return { n: 1 }; };\n",
);
writeFileSync(
  join(dir, "graphs", "held.yaml"),
  `version: 1
name: held
state:
  n: { type: integer }
  m: { type: integer }
nodes:
  hold: { kind: function, module: ../hold.mjs }
  after: { kind: set, values: { m: "\${{ state.n + 1 }}" } }
edges:
  - { from: START, to: hold }
  - { from: hold, to: after }
  - { from: after, to: END }
`,
);

const g = globalThis as { heldStep?: Promise<void>; enteredStep?: () => void };
const options = (name: string) => ({
  dir: join(dir, "graphs"),
  checkpointer: "sqlite" as const,
  sqlitePath: join(dir, `${name}.sqlite`),
});
/**
 * This process's open files that are the database or its journal (Linux: /proc/self/fd) — not its
 * thread-claim holder file, which the process holds while it lives (thread-claims-sqlite.ts).
 */
const openHandles = (name: string) =>
  readdirSync("/proc/self/fd")
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return ""; // closed since the listing
      }
    })
    .filter((t) => t.startsWith(options(name).sqlitePath) && !t.includes(".sqlite-holders/"));
/** Lets macrotasks run: a close() that did not wait would have settled by then. */
const aFewTurns = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};
/** Holds the next run inside its node: `entered` once it is there, `letGo()` to let it end. */
function holdStep(): { entered: Promise<void>; letGo: () => void } {
  let letGo = () => {};
  g.heldStep = new Promise<void>((r) => {
    letGo = r;
  });
  const entered = new Promise<void>((r) => {
    g.enteredStep = r;
  });
  return { entered, letGo };
}
/** `exec.close()`, and whether it has settled yet. */
function closeOf(exec: { close(): Promise<void> }) {
  const state = { closed: false, closing: Promise.resolve() };
  state.closing = exec.close().then(() => {
    state.closed = true;
  });
  return state;
}

describe("executor close()", () => {
  it("waits for a run in a node, which ends and keeps its checkpoints", async () => {
    const held = holdStep();
    const exec = createExecutor(options("held"));
    const running = exec.run("held", { threadId: "t-held", input: {} });
    await held.entered;
    const close = closeOf(exec);
    await aFewTurns();
    expect(close.closed).toBe(false);
    held.letGo();
    const result = await running;
    expect(result.status).toBe("completed");
    expect(result.output).toMatchObject({ n: 1, m: 2 });
    await close.closing;
    expect(close.closed).toBe(true);
    // Nothing opened the database again behind the close.
    expect(openHandles("held")).toEqual([]);

    const again = createExecutor(options("held"));
    try {
      expect((await again.state("t-held", "held"))?.values).toMatchObject({ n: 1, m: 2 });
    } finally {
      await again.close();
    }
  });

  it("refuses every call after close(), naming the call, with a hint", async () => {
    g.heldStep = Promise.resolve();
    const exec = createExecutor(options("after"));
    expect((await exec.run("held", { input: {} })).status).toBe("completed");
    await exec.close();
    const refused = await exec.run("held", { input: {} }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ExecutorClosedError);
    expect((refused as ExecutorClosedError).message).toBe("run: this executor is closed");
    expect((refused as ExecutorClosedError).hint).toMatch(/create another executor/);
    await expect(exec.threads()).rejects.toThrow("threads: this executor is closed");
    await expect(exec.state("x", "held")).rejects.toThrow("state: this executor is closed");
    const events = exec.stream("held", { input: {} });
    await expect(events.next()).rejects.toThrow("stream: this executor is closed");
    // A second close() is the first one's.
    await expect(exec.close()).resolves.toBeUndefined();
  });

  it("waits for a stream being read to its end", async () => {
    const held = holdStep();
    const exec = createExecutor(options("stream"));
    const events = exec.stream("held", { input: {} });
    const first = await events.next();
    expect(first.done).toBe(false);
    const close = closeOf(exec);
    await aFewTurns();
    expect(close.closed).toBe(false);
    held.letGo();
    const rest = [];
    for await (const event of events) rest.push(event.type);
    expect(rest.at(-1)).toBe("completed");
    await close.closing;
    expect(close.closed).toBe(true);
    expect(openHandles("stream")).toEqual([]);
  });

  it("an executor closed before its first call loads nothing and refuses the call", async () => {
    const exec = createExecutor(options("never"));
    await exec.close();
    await expect(exec.run("held", { input: {} })).rejects.toBeInstanceOf(ExecutorClosedError);
    await expect(exec.deleteThreads("t")).rejects.toThrow("deleteThreads: this executor is closed");
  });
});
