/**
 * A graph of one `agent` node with a system prompt and one tool (`lookup`, an order lookup), as the
 * stream tests run it: through the executor, `graphspec serve` and the official server after export.
 */
export interface AgentSpecOptions {
  /** The graph's name. */
  name: string;
  /** The agent node's name. */
  node: string;
  /** The model line: `{ model: "scripted:desk" }` or an OpenAI model on the simulator. */
  model: string;
  /** The system prompt, which must never reach a client. */
  system: string;
  /** The module exporting `lookup`, relative to the spec. */
  toolsModule: string;
}

export const agentSpec = (o: AgentSpecOptions) => `version: 1
name: ${o.name}
state:
  messages: { type: messages }
models:
  default: ${o.model}
tools:
  lookup:
    module: ${o.toolsModule}
    export: lookup
    description: Look an order up.
    schema: { type: object, properties: { order: { type: string } }, required: [order] }
nodes:
  ${o.node}: { kind: agent, system: "${o.system}", tools: [lookup] }
edges:
  - { from: START, to: ${o.node} }
  - { from: ${o.node}, to: END }
`;

/** The simulator's OpenAI model at `url`. */
export const openaiOn = (url: string) =>
  `{ model: "openai:gpt-4o-mini", base_url: "${url}", api_key: sk-stub }`;
