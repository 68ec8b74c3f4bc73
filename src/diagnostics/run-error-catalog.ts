/**
 * Every code a failed run reports (`RunResult.error.code`, `GraphspecRunError.code`), the phase it
 * belongs to and a one-line summary. Codes are public — callers branch on them, the server maps
 * them to HTTP statuses — so add freely, never rename. docs/executor.md lists each one
 * (test/docs.test.ts holds the two together).
 */

/**
 * Where a run failed: what the caller gave (input, context, resume value, thread), a node's work,
 * an edge's decision, or the run as a whole (recursion, budget, deadline, cancel).
 */
export type RunPhase = "input" | "node" | "edge" | "run";

export const RUN_ERRORS = {
  // What the caller gave
  "invalid-input": {
    phase: "input",
    summary:
      "The run's input has a key the graph does not accept, a value that does not fit its channel, or is empty with nothing to continue.",
  },
  "invalid-context": {
    phase: "input",
    summary: "A required context value is missing, or one does not fit its declaration.",
  },
  "input-too-large": {
    phase: "input",
    summary:
      "The run's input or context, or the resume value, is larger than the executor's `maxInputBytes` / `maxResumeBytes`; nothing was run or stored.",
  },
  "invalid-command": {
    phase: "input",
    summary:
      "A resume's `goto` names a node the graph does not have, or its `update` a channel its state does not have; nothing was run or stored.",
  },
  "nothing-to-resume": {
    phase: "input",
    summary: "A resume named a thread that does not exist or whose run has completed.",
  },
  "thread-busy": {
    phase: "input",
    summary:
      "Another run or resume holds the thread; this one was refused at once, and nothing ran.",
  },
  "thread-graph-mismatch": {
    phase: "input",
    summary: "The thread belongs to another graph; the hint names it.",
  },
  "graph-outside-project": {
    phase: "input",
    summary:
      "The graph a thread names in its checkpoints is not a spec file inside the executor's project, so it is not loaded.",
  },
  "model-not-allowed": {
    phase: "input",
    summary:
      "The run chose a model (`model`, `configurable.model`, `--model`) that no `allow` list of the spec's `models` names; nothing was run or stored.",
  },
  "invalid-run-option": {
    phase: "input",
    summary:
      "A run's `recursionLimit` is not a whole number from 1 to 10,000, its `interruptBefore` / `interruptAfter` names a node the graph does not have, or its `standIn` is not one the executor offers the graph; nothing was run or stored.",
  },
  "graph-changed": {
    phase: "input",
    summary:
      "A resume found the thread waiting at a node, or holding a channel, that the graph's spec no longer has (it changed while the thread was paused); the message names them, and nothing ran.",
  },
  "checkpoint-not-found": {
    phase: "input",
    summary:
      "A run or a state update named a checkpoint (`checkpointId`) the thread does not have — another thread's checkpoint is not found either; nothing ran or was written.",
  },
  // A node's work
  "invalid-write": {
    phase: "node",
    summary:
      "A node wrote a key that is not a channel (or outside its `writes`), or a value that does not fit.",
  },
  "invalid-output": {
    phase: "node",
    summary:
      "An `llm`'s structured answer did not match `output.schema` twice — or once, when the provider said it cut the answer at the token limit or declined to answer (the message says which) — or an `agent` ended without one.",
  },
  expression: {
    phase: "node",
    summary:
      "An expression failed at run time (a missing key, a division by zero); in an edge's expression the phase is `edge`.",
  },
  "expression-limit": {
    phase: "node",
    summary:
      "An expression's evaluation cost more than `limits.expression_cost` (steps, and sizes of what its operations scanned or built); in an edge's expression the phase is `edge`.",
  },
  "tool-error": { phase: "node", summary: "A `tool` node's tool failed." },
  "tool-timeout": {
    phase: "node",
    summary:
      "A tool of an MCP server did not answer within its server's `timeout_ms`; the call was cancelled and the thread's last checkpoint is kept.",
  },
  "mcp-unavailable": {
    phase: "node",
    summary:
      "An MCP server could not be reached (not started, refused, or it died during a call); the message names the server and its transport, and the thread's last checkpoint is kept. Unreachable when its graph is loaded (its tools cannot be listed), the run fails before any node with phase `run`, and the next run loads the graph again.",
  },
  subgraph: {
    phase: "node",
    summary:
      "A subgraph node's child run failed: what an `invoke` of a compiled graph throws, with the child's error as its `cause`. A run of the executor reports the child's own code instead, with `path`.",
  },
  timeout: {
    phase: "node",
    summary:
      "A node ran longer than its `timeout_ms`, or a model call took longer than the model's `timeout_ms` (default 10 minutes), naming the model.",
  },
  throttled: {
    phase: "node",
    summary:
      "The model provider refused the call: `reason` says whether for its rate limit (`rate-limit`: retry later) or the key's exhausted quota (`quota`: retrying will not help).",
  },
  unauthorized: {
    phase: "node",
    summary:
      "A provider refused the call's credentials (HTTP 401, or no key was set): the hint says where the key comes from.",
  },
  "node-error": {
    phase: "node",
    summary: "A node's own code (a function, a tool, a provider) threw; its `hint` is kept.",
  },
  // An edge's decision
  "route-no-match": { phase: "edge", summary: "No case of a route without `default` matched." },
  "router-target": {
    phase: "edge",
    summary: "A router returned a target its `to` does not declare.",
  },
  // The run as a whole
  "recursion-limit": {
    phase: "run",
    summary:
      "The run took more super-steps than `limits.recursion` (or the run's `recursionLimit`) allows.",
  },
  "parallel-write": {
    phase: "run",
    summary:
      "Nodes of one step wrote the same `replace` channel, or reset one channel with `null` twice (LangGraph's InvalidUpdateError); the message names the channel and the nodes.",
  },
  "no-checkpointer": {
    phase: "run",
    summary: "A graph that pauses for a person ran without a checkpointer.",
  },
  "not-durable": {
    phase: "run",
    summary:
      "A graph that can pause for a person would keep its checkpoints in memory only, and `requireDurable` was set.",
  },
  "state-too-large": {
    phase: "run",
    summary:
      "A step would have stored a state, or writes, larger than the executor's `maxStateBytes`; the thread's last checkpoint is kept.",
  },
  "budget-exceeded": { phase: "run", summary: "The run used more tokens than `maxTokens`." },
  "deadline-exceeded": { phase: "run", summary: "The run passed its `deadline`." },
  cancelled: { phase: "run", summary: "The caller's signal cancelled the run." },
} as const satisfies Record<string, { phase: RunPhase; summary: string }>;

export type RunErrorCode = keyof typeof RUN_ERRORS;

export const RUN_ERROR_CODES = Object.keys(RUN_ERRORS) as RunErrorCode[];
