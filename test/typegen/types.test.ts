/**
 * `graphspec types`, proven the way a user depends on it: types generated for the repository's
 * graphs by the built CLI, a program using them type-checked by the repository's TypeScript
 * (strict) and then run for real against the scripted models (so the types say what comes back),
 * and programs that misuse them failing to type-check with the expected error on the expected line.
 * The scratch folder sits inside the project so `import … from "graphspec"` resolves to the
 * package itself (its `exports`, the build), as the docs' examples do.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli, markedErrors, projectScratch, TSX, typeCheck } from "./harness.js";

const scratch = projectScratch();
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SCRIPTS = `{
  "support-triage": [{ structured: { priority: "urgent", reason: "locked out" } }],
  "ticket-agent": [
    { tool_calls: [{ name: "notify_customer", args: { message: "On it." } }] },
    { text: "Told the customer." },
  ],
}`;

const PRELUDE = `import { MemorySaver } from "@langchain/langgraph";
import { compile, createExecutor } from "graphspec";
import {
  type SupportTriageOutput,
  supportTriageGraph,
  supportTriageRuns,
  ticketAgentRuns,
} from "./types/index.js";

const scripts = ${SCRIPTS};
const exec = createExecutor({ dir: "../../graphs", checkpointer: "memory", scripts });
const triage = supportTriageRuns(exec);
const agent = ticketAgentRuns(exec);
`;

const GOOD = `${PRELUDE}
// The executor: run with typed input and context, narrow on the pause, resume with the node's type.
const paused = await triage.run({
  input: { ticket: "T-1001: cannot log in" },
  context: { user_id: "u-42" },
});
if (paused.status !== "interrupted") throw new Error(\`expected a pause, got \${paused.status}\`);
const [asked] = paused.interrupts;
if (asked?.node !== "approval") throw new Error("expected the approval node");
const question: string =
  "question" in asked.value ? asked.value.question : asked.value.payload.question;
const done = await triage.resume({ threadId: paused.threadId, node: "approval", value: true });
if (done.status !== "completed") throw new Error(\`expected completed, got \${done.status}\`);
const notes: string[] = done.output.notes;
const priority: "low" | "normal" | "urgent" = done.output.priority;

// An agent's tool approval: the request names the tools; the answer is one decision per call.
const waiting = await agent.run({
  input: { messages: "Where is T-1002?" },
  context: { user_id: "u-7" },
});
if (waiting.status !== "interrupted") throw new Error(\`expected a pause, got \${waiting.status}\`);
const call = waiting.interrupts[0];
if (call?.node !== "investigate") throw new Error("expected the agent's approval");
const tool: "notify_customer" = call.value.actionRequests[0]!.name;
const answered = await agent.resume({
  threadId: waiting.threadId,
  node: "investigate",
  value: { decisions: [{ type: "approve" }] },
});
const last =
  answered.status === "completed" ? answered.output.messages.at(-1)?.content : undefined;

// compile(): LangGraph's invoke on a checkpointer of one's own, typed the same way.
const graph = supportTriageGraph(
  await compile("../../graphs/support-triage.yaml", { checkpointer: new MemorySaver(), scripts }),
);
const config = { threadId: "c1", context: { user_id: "u-42" } };
const first = await graph.invoke({ ticket: "T-2002: cannot log in" }, config);
if (first.status !== "interrupted") throw new Error(\`expected a pause, got \${first.status}\`);
const firstNode: "approval" = first.interrupts[0]!.node;
const second = await graph.resume({ node: "approval", value: false }, config);
const output: SupportTriageOutput = second.output;

console.log(JSON.stringify({ question, notes, priority, tool, last, firstNode,
  compiled: second.status, compiledNotes: output.notes }));
await exec.close();
`;

/** Misuses, each on the line marked `// error: TScode`: that error there, and no other. */
const BAD: Record<string, string> = {
  "bad-input-type": `
await triage.run({ input: { ticket: 42 }, context: { user_id: "u-42" } }); // error: TS2322
`,
  "bad-missing-context": `
await triage.run({ input: { ticket: "T-1" }, context: {} }); // error: TS2741
`,
  "bad-no-context": `
await triage.run({ input: { ticket: "T-1" } }); // error: TS2345
`,
  "bad-resume-type": `
await triage.resume({ threadId: "t1", node: "approval", value: "yes" }); // error: TS2322
`,
  "bad-resume-node": `
await triage.resume({ threadId: "t1", node: "aproval", value: true }); // error: TS2322
`,
  "bad-decision": `
await agent.resume({ threadId: "t1", node: "investigate", value: { decisions: [{ type: "maybe" }] } }); // error: TS2322
`,
  "bad-output-field": `
const r = await triage.run({ input: {}, context: { user_id: "u-42" } });
console.log(r.output.ticket); // error: TS2339
`,
  "bad-payload-field": `
const r = await triage.run({ input: {}, context: { user_id: "u-42" } });
const i = r.interrupts[0];
if (i?.node === "approval" && "question" in i.value) console.log(i.value.draft); // error: TS2339
`,
  "bad-compiled-resume": `
const g = supportTriageGraph(await compile("../../graphs/support-triage.yaml"));
await g.resume({ node: "approval", value: 1 }, { threadId: "t", context: { user_id: "u" } }); // error: TS2322
`,
};

describe("graphspec types on the repository's graphs", () => {
  const dir = join(scratch, "proof");
  mkdirSync(dir);
  const generated = cli(["types", "../../graphs/", "-o", "types"], dir);

  it("writes one module per graph and an index", () => {
    expect(generated.stderr).toMatch(/wrote \d+ files to types/);
    expect(generated.status).toBe(0);
    const files = readdirSync(join(dir, "types")).sort();
    expect(files).toEqual(
      expect.arrayContaining(["index.ts", "support-triage.ts", "ticket-agent.ts"]),
    );
    const triage = readFileSync(join(dir, "types", "support-triage.ts"), "utf8");
    expect(triage.split("\n").slice(0, 2)).toEqual([
      '// Generated by `graphspec types` from ../../../graphs/support-triage.yaml (graph "support-triage").',
      "// Do not edit: change the spec and run `graphspec types` again.",
    ]);
  });

  it("a program that uses the types correctly type-checks (strict), and misuses fail where expected", () => {
    writeFileSync(join(dir, "good.ts"), GOOD);
    const expected: string[] = [];
    for (const [name, body] of Object.entries(BAD)) {
      const text = `${PRELUDE}${body}export {};\n`;
      writeFileSync(join(dir, `${name}.ts`), text);
      expected.push(...markedErrors(`${name}.ts`, text));
    }
    const { errors, stdout } = typeCheck(dir);
    expect(
      errors.filter((e) => e.startsWith("good.ts")),
      stdout,
    ).toEqual([]);
    expect(
      errors.filter((e) => e.startsWith("types/")),
      stdout,
    ).toEqual([]);
    expect(errors.sort(), stdout).toEqual(expected.sort());
  });

  it("the good program runs (tsx) against the scripted models and reads what the types promise", () => {
    const r = spawnSync(TSX, ["good.ts"], { cwd: dir, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      question: "Escalate T-1001: cannot log in?",
      notes: ["locked out", "sent to u-42: Your ticket is urgent."],
      priority: "urgent",
      tool: "notify_customer",
      last: "Told the customer.",
      firstNode: "approval",
      compiled: "completed",
      compiledNotes: ["locked out"],
    });
  });
});
