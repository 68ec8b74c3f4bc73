/**
 * Masked checkpoints still work: a thread whose stored messages, map fan-out (LangGraph's Sends)
 * and pending interrupts held a secret resumes by interrupt id in another executor, and only the
 * secret is gone — masked in what the resumed run reads back, as docs/security.md says.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";

const TOKEN = "tok-8c1d2e3f4a5b6c7d";
const dir = mkdtempSync(join(tmpdir(), "graphspec-secrets-resume-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
writeFileSync(
  join(dir, "graphs", "fanout.yaml"),
  `version: 1
name: fanout
state:
  messages: { type: messages }
  topic: { type: string, default: "" }
  topics: { type: array, items: { type: string }, default: [] }
  sections: { type: array, items: { type: string }, reducer: append, default: [] }
context:
  upstream: { type: string, secret: true }
models:
  default: { model: "scripted:talk" }
nodes:
  talk: { kind: llm, prompt: "use \${{ context.upstream }}" }
  plan: { kind: set, values: { topics: ["a \${{ context.upstream }}", "b \${{ context.upstream }}"] } }
  write:
    kind: interrupt
    payload: { topic: "\${{ state.topic }}" }
    schema: { type: string }
    write: { sections: ["\${{ state.topic }}: \${{ resume }}"] }
edges:
  - { from: START, to: talk }
  - { from: talk, to: plan }
  - from: plan
    map: { over: state.topics, to: write, with: { topic: "\${{ item }}" } }
  - { from: write, to: END }
`,
);

it("messages, Sends and interrupts stored masked: the thread resumes by interrupt id", async () => {
  const sqlitePath = join(dir, "state.db");
  const executor = () =>
    createExecutor({
      dir: join(dir, "graphs"),
      checkpointer: "sqlite",
      sqlitePath,
      scripts: { talk: [`ok, using ${TOKEN}`] },
    });
  const context = { upstream: TOKEN };
  const first = executor();
  const paused = await first.run("fanout", { threadId: "t", context });
  await first.close();
  expect(paused.status).toBe("interrupted");
  expect(paused.interrupts.map((i) => i.value)).toEqual([{ topic: "a ***" }, { topic: "b ***" }]);

  const second = executor();
  try {
    const [a, b] = paused.interrupts;
    const done = await second.resume("fanout", {
      threadId: "t",
      value: { [a!.id]: "one", [b!.id]: "two" },
      context,
    });
    expect(done).toMatchObject({ status: "completed", interrupts: [], next: [] });
    expect([...(done.output.sections as string[])].sort()).toEqual(["a ***: one", "b ***: two"]);
    const messages = done.output.messages as { content: unknown }[];
    // The prompt, stored before the answer, masked like it.
    expect(messages.map((m) => m.content)).toEqual(["use ***", "ok, using ***"]);
  } finally {
    await second.close();
  }
  const bytes = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile() && join(f.parentPath, f.name).startsWith(join(dir, "state.db")))
    .map((f) => readFileSync(join(f.parentPath, f.name)).toString("latin1"))
    .join("");
  expect(bytes).toContain("ok, using ***");
  expect(bytes).not.toContain(TOKEN);
});
