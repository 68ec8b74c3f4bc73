/**
 * Which top-level sections of a spec each semantic rule's findings follow from. When the schema
 * finds a section missing, misspelled (`node:` for `nodes:`) or not of its shape, a rule that
 * depends on it does not run: with `nodes` gone every edge would name an unknown node, with
 * `state` gone every write an unknown channel — a cascade of findings from one mistake, which
 * the schema's did-you-mean already reports. The other rules still run.
 */
import type { RuleName } from "../diagnostics/rule-catalog.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";

export type Section = keyof GraphSpec;

/**
 * A section is listed when its absence alone makes the rule report something (a name not
 * declared, a node nothing reaches). A rule not listed here depends on every section: it runs
 * only when none is broken.
 */
const DEPENDS_ON: Partial<Record<RuleName, readonly Section[]>> = {
  "unknown-node": ["nodes"],
  "reserved-name": [],
  "name-collision": [],
  "unknown-state-key": ["state", "context"],
  "unknown-tool": ["tools", "catalog", "mcp_servers"],
  "unknown-mcp-server": ["mcp_servers"],
  "unknown-model": ["models", "catalog"],
  "unknown-provider": [],
  "model-template": [],
  "model-secret-context": [],
  "unknown-module": [],
  "unknown-export": [],
  "path-escape": [],
  "missing-entry": ["edges"],
  "unreachable-node": ["nodes", "edges"],
  "no-path-to-end": ["nodes", "edges"],
  "endless-loop": ["nodes", "edges", "interrupts"],
  "parallel-write": ["nodes", "edges", "state"],
  "route-no-default": [],
  "route-default-last": [],
  "subgraph-cycle": [],
  "subgraph-errors": [],
  "default-type": [],
  "reducer-type": ["state"],
  "reducer-write": ["state", "context"],
  "subgraph-channels": ["state", "context"],
  "expression-syntax": [],
  "expression-type": ["state", "context"],
  "unsafe-key": [],
  regex: [],
  "tool-args": ["tools", "catalog", "mcp_servers", "state", "context"],
  "tool-lock": ["tools", "catalog"],
  "mcp-lock": ["mcp_servers"],
  "interrupt-schema": [],
  "output-schema": [],
};

/** Whether `rule`'s findings would follow from a section in `broken` (so it should not run). */
export function dependsOnBroken(rule: RuleName, broken: ReadonlySet<string>): boolean {
  if (broken.size === 0) return false;
  const sections = DEPENDS_ON[rule];
  return sections === undefined || sections.some((s) => broken.has(s));
}
