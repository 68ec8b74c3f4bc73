/** Every node kind, by the `kind:` that names it. A new kind is one file and one line here. */
import type { Node } from "../../spec/spec-types.generated.js";
import type { NodeKind } from "../node-kind.js";
import { agentKind } from "./agent.js";
import { functionKind } from "./function.js";
import { interruptKind } from "./interrupt.js";
import { llmKind } from "./llm.js";
import { setKind } from "./set.js";
import { subgraphKind } from "./subgraph.js";
import { toolKind } from "./tool.js";
import { toolsKind } from "./tools.js";

export const NODE_KINDS: Record<Node["kind"], NodeKind<never>> = {
  llm: llmKind,
  agent: agentKind,
  tools: toolsKind,
  tool: toolKind,
  function: functionKind,
  interrupt: interruptKind,
  subgraph: subgraphKind,
  set: setKind,
};
