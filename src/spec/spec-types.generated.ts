// Generated from schema/graph.schema.json by `npm run gen`. Do not edit.
/** A JSON Schema object (draft 2020-12). */
export type JsonSchemaObject = {[keyword: string]: unknown};

/**
 * A state channel.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "StateField".
 */
export type StateField = FieldBase & {
  /**
   * For `object`: the properties that must be present.
   */
  required?: string[];
  reducer?: Reducer;
};
/**
 * The channel's value type. `messages` is a list of chat messages merged by LangGraph's messagesStateReducer.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "FieldType".
 */
export type FieldType = "string" | "number" | "integer" | "boolean" | "object" | "array" | "messages" | "any";
/**
 * For `array`: the schema of each item.
 */
export type JsonSchema = JsonSchemaObject | boolean;
/**
 * A JSON Schema (draft 2020-12).
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "JsonSchema".
 */
export type JsonSchema1 = JsonSchemaObject | boolean;
/**
 * How writes to the channel combine. `replace` (default): last write wins, two writes in one step is an error.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "Reducer".
 */
export type Reducer = ("replace" | "append" | "merge" | "sum" | "max" | "min" | "union" | "messages") | ModuleRef;
/**
 * A per-run context value.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "ContextField".
 */
export type ContextField = FieldBase & {
  /**
   * The value's type (`messages` is for state only).
   */
  type: "string" | "number" | "integer" | "boolean" | "object" | "array" | "any";
  /**
   * `true`: every run must give this value. An array (for `object` fields): the properties that must be present.
   */
  required?: boolean | string[];
  /**
   * `true`: the value is a secret (an API key, a password): it is masked as `***` wherever it appears — errors, results, events, stored checkpoints — and is not stored with the thread, so each run or resume passes it again.
   */
  secret?: boolean;
};
/**
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "Identifier".
 */
export type Identifier = string;
/**
 * Text that may contain `${{ expr }}`. A string that is exactly one `${{ expr }}` takes the expression's typed value; otherwise each expression is interpolated as text.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "Template".
 */
export type Template = string;
/**
 * An MCP server: `command` (with `args`, `env`, `cwd`) starts it over stdio; `url` reaches it over streamable HTTP (with `headers`). One connection per executor, opened on first use.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "McpServer".
 */
export type McpServer = {
  /**
   * The program to start (stdio transport), e.g. `node` or `npx`. Never started by `validate`.
   */
  command?: string;
  /**
   * Its arguments, passed as given; it starts in `cwd`, so a relative path is relative to it (by default the spec file's folder).
   */
  args?: string[];
  /**
   * Environment variables for it; strings are templates (`${{ env.NAME }}`).
   */
  env?: {
    [k: string]: Template;
  };
  /**
   * Its working directory, relative to the spec file (default: the spec file's folder). It may not leave the project root.
   */
  cwd?: string;
  /**
   * The server's streamable HTTP endpoint.
   */
  url?: string;
  /**
   * HTTP headers; strings are templates and may read `env` or the run's `context` (a secret context field stays masked).
   */
  headers?: {
    [k: string]: Template;
  };
  /**
   * The server's tools this spec takes under their own names: `all`, or a list. Default: none (declare each under `tools:` with `mcp:`).
   */
  tools?: "all" | [ToolName, ...ToolName[]];
  /**
   * How long one tool call may take before it fails with `tool-timeout`.
   */
  timeout_ms?: number;
} & McpServer1;
/**
 * A tool name as model providers accept it: letters, digits, `_` and `-`.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "ToolName".
 */
export type ToolName = string;
export type McpServer1 = {
  [k: string]: unknown;
};
/**
 * A tool: a module's export (`module:`) or an MCP server's tool (`mcp:`).
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "Tool".
 */
export type Tool = ModuleTool | McpTool;
/**
 * A JSON Schema (draft 2020-12).
 */
export type JsonSchema2 = JsonSchemaObject | boolean;
/**
 * Any JSON value. Strings inside it are templates: `${{ expr }}` is evaluated.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "Value".
 */
export type Value = unknown;
/**
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "Node".
 */
export type Node = {
  kind: "llm" | "agent" | "tools" | "tool" | "function" | "interrupt" | "subgraph" | "set";
} & Node1;
export type Node1 = LlmNode | AgentNode | ToolsNode | ToolNode | FunctionNode | InterruptNode | SubgraphNode | SetNode;
/**
 * One chat-model call.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "LlmNode".
 */
export type LlmNode = NodeCommon & {
  kind: "llm";
  model?: ModelRef;
  /**
   * The system prompt: a template, or `{ file: PATH }`.
   */
  system?: Template | PromptFile;
  /**
   * A user message appended after the history: a template, or `{ file: PATH }`.
   */
  prompt?: Template | PromptFile;
  /**
   * Text that may contain `${{ expr }}`. A string that is exactly one `${{ expr }}` takes the expression's typed value; otherwise each expression is interpolated as text.
   */
  messages?: string;
  tools?: ToolList;
  output?: OutputSpec;
  write?: Write;
};
/**
 * Where the node's result goes: a channel name (the whole result), or a map from channel to a template over the result.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "Write".
 */
export type Write =
  | string
  | {
      [k: string]: Value;
    };
/**
 * A model declared in `models`. Default: `default`.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "ModelRef".
 */
export type ModelRef = string;
/**
 * Tools bound to the model (the model may call them; a `tools` node runs them).
 */
export type ToolList = string[];
/**
 * A tool-calling loop (LangChain createAgent).
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "AgentNode".
 */
export type AgentNode = NodeCommon & {
  kind: "agent";
  model?: ModelRef;
  /**
   * The system prompt: a template, or `{ file: PATH }`.
   */
  system?: Template | PromptFile;
  /**
   * A user message, sent once after the history: a template, or `{ file: PATH }`.
   */
  prompt?: Template | PromptFile;
  messages?: Template;
  tools: ToolList1;
  approve?: ToolList2;
  output?: OutputSpec;
  /**
   * Maximum model calls in the loop.
   */
  max_steps?: number;
  write?: Write;
};
/**
 * Names of tools declared in `tools`.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "ToolList".
 */
export type ToolList1 = string[];
/**
 * Names of tools declared in `tools`.
 */
export type ToolList2 = string[];
/**
 * Runs the tool calls of the last AI message (LangGraph's ToolNode) and appends the tool messages.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "ToolsNode".
 */
export type ToolsNode = NodeCommon & {
  kind: "tools";
  tools?: ToolList3;
};
/**
 * Names of tools declared in `tools`.
 */
export type ToolList3 = string[];
/**
 * Calls one tool with the given arguments; the tool's return value is `result`.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "ToolNode".
 */
export type ToolNode = NodeCommon & {
  kind: "tool";
  /**
   * A tool declared in `tools`.
   */
  tool: string;
  args?: ValueMap;
  write?: Write;
};
/**
 * A function of yours, `(state, runtime) => update`.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "FunctionNode".
 */
export type FunctionNode = NodeCommon & {
  kind: "function";
  /**
   * Path to the module, relative to the spec file.
   */
  module: string;
  /**
   * Default: `default`.
   */
  export?: string;
  /**
   * The channels the function may write. Declared, they are checked (unknown keys, parallel writes) and enforced at run time.
   */
  writes?: string[];
};
/**
 * Pauses the run for a person. The resume value is `resume`, checked against `schema`.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "InterruptNode".
 */
export type InterruptNode = NodeCommon & {
  kind: "interrupt";
  /**
   * Any JSON value. Strings inside it are templates: `${{ expr }}` is evaluated.
   */
  payload?: unknown;
  schema?: JsonSchema3;
  write?: Write;
};
/**
 * A JSON Schema (draft 2020-12).
 */
export type JsonSchema3 = JsonSchemaObject | boolean;
/**
 * Another spec file, compiled and mounted as a node.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "SubgraphNode".
 */
export type SubgraphNode = NodeCommon & {
  kind: "subgraph";
  /**
   * Path to the child spec, relative to this file.
   */
  graph: string;
  input?: ValueMap1;
  output?: ValueMap2;
};
/**
 * A pure state update.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "SetNode".
 */
export type SetNode = NodeCommon & {
  kind: "set";
  /**
   * State key ← value; strings are templates.
   */
  values: {
    [k: string]: Value;
  };
};
/**
 * An edge: `to` (static, fan-out), `route` (CEL cases), `router` (code) or `map` (Send fan-out) from `from`.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "Edge".
 */
export type Edge = {
  /**
   * The source node, START, or (for a join) a list of nodes that must all finish.
   */
  from: string | [string, ...string[]];
  /**
   * The target node, END, or a list of nodes that run in parallel.
   */
  to?: string | [string, ...string[]];
  /**
   * Ordered cases; the first whose `when` is true wins.
   *
   * @minItems 1
   */
  route?: [RouteCase, ...RouteCase[]];
  /**
   * A routing function of yours, `(state) => target | target[]`, with its possible targets declared.
   */
  router?: {
    module: string;
    export?: Identifier;
    /**
     * @minItems 1
     */
    to: [string, ...string[]];
  };
  /**
   * Send fan-out: run `to` once per item of the list `over`, in parallel.
   */
  map?: {
    /**
     * Bare CEL giving a list.
     */
    over: string;
    to: string;
    with?: ValueMap3;
  };
} & Edge1;
/**
 * A case of a route: `{ when: CEL, to: node }`, or the last, `{ default: node }`.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "RouteCase".
 */
export type RouteCase = {
  /**
   * Bare CEL giving a bool.
   */
  when?: string;
  to?: string;
  /**
   * Where to go when no case matched.
   */
  default?: string;
} & RouteCase1;
export type RouteCase1 = {
  [k: string]: unknown;
};
export type Edge1 = {
  [k: string]: unknown;
};
/**
 * Pause before these nodes run.
 */
export type NodeList = string[];
/**
 * Pause after these nodes run.
 */
export type NodeList1 = string[];
/**
 * A state or context key: letters, digits and `_`, so that it can be read in CEL as `state.NAME`.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "ChannelName".
 */
export type ChannelName = string;
/**
 * A node name. Not START, END, __start__ or __end__, no `:` or `|`, and not the name of a state channel.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "NodeName".
 */
export type NodeName = string;
/**
 * A node name, or START / END where the edge form allows them.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "NodeRef".
 */
export type NodeRef = string;
/**
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "NodeList".
 */
export type NodeList2 = string[];
/**
 * A prompt: a template written here, or `{ file: PATH }`, a file whose whole text is the template.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "PromptText".
 */
export type PromptText = Template | PromptFile;
/**
 * A bare CEL expression (no `${{ }}`).
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "Cel".
 */
export type Cel = string;
/**
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "Endpoint".
 */
export type Endpoint = string | [string, ...string[]];

/**
 * A graphspec file: one LangGraph StateGraph described as data. Reference: docs/spec.md.
 */
export interface GraphSpec {
  /**
   * The JSON Schema this file follows, for editors. Ignored by graphspec.
   */
  $schema?: string;
  /**
   * Spec format version. Only `1` exists today; `graphspec migrate` rewrites older files.
   */
  version: 1;
  /**
   * Graph id: lower-case letters, digits, `_` and `-`, starting with a letter. Used by `graphspec run NAME` and as the assistant id on the server.
   */
  name: string;
  /**
   * What the graph does, for people and for the server's assistant listing.
   */
  description?: string;
  /**
   * The channels of the graph state, each with a type and a reducer. Channel names share one namespace with node names.
   */
  state: {
    [k: string]: StateField;
  };
  /**
   * Immutable per-run values (LangGraph's context schema), read in expressions as `context.NAME`.
   */
  context?: {
    [k: string]: ContextField;
  };
  /**
   * State keys a run accepts as input. Default: every state key.
   */
  input?: string[];
  /**
   * State keys a run returns as its output. Default: every state key.
   */
  output?: string[];
  /**
   * The project's catalog of tools and models, relative to this file (e.g. `../catalog.yaml`): a file with `tools:` and `models:` in a spec's shape. Its entries are used as if written here; an entry of this spec's own by the same name wins.
   */
  catalog?: string;
  /**
   * Chat models by name. Nodes pick one with `model: NAME`; `default` is used when a node names none.
   */
  models?: {
    [k: string]: Model;
  };
  /**
   * Model Context Protocol servers whose tools this spec uses, by name: started by `command` (stdio) or reached at `url` (streamable HTTP). `validate` never connects: their tools' contracts come from `graphspec.lock.json` (`graphspec lock`).
   */
  mcp_servers?: {
    [k: string]: McpServer;
  };
  /**
   * Tools by name: module exports, or tools of an MCP server (`mcp:`), that nodes may call. A node may only list tools declared here or taken from a server in `mcp_servers`.
   */
  tools?: {
    [k: string]: Tool;
  };
  /**
   * The graph's nodes by name. Each has a `kind`: llm, agent, tools, tool, function, interrupt, subgraph or set.
   */
  nodes: {
    [k: string]: Node;
  };
  /**
   * How control flows: static edges, fan-out and joins, CEL routes, code routers and map (Send) fan-out.
   *
   * @minItems 1
   */
  edges: [Edge, ...Edge[]];
  /**
   * Static breakpoints: pause before or after these nodes (LangGraph's interruptBefore / interruptAfter).
   */
  interrupts?: {
    before?: NodeList;
    after?: NodeList1;
  };
  /**
   * Run limits.
   */
  limits?: {
    /**
     * Maximum super-steps per run (LangGraph's recursionLimit).
     */
    recursion?: number;
    /**
     * The cost one evaluation of an expression may spend: 1 per step, plus 1 per 10 characters, items or bytes that each operation scans or builds. Over it, the run fails with `expression-limit`.
     */
    expression_cost?: number;
  };
}
/**
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "FieldBase".
 */
export interface FieldBase {
  type?: FieldType;
  /**
   * What the channel holds.
   */
  description?: string;
  /**
   * The channel's value before any node writes it.
   */
  default?: {
    [k: string]: unknown;
  };
  /**
   * The values the channel may hold.
   *
   * @minItems 1
   */
  enum?: [unknown, ...unknown[]];
  /**
   * The one value the channel may hold.
   */
  const?: {
    [k: string]: unknown;
  };
  items?: JsonSchema;
  /**
   * For `object`: the schema of each known property. Reading an undeclared property in an expression is an error unless `additionalProperties` allows it.
   */
  properties?: {
    [k: string]: JsonSchema1;
  };
  additionalProperties?: JsonSchema1;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
}
/**
 * A reducer function `(current, update) => next` from a module of yours.
 */
export interface ModuleRef {
  /**
   * Path to a .ts, .mts, .js or .mjs module, relative to the spec file. It may not leave the project root.
   */
  module: string;
  /**
   * The export to use. Default: `default`.
   */
  export?: string;
}
/**
 * A chat model. `model` goes through LangChain's initChatModel; `allow` lists the models a run may choose instead; `price` is what it costs; every other key passes through to the model's constructor. Strings may use `${{ env.NAME }}`, and `${{ context.KEY }}` to take a value from each run (a tenant's key, its user).
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "Model".
 */
export interface Model {
  /**
   * `provider:name`, for example `openai:gpt-4o-mini`, `anthropic:claude-sonnet-4-5` or `scripted:triage` (the offline provider for tests).
   */
  model: string;
  /**
   * Other `models:` entries a run may choose in place of this one (`RunOptions.model`, `configurable.model`, `--model`), by entry name or by their `provider:name`. This entry is the default and is always allowed.
   *
   * @minItems 1
   */
  allow?: [Identifier, ...Identifier[]];
  temperature?: number;
  max_tokens?: number;
  /**
   * Endpoint of an OpenAI-compatible server.
   */
  base_url?: string;
  /**
   * Prefer `${{ env.NAME }}` to a literal key, or `${{ context.KEY }}` (a context key declared `secret: true`) for a key per run.
   */
  api_key?: string;
  /**
   * Extra HTTP headers on every request to the provider (OpenAI-compatible providers and `anthropic`); values may read `context` to differ per run, e.g. `x-litellm-end-user: "${{ context.account_id }}"`.
   */
  headers?: {
    [k: string]: Template;
  };
  /**
   * Text that may contain `${{ expr }}`. A string that is exactly one `${{ expr }}` takes the expression's typed value; otherwise each expression is interpolated as text.
   */
  user?: string;
  /**
   * Request metadata, sent as the request body's `metadata` (OpenAI-compatible providers; LiteLLM and the like read it): string values, which may read `context`.
   */
  metadata?: {
    [k: string]: Template;
  };
  timeout_ms?: number;
  max_retries?: number;
  /**
   * What the model costs, in USD per million tokens, for showing a run's cost (graphspec dev's page); graphspec's own, never sent to the provider.
   */
  price?: {
    /**
     * USD per million input (prompt) tokens.
     */
    input: number;
    /**
     * USD per million output (completion) tokens.
     */
    output: number;
  };
  [k: string]: unknown;
}
/**
 * A tool exported by a module: a LangChain tool, or a plain async function with a JSON Schema beside it.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "ModuleTool".
 */
export interface ModuleTool {
  /**
   * Path to the module, relative to the spec file. It may not leave the project root.
   */
  module: string;
  /**
   * The export to use. Default: the tool's name, then `default`.
   */
  export?: string;
  /**
   * What the tool does, for the model. Required for plain functions; overrides a LangChain tool's own.
   */
  description?: string;
  schema?: JsonSchema2;
  /**
   * Arguments filled from state or context and hidden from the model's schema, e.g. `user_id: "${{ context.user_id }}"`.
   */
  bind?: {
    [k: string]: Value;
  };
}
/**
 * A tool of an MCP server declared in `mcp_servers`, under a name of this spec's choosing (to rename it, describe it for the model, or bind arguments).
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "McpTool".
 */
export interface McpTool {
  /**
   * The server, a key of `mcp_servers`.
   */
  mcp: string;
  /**
   * The tool's name on the server. Default: this tool's name.
   */
  tool?: string;
  /**
   * What the tool does, for the model; overrides the server's.
   */
  description?: string;
  /**
   * Arguments filled from state or context and hidden from the model's schema, e.g. `user_id: "${{ context.user_id }}"`.
   */
  bind?: {
    [k: string]: Value;
  };
}
/**
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "NodeCommon".
 */
export interface NodeCommon {
  kind?: "llm" | "agent" | "tools" | "tool" | "function" | "interrupt" | "subgraph" | "set";
  /**
   * What the node does.
   */
  description?: string;
  retry?: Retry;
  /**
   * Cache the node's result by its input (LangGraph's cachePolicy).
   */
  cache?: {
    /**
     * Seconds a cached result stays valid.
     */
    ttl_s?: number;
  };
  /**
   * Fail the node if it runs longer than this.
   */
  timeout_ms?: number;
  /**
   * Run once after all parallel branches have finished.
   */
  defer?: boolean;
  /**
   * What happens when the node fails after its retries: go to another node and write the error into state. The error is `error` in expressions: `error.message`, `error.type`.
   */
  on_error?: {
    /**
     * The node (or END) to run next.
     */
    goto?: string;
    write?: Write;
  };
}
/**
 * Retry the node on error (LangGraph's retryPolicy).
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "Retry".
 */
export interface Retry {
  max_attempts?: number;
  initial_interval_ms?: number;
  backoff_factor?: number;
  max_interval_ms?: number;
  jitter?: boolean;
}
/**
 * A prompt in its own file: its text is the template (`${{ expr }}` as inline). Read, never run; it must stay inside the project.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "PromptFile".
 */
export interface PromptFile {
  /**
   * The prompt file, relative to the spec's folder (e.g. `prompts/triage.md`).
   */
  file: string;
}
/**
 * Structured output: the model's answer must match this JSON Schema. It is `output` in `write` expressions.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "OutputSpec".
 */
export interface OutputSpec {
  schema: JsonSchema1;
  /**
   * A name for the schema, shown to the model.
   */
  name?: string;
}
/**
 * The tool's arguments; strings are templates.
 */
export interface ValueMap {
  [k: string]: Value;
}
/**
 * Child state key ← template over this graph's state. Default: keys both graphs share are passed through.
 */
export interface ValueMap1 {
  [k: string]: Value;
}
/**
 * Parent state key ← template over the child's final state (`output`). Default: keys both graphs share are copied back.
 */
export interface ValueMap2 {
  [k: string]: Value;
}
/**
 * State key ← template over `item`, given to that run of the node.
 */
export interface ValueMap3 {
  [k: string]: Value;
}
/**
 * A map from a key to a value; strings in values are templates.
 *
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "ValueMap".
 */
export interface ValueMap4 {
  [k: string]: Value;
}
/**
 * This interface was referenced by `GraphSpec`'s JSON-Schema
 * via the `definition` "ModuleRef".
 */
export interface ModuleRef1 {
  /**
   * Path to a .ts, .mts, .js or .mjs module, relative to the spec file. It may not leave the project root.
   */
  module: string;
  /**
   * The export to use. Default: `default`.
   */
  export?: string;
}
