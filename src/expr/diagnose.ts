/**
 * Turns cel-js parse and type errors into graphspec problems: a message that says what is
 * wrong in graphspec's terms, a hint where one helps, and the exact range in the source.
 */
import { readableTypes } from "./cel-type-text.js";
import type { ExprProblem } from "./expr-error.js";
import { inScopeHint, nameList, type Scope, VARIABLE_HOMES } from "./scope.js";
import type { ExprType, RecordType } from "./types.js";

/** What diagnosing needs to know beyond the error. */
export interface DiagnoseContext {
  source: string;
  scope: Scope;
  /** The type of a sub-expression (a receiver), when it type-checks on its own. */
  typeOf(sub: string): ExprType | undefined;
  /** The names of every CEL function, method and macro. */
  functions: ReadonlySet<string>;
  /** The records registered with cel-js, by the names its messages give them. */
  records: ReadonlyMap<string, RecordType>;
}

/** The parts of a cel-js error this module reads. */
export interface CelErrorLike {
  name?: string;
  code?: string;
  summary?: string;
  message: string;
  range?: { start: number; end: number } | undefined;
  node?: unknown;
}

interface AstLike {
  op?: string;
  args?: unknown;
  range?: { start: number; end: number };
}

const TOKENS: Record<string, string> = {
  EOF: "the end of the expression",
  NUMBER: "a number",
  STRING: "a string",
  BYTES: "a bytes literal",
  BOOLEAN: "a boolean",
  NULL: "`null`",
  IDENTIFIER: "a name",
  PLUS: "`+`",
  MINUS: "`-`",
  MULTIPLY: "`*`",
  DIVIDE: "`/`",
  MODULO: "`%`",
  EQ: "`==`",
  NE: "`!=`",
  LT: "`<`",
  LE: "`<=`",
  GT: "`>`",
  GE: "`>=`",
  AND: "`&&`",
  OR: "`||`",
  NOT: "`!`",
  IN: "`in`",
  LPAREN: "`(`",
  RPAREN: "`)`",
  LBRACKET: "`[`",
  RBRACKET: "`]`",
  LBRACE: "`{`",
  RBRACE: "`}`",
  DOT: "`.`",
  COMMA: "`,`",
  COLON: "`:`",
  QUESTION: "`?`",
};

/** Words from other languages and what CEL writes instead. */
const FOREIGN_WORDS: Record<string, string> = {
  and: "CEL writes `&&` for and",
  or: "CEL writes `||` for or",
  not: "CEL writes `!` for not",
  "=": "compare with `==`",
  True: "CEL writes `true`",
  False: "CEL writes `false`",
  None: "CEL writes `null`",
  nil: "CEL writes `null`",
  undefined: "CEL writes `null`",
};

/** cel-js's 'quoted' names in backticks, first letter lower-case. */
const tidy = (s: string): string =>
  s.replace(/'([^']*)'/g, "`$1`").replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase());

const asNode = (v: unknown): AstLike | undefined =>
  typeof v === "object" && v !== null ? (v as AstLike) : undefined;

export function diagnose(error: CelErrorLike, ctx: DiagnoseContext): ExprProblem {
  const start = error.range?.start ?? 0;
  const end = Math.max(error.range?.end ?? start, start);
  const base = { start, end };
  if (error.name === "ParseError") return { kind: "syntax", ...base, ...parseMessage(error, ctx) };
  const summary = readableTypes(error.summary ?? error.message.split("\n")[0] ?? "", ctx.records);
  const node = asNode(error.node);
  switch (error.code) {
    case "unknown_variable":
      return { kind: "type", ...base, ...unknownVariable(String(node?.args ?? ""), ctx) };
    case "no_such_key":
      return noSuchKey(node, summary, base, ctx);
    case "no_such_overload":
      return { kind: "type", ...base, ...noSuchOverload(summary, node?.op) };
    case "no_matching_overload":
      return { kind: "type", ...base, ...noMatchingOverload(summary, node, ctx) };
    case "cannot_index_type": {
      const receiver = asNode(Array.isArray(node?.args) ? node.args[0] : undefined);
      const text = receiver?.range && ctx.source.slice(receiver.range.start, receiver.range.end);
      const type = /'(.*)'/.exec(summary)?.[1] ?? "this value";
      return {
        kind: "type",
        ...base,
        message: text
          ? `\`${text.trim()}\` is ${article(type)} \`${type}\`, which has no fields or items`
          : tidy(summary),
      };
    }
    default:
      return { kind: "type", ...base, message: tidy(summary) };
  }
}

const article = (type: string) => (/^[aeiou]/i.test(type) ? "an" : "a");

function parseMessage(
  error: CelErrorLike,
  ctx: DiagnoseContext,
): { message: string; hint?: string } {
  const summary = error.summary ?? "";
  const range = error.range;
  const found = range ? ctx.source.slice(range.start, range.end) : "";
  switch (error.code) {
    case "unexpected_token": {
      const token = summary.replace(/^Unexpected token: /, "");
      if (token === "EOF" && !ctx.source.trim()) return { message: "the expression is empty" };
      if (token === "EOF") return { message: "the expression ends too early" };
      return { message: `unexpected ${TOKENS[token] ?? `\`${token}\``}` };
    }
    case "expected_token": {
      const m = /^Expected (\w+), got (\w+)$/.exec(summary);
      if (!m) return { message: tidy(summary) };
      const want = TOKENS[m[1]!] ?? m[1]!;
      return m[2] === "EOF"
        ? { message: `expected ${want}, but the expression ends` }
        : { message: `expected ${want}, found ${TOKENS[m[2]!] ?? m[2]!}` };
    }
    case "unexpected_character": {
      const text = found.trim() || summary.replace(/^Unexpected character: /, "");
      // cel-js reads `!==` as `!=` and a stray `=`: the hint answers what was meant.
      const negated = text === "=" && ctx.source.slice(0, range?.start).endsWith("!=");
      const hint = negated
        ? "compare with `!=`"
        : (FOREIGN_WORDS[text] ??
          (text.startsWith("$") ? "`${{ }}` belongs in templates, not in bare CEL" : undefined));
      return hint
        ? { message: `unexpected \`${text}\``, hint }
        : { message: `unexpected \`${text}\`` };
    }
    case "unterminated_string":
    case "unterminated_triple_quoted_string":
      return {
        message: "the string is not closed",
        hint: "close the quote; in YAML, quote the whole value with the other kind of quote",
      };
    case "limit_exceeded": {
      const m = /^Exceeded (\w+) \((\d+)\)$/.exec(summary);
      const what: Record<string, string> = {
        maxAstNodes: "has more than N parts",
        maxDepth: "is nested more than N deep",
        maxListElements: "has a list of more than N items",
        maxMapEntries: "has a map of more than N entries",
        maxCallArguments: "calls a function with more than N arguments",
      };
      const phrase = m && what[m[1]!]?.replace("N", m[2]!);
      return {
        message: phrase ? `the expression ${phrase}` : tidy(summary),
        hint: "split it, or move the logic into a function node",
      };
    }
    default:
      return { message: tidy(summary) };
  }
}

function unknownVariable(
  name: string,
  ctx: DiagnoseContext,
): { message: string; hint?: string; suggest?: ExprProblem["suggest"] } {
  const { scope } = ctx;
  const inScope = inScopeHint(scope);
  if (name === "env") return { message: "`env` is only available in `models`", hint: inScope };
  const home = VARIABLE_HOMES[name];
  if (home && (name === "state" || name === "context")) {
    return {
      message: `\`${name}\` is not available in ${scope.where}: a model is set up from the environment and the run's context, before any node writes the state`,
      hint: inScope,
    };
  }
  if (home) {
    return {
      message: `\`${name}\` is not available in ${scope.where}: it exists ${home}`,
      hint: inScope,
    };
  }
  const foreign = FOREIGN_WORDS[name];
  if (foreign) return { message: `unknown name \`${name}\``, hint: foreign };
  return {
    message: `unknown name \`${name}\``,
    hint: `${inScope}; to compare with the text ${name}, quote it: \`"${name}"\``,
    suggest: { word: name, candidates: Object.keys(scope.variables) },
  };
}

function noSuchKey(
  node: AstLike | undefined,
  summary: string,
  base: { start: number; end: number },
  ctx: DiagnoseContext,
): ExprProblem {
  const args = Array.isArray(node?.args) ? (node.args as unknown[]) : [];
  const receiver = asNode(args[0]);
  const keyNode = asNode(args[1]);
  const key =
    typeof args[1] === "string"
      ? args[1]
      : keyNode?.op === "value" && typeof keyNode.args === "string"
        ? keyNode.args
        : summary.replace(/^No such key: /, "");
  const range = keyNode?.range ?? base;
  const at = { start: range.start, end: range.end };
  const rootName = receiver?.op === "id" ? String(receiver.args) : undefined;
  const receiverType =
    rootName !== undefined
      ? ctx.scope.variables[rootName]
      : receiver?.range && ctx.typeOf(ctx.source.slice(receiver.range.start, receiver.range.end));
  const fields = receiverType?.kind === "record" ? Object.keys(receiverType.fields) : [];
  const suggest = { word: key, candidates: fields };
  if (rootName === "state") {
    return {
      kind: "unknown-key",
      ...at,
      message: `\`${key}\` is not a state channel`,
      hint: `declare it under \`state\``,
      suggest,
    };
  }
  if (rootName === "context") {
    return {
      kind: "unknown-key",
      ...at,
      message: `\`${key}\` is not declared in \`context\``,
      hint: `declare it under \`context\``,
      suggest,
    };
  }
  const text = receiver?.range
    ? ctx.source.slice(receiver.range.start, receiver.range.end).trim()
    : undefined;
  const owner = text ? `\`${text}\`` : "the value";
  const typeNote =
    receiverType && receiverType.kind === "record" && receiverType.label
      ? ` (${article(receiverType.label)} \`${receiverType.label}\`)`
      : "";
  return {
    kind: "type",
    ...at,
    message: `${owner}${typeNote} has no field \`${key}\``,
    hint: fields.length ? `its fields: ${nameList(fields)}` : undefined,
    suggest,
  };
}

const BINARY = /^no such overload: (.+?) (==|!=|<=|>=|<|>|\+|-|\*|\/|%|in) (.+)$/;

function noSuchOverload(
  summary: string,
  op: string | undefined,
): { message: string; hint?: string } {
  const m = BINARY.exec(summary);
  if (!m) {
    const unary = /^no such overload: ([!-])(.+)$/.exec(summary);
    return unary
      ? { message: `\`${unary[1]}\` cannot be applied to \`${unary[2]}\`` }
      : { message: tidy(summary) };
  }
  const [, left, operator, right] = m as unknown as [string, string, string, string];
  const message = `\`${operator ?? op}\` cannot combine \`${left}\` and \`${right}\``;
  const numeric = new Set(["int", "uint", "double"]);
  if (numeric.has(left) && numeric.has(right)) {
    return {
      message,
      hint: "CEL does not mix number types: write `1.0` for a double, or convert with `double(…)` or `int(…)`",
    };
  }
  if (operator === "+" && (left === "string" || right === "string")) {
    return { message, hint: "convert the other side with `string(…)`" };
  }
  if (left === "null" || right === "null") {
    return { message, hint: "to test whether a field is set, use `has(x.field)`" };
  }
  return { message };
}

function noMatchingOverload(
  summary: string,
  node: AstLike | undefined,
  ctx: DiagnoseContext,
): { message: string; hint?: string; suggest?: ExprProblem["suggest"] } {
  const signature = /'(.*)'/.exec(summary)?.[1] ?? summary;
  const args = Array.isArray(node?.args) ? (node.args as unknown[]) : [];
  const name = typeof args[0] === "string" ? args[0] : undefined;
  if (name && !ctx.functions.has(name)) {
    return {
      message: `unknown function \`${name}\``,
      suggest: { word: name, candidates: [...ctx.functions] },
    };
  }
  return {
    message: name
      ? `no overload of \`${name}\` accepts \`${signature}\``
      : `no function matches \`${signature}\``,
  };
}
