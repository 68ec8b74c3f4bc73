import type { Severity } from "./severity.js";

/**
 * Every public rule name, its default severity and a one-line summary.
 * Names are public (users suppress them, CI greps them): add freely, never rename.
 * Each rule has a page in docs/rules/<name>.md.
 */
export const CATALOG = {
  // Loading the file
  io: { severity: "error", summary: "The file cannot be read." },
  encoding: { severity: "error", summary: "The file is not UTF-8 (or UTF-16 with a BOM) text." },
  "yaml-syntax": { severity: "error", summary: "The YAML does not parse." },
  "json-syntax": { severity: "error", summary: "The JSON does not parse." },
  "duplicate-key": { severity: "error", summary: "A mapping has the same key twice." },
  "unsafe-key": {
    severity: "error",
    summary: "A key such as `__proto__` that could reach an object prototype.",
  },
  "resource-limit": {
    severity: "error",
    summary: "The file is too large, too deep or expands too many aliases.",
  },
  "not-a-spec": {
    severity: "error",
    summary:
      "The file is not a graphspec spec (not a mapping, or none of a spec's keys): one finding, and nothing of its content shown.",
  },
  // Shape
  schema: { severity: "error", summary: "The spec does not match schema/graph.schema.json." },
  // Names and references
  "unknown-node": {
    severity: "error",
    summary:
      "An edge, route, map, `on_error.goto` or interrupt names a node that does not exist, or uses START / END where they cannot stand.",
  },
  "reserved-name": {
    severity: "error",
    summary:
      "A node is named START or END (in any letter case), starts with `__`, or contains `:` or `|`; a state channel's name starts with `__`.",
  },
  "name-collision": { severity: "error", summary: "A node has the same name as a state channel." },
  "unknown-state-key": {
    severity: "error",
    summary: "A write, input, output or expression names a state key that is not declared.",
  },
  "unknown-tool": {
    severity: "error",
    summary: "A node uses a tool that is not declared in `tools`.",
  },
  "unknown-mcp-server": {
    severity: "error",
    summary: "A tool declared with `mcp:` names a server that `mcp_servers` does not declare.",
  },
  "unknown-model": {
    severity: "error",
    summary:
      "A node uses a model that is not declared in `models`, or a model's `allow` names one.",
  },
  "unknown-provider": {
    severity: "error",
    summary: "A model's `provider:name` names a provider LangChain does not know.",
  },
  "model-template": {
    severity: "error",
    summary: "A model's `provider:name` is a template; it would be sent as written.",
  },
  "model-secret-context": {
    severity: "error",
    summary:
      "A model's key or secret header reads a context key that is not declared `secret: true`.",
  },
  "unknown-module": { severity: "error", summary: "A module path does not resolve to a file." },
  "prompt-file": {
    severity: "error",
    summary:
      "A prompt's `file` cannot be used: it does not exist, is not a file, or the spec was given as text with no folder to read it from.",
  },
  "unknown-export": {
    severity: "error",
    summary: "A module does not export the named function or tool.",
  },
  "path-escape": {
    severity: "error",
    summary:
      "A spec file, module, graph or prompt file path leaves the project root (through `..` or a symbolic link).",
  },
  // Graph structure
  "missing-entry": { severity: "error", summary: "No edge leaves START." },
  "unreachable-node": {
    severity: "warning",
    summary:
      "A node can never run: no path from START reaches it, or only through a join that never completes.",
  },
  "no-path-to-end": {
    severity: "error",
    summary: "A node a run can reach has no outgoing edge, or is in a loop with no way on to END.",
  },
  "endless-loop": {
    severity: "error",
    summary:
      "A loop made only of static edges, with no pause for a person on it: each run of a node on it starts the next, so the run never ends (a warning when a function or tool on it could pause it).",
  },
  "parallel-write": {
    severity: "error",
    summary:
      "Nodes that can run in the same step write the same `replace` channel, or a map target that runs several times in one step writes one.",
  },
  "route-no-default": {
    severity: "warning",
    summary: "A route has no `default`: a state that matches no case fails the run.",
  },
  "route-default-last": {
    severity: "error",
    summary: "A route case comes after its `default`, so it can never be chosen.",
  },
  "subgraph-cycle": { severity: "error", summary: "Subgraphs mount each other in a cycle." },
  "subgraph-errors": {
    severity: "error",
    summary:
      "A subgraph's child spec has errors of its own (no entry, a parallel write, an expression's type, …), so the parent does not compile.",
  },
  "subgraph-channels": {
    severity: "error",
    summary:
      "A subgraph's `input` names a channel the child does not take, or a value crossing between parent and child (an `input` or `output` value, a shared channel copied in or back) has a type the receiving channel and its reducer do not accept.",
  },
  // State channels
  "default-type": {
    severity: "error",
    summary:
      "A state or context field's `default` is not a value of the field's own type, enum or schema (a `messages` default: not a list of messages).",
  },
  "reducer-type": {
    severity: "error",
    summary:
      "A built-in reducer on a channel whose type it cannot combine (`sum` of strings, `merge` of lists, `messages` on a `string`).",
  },
  "reducer-write": {
    severity: "error",
    summary:
      "A write the channel's type accepts but its reducer refuses: a number into `merge` or a string into `sum` on an `any` channel, a map without `role` and `content` into `messages`.",
  },
  // Expressions and schemas
  "expression-syntax": { severity: "error", summary: "A CEL expression does not parse." },
  "expression-type": {
    severity: "error",
    summary: "A CEL expression has the wrong type, or reads a field that does not exist.",
  },
  "tool-args": {
    severity: "error",
    summary: "A tool node's `args` do not match the tool's argument schema.",
  },
  "tool-lock": {
    severity: "error",
    summary:
      "A tool module is missing from `graphspec.lock.json`, or has changed since the lock was written.",
  },
  "mcp-lock": {
    severity: "error",
    summary:
      "An MCP server is missing from `graphspec.lock.json`, or is started or reached differently (or runs changed code) since the lock was written.",
  },
  "interrupt-schema": {
    severity: "error",
    summary: "An interrupt's `schema` is not a valid JSON Schema.",
  },
  "output-schema": {
    severity: "error",
    summary:
      "A structured-output schema is not a valid JSON Schema, or cannot be used for structured output (an `llm` with both `output` and `tools`).",
  },
  regex: {
    severity: "error",
    summary:
      "A channel's or context value's `pattern`, or a regex literal given to `matches()`, is not a regular expression the linear-time engine (RE2) runs.",
  },
  "internal-error": {
    severity: "error",
    summary: "graphspec itself failed while checking; please report it.",
  },
} as const satisfies Record<string, { severity: Severity; summary: string }>;

export type RuleName = keyof typeof CATALOG;

export const RULE_NAMES = Object.keys(CATALOG) as RuleName[];
