/**
 * Checking what sites.ts collected: each expression parsed and type-checked in its scope against
 * what its place expects, and the whole results nodes write (`write: channel`) against their
 * channels, as findings for the expression rules, with exact spans and conversion hints.
 */
import type { RuleName } from "../../diagnostics/rule-catalog.js";
import { suggest } from "../../diagnostics/suggest.js";
import {
  ERROR_TYPE,
  type ExprEnvironment,
  type ExprProblem,
  type ExprType,
  formatType,
  isAssignable,
  isTemplate,
  reducerName,
  T,
  typeFromSchema,
  valueMapLiterals,
  writeType,
} from "../../expr/index.js";
import { asObject as obj } from "../../spec/data.js";
import { reducerDoes } from "../../spec/reducer-fit.js";
import { spanInScalar } from "../../spec/scalar-spans.js";
import type { Path, Span } from "../../spec/source-map.js";
import type { CheckContext } from "../check-context.js";
import { bareRead, mapIntoMessages } from "../crossing-types.js";
import { describeType, type Finding } from "./finding.js";
import { reducerExpectation, refusedByReducer } from "./reducer-writes.js";
import { type Expectation, type ExprSite, entries, misfitFinding } from "./sites.js";
import { wholeExpressionSpan } from "./spans.js";

const RULE_OF: Record<ExprProblem["kind"], RuleName> = {
  syntax: "expression-syntax",
  type: "expression-type",
  "unknown-key": "unknown-state-key",
  "unsafe-key": "unsafe-key",
  regex: "regex",
};

/** What is wrong with one site: it does not parse, reads what is not there, or does not fit. */
export function checkSite(ctx: CheckContext, env: ExprEnvironment, site: ExprSite): Finding[] {
  const { path, source, scope, expected } = site;
  const anchors: [number, number][] = [];
  const locate = (start: number, end: number) =>
    spanInScalar(ctx.doc, path, source, start, end, anchors);
  const fromProblem = (p: ExprProblem): Finding => ({
    rule: RULE_OF[p.kind],
    path,
    span: locate(p.start, p.end),
    message: p.message,
    hint: (p.suggest && suggest(p.suggest.word, p.suggest.candidates)) ?? p.hint,
  });
  // The span is found only for a finding: placing every fitting expression in the file was a
  // good part of checking a 1,000-node spec.
  const misfit = (type: ExprType, span: () => Span | undefined): Finding[] => {
    if (!expected || isAssignable(type, expected.type, { nullable: expected.nullable })) return [];
    const f = misfitFinding(expected, type, `\`${formatType(type)}\``);
    return [{ ...f, path, span: span(), hint: f.hint ?? conversionHint(type, expected.type) }];
  };

  if (site.kind === "cel") {
    if (isTemplate(source)) {
      return [
        {
          rule: "expression-syntax",
          path,
          message: "this place takes a bare CEL expression, not a `${{ }}` template",
          hint: "drop the `${{` and `}}`",
        },
      ];
    }
    const r = env.check(source, scope);
    return r.ok ? misfit(r.type, () => locate(0, source.length)) : [fromProblem(r.problem)];
  }
  const r = env.checkTemplate(source, scope);
  for (const p of r.template?.parts ?? []) if (p.kind === "expr") anchors.push([p.open, p.close]);
  if (r.problems.length) return r.problems.map(fromProblem);
  if (!r.type) return [];
  const span = () => wholeExpressionSpan(r.template, locate);
  const found = misfit(r.type, span);
  const whole = r.template?.whole ? r.template.parts[0] : undefined;
  if (found.length || expected?.reducer?.reducer !== "messages" || whole?.kind !== "expr")
    return found;
  return noMessages(env, source, whole.source, expected).map((f) => ({ ...f, path, span: span() }));
}

/**
 * A map whose type is `map` fits a message channel by type; whether it is a message depends on
 * its keys. Where the spec shows them — a map literal, or a channel declared `type: object`
 * without properties, read whole — maps without `content` and `role` (or `type`) are found.
 */
function noMessages(
  env: ExprEnvironment,
  template: string,
  expression: string,
  expected: Expectation,
): Omit<Finding, "path">[] {
  const channel = expected.reducer?.channel;
  const rule = refusedByReducer(expected.reducer, T.map(T.dyn))
    ? "reducer-write"
    : "expression-type";
  const read = bareRead(template, "state");
  if (read !== undefined && env.state.fields[read]?.kind === "map") {
    return [
      {
        rule,
        message: `\`state.${read}\` is a map of undeclared keys (\`type: object\`), which is no message for \`${channel}\``,
        hint: `declare \`role\` and \`content\` among the \`properties\` of \`${read}\`, or write \`{ role: user, content: "\${{ ... }}" }\``,
      },
    ];
  }
  const out: Omit<Finding, "path">[] = [];
  for (const keys of valueMapLiterals(expression) ?? []) {
    const missing = ["role", "content"].filter(
      (k) => !keys.includes(k) && !(k === "role" && keys.includes("type")),
    );
    if (missing.length === 0) continue;
    out.push({
      rule,
      message: `a message written to \`${channel}\` needs ${missing.map((k) => `\`${k}\``).join(" and ")}: a map without ${missing.length === 1 ? "it" : "them"} is no message`,
      hint: "e.g. `${{ {'role': 'user', 'content': state.question} }}`, or a plain string",
    });
  }
  return out;
}

/** How to turn a value of type `actual` into what `expected` takes, when CEL has a direct way. */
export function conversionHint(actual: ExprType, expected: ExprType): string | undefined {
  const accepts = (kind: ExprType["kind"]) =>
    expected.kind === kind ||
    (expected.kind === "union" && expected.of.some((m) => m.kind === kind));
  const scalar = ["int", "uint", "double", "bool", "string"].includes(actual.kind);
  if (accepts("string") && scalar) return "convert it with `string(…)`";
  if (accepts("int") && (actual.kind === "double" || actual.kind === "string"))
    return "convert it with `int(…)`";
  if (accepts("double") && actual.kind === "string") return "convert it with `double(…)`";
  // Only where one item would fit a list — not `null`, which fits any item but is no value to
  // wrap. (A place's union that holds a list holds its item too: a value that fits the item fits
  // the union.)
  if (
    expected.kind === "list" &&
    actual.kind !== "null" &&
    isAssignable(actual, expected.item, { nullable: true })
  )
    return "wrap it in a list: `[…]`";
  return undefined;
}

/** `write: channel` puts the node's whole result there: it must fit where its type is known. */
export function naturalResultFindings(ctx: CheckContext, env: ExprEnvironment): Finding[] {
  const out: Finding[] = [];
  const state = obj(ctx.spec.state) ?? {};
  const check = (path: Path, who: string, channel: unknown, result: ExprType, what: string) => {
    if (typeof channel !== "string" || !Object.hasOwn(state, channel)) return;
    const declared = env.state.fields[channel] ?? T.dyn;
    const accepts = writeType(declared, state[channel]);
    if (
      isAssignable(result, accepts, { nullable: true }) &&
      !mapIntoMessages(result, state[channel])
    )
      return;
    const reducer = reducerExpectation(channel, reducerName(state[channel]), declared, accepts);
    if (refusedByReducer(reducer, result)) {
      out.push({
        rule: "reducer-write",
        path,
        message: `${who} writes ${what} (\`${formatType(result)}\`) to \`${channel}\`: its reducer \`${reducer.reducer}\` ${reducerDoes(reducer.reducer)}, so it takes ${describeType(accepts)}`,
        hint: `write a map that converts it, e.g. \`write: { ${channel}: "\${{ ... }}" }\`, or declare \`${channel}\` with another reducer`,
      });
      return;
    }
    out.push({
      rule: "expression-type",
      path,
      message: `${who} writes ${what} (\`${formatType(result)}\`) to \`${channel}\`, which takes ${describeType(accepts)}`,
      hint: `write a map that converts it, e.g. \`write: { ${channel}: "\${{ ... }}" }\``,
    });
  };
  for (const [name, node] of entries(ctx.spec.nodes)) {
    const n = obj(node);
    if (!n) continue;
    const who = `node \`${name}\``;
    if (n.kind === "interrupt" && n.schema !== undefined) {
      check(
        ["nodes", name, "write"],
        who,
        n.write,
        typeFromSchema(n.schema, "Resume"),
        "the resume value",
      );
    }
    const schema = obj(n.output)?.schema;
    if ((n.kind === "llm" || n.kind === "agent") && schema !== undefined) {
      check(
        ["nodes", name, "write"],
        who,
        n.write,
        typeFromSchema(schema, "Output"),
        "its structured output",
      );
    }
    // Without `output`, a message channel gets the answer's messages, any other the answer's text.
    const target = typeof n.write === "string" ? obj(state[n.write]) : undefined;
    if (
      (n.kind === "llm" || n.kind === "agent") &&
      schema === undefined &&
      target?.type !== "messages"
    )
      check(["nodes", name, "write"], who, n.write, T.string, "its answer's text");
    const onError = obj(n.on_error)?.write;
    check(
      ["nodes", name, "on_error", "write"],
      `the \`on_error\` of ${who}`,
      onError,
      ERROR_TYPE,
      "the error",
    );
  }
  return out;
}
