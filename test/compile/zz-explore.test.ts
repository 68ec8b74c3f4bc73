import { MemorySaver } from "@langchain/langgraph";
import { it } from "vitest";
import { compile } from "../../src/compile/index.js";
import { specDoc } from "./helpers.js";

const spec = (extra = "") => `version: 1
name: t
state:
  messages: { type: messages }
models:
  default: { model: "scripted:agent" }
tools:
  lookup_ticket: { module: ../../../../tools/tickets.ts, export: lookupTicket }
  notify_customer:
    module: ../../../../tools/notify.ts
    export: notifyCustomer
nodes:
  work:
    kind: agent
    prompt: Handle ticket T-1001.
    tools: [lookup_ticket, notify_customer]
${extra}edges:
  - { from: START, to: work }
  - { from: work, to: END }
`;
const lookup = { tool_calls: [{ name: "lookup_ticket", args: { ticket_id: "T-1001" } }] };
for (const [n, extra] of [
  [30, "    max_steps: 100\n    approve: [notify_customer]\n"],
  [12, ""],
  [13, ""],
  [7, "    approve: [notify_customer]\n"],
  [8, "    approve: [notify_customer]\n"],
  [3, "    approve: [notify_customer]\n"],
] as const)
  it(`long loop ${n} ${extra}`, async () => {
    const turns = [...Array(n).fill(lookup), "done"];
    const t0 = Date.now();
    const g = await compile(specDoc(spec(extra)), {
      scripts: { agent: turns },
      checkpointer: n === 3 ? undefined : new MemorySaver(),
    });
    const t1 = Date.now();
    try {
      const out = await g.invoke({}, { configurable: { thread_id: "x" } });
      console.log(n, out.messages.length, out.messages.at(-1).text);
    } catch (e) {
      console.log(n, "ERR", (e as Error).name, (e as any).code, (e as Error).message);
    }
    console.log("compile", t1 - t0, "run", Date.now() - t1);
  });
