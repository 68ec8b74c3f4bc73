import type { Diagnostic } from "../src/index.js";

/** One line per diagnostic, as the golden `.expected` files hold them. */
export const formatExpected = (ds: readonly Diagnostic[]): string[] =>
  ds.map(
    (d) =>
      `${d.line}:${d.column}-${d.endLine}:${d.endColumn} ${d.severity} [${d.rule}] ${d.message}${d.hint ? ` (hint: ${d.hint})` : ""}`,
  );

/** The smallest valid spec: one `set` node between START and END. */
export const MINIMAL_SPEC = `version: 1
name: minimal
state:
  greeting: { type: string }
nodes:
  greet: { kind: set, values: { greeting: "hello" } }
edges:
  - { from: START, to: greet }
  - { from: greet, to: END }
`;
