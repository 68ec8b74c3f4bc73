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

/**
 * The parts of a cel-js error this module reads. cel-js gives every error a summary and a range,
 * and a type error the node it is about; the shapes read below are the ones its parser and type
 * checker build (test/check/expression-findings.test.ts pins each message).
 */
export interface CelErrorLike {
  name?: string;
  code?: string;
  summary: string;
  range: { start: number; end: number };
  node?: unknown;
}

interface AstLike {
  op?: string;
  args?: unknown;
  range?: { start: number; end: number };
}

/** cel-js's token names (the end of the expression, EOF, is worded where it can occur). */
const TOKENS: Record<string, string> = {
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

export function diagnose(error: CelErrorLike, ctx: DiagnoseContext): ExprProblem {
  const start = error.range.start;
  const end = Math.max(error.range.end, start);
  const base = { start, end };
  try {
    return worded(error, base, ctx);
  } catch {
    // An error of a shape this module does not know (a cel-js upgrade): cel-js's own words.
    return { kind: "type", ...base, message: error.summary };
  }
}

function worded(error: CelErrorLike, base: Span, ctx: DiagnoseContext): ExprProblem {
  if (error.name === "ParseError") return { kind: "syntax", ...base, ...parseMessage(error, ctx) };
  const node = error.node as AstLike;
  // Type names as users write them; not in `no_such_key`'s summary, which holds a field name.
  const summary = readableTypes(error.summary, ctx.records);
  switch (error.code) {
    case "unknown_variable":
      return { kind: "type", ...base, ...unknownVariable(node.args as string, ctx) };
    case "no_such_key":
      return noSuchKey(node, error.summary, base, ctx);
    case "no_such_overload":
      return { kind: "type", ...base, ...noSuchOverload(summary) };
    case "no_matching_overload":
      return { kind: "type", ...base, ...noMatchingOverload(summary, node, ctx) };
    case "cannot_index_type": {
      const receiver = (node.args as AstLike[])[0]!.range!;
      const text = ctx.source.slice(receiver.start, receiver.end);
      const type = /'(.*)'/.exec(summary)![1]!;
      return {
        kind: "type",
        ...base,
        message: `\`${text}\` is ${article(type)} \`${type}\`, which has no fields or items`,
      };
    }
    default:
      return { kind: "type", ...base, message: tidy(summary) };
  }
}

type Span = { start: number; end: number };

const article = (type: string) => (/^[aeiou]/i.test(type) ? "an" : "a");

function parseMessage(
  error: CelErrorLike,
  ctx: DiagnoseContext,
): { message: string; hint?: string } {
  const { summary, range } = error;
  switch (error.code) {
    case "unexpected_token": {
      const token = summary.replace("Unexpected token: ", "");
      if (token === "EOF") {
        return {
          message: ctx.source.trim() ? "the expression ends too early" : "the expression is empty",
        };
      }
      return { message: `unexpected ${TOKENS[token]}` };
    }
    case "expected_token": {
      const [, want, got] = /Expected (\w+), got (\w+)/.exec(summary)!;
      return got === "EOF"
        ? { message: `expected ${TOKENS[want!]}, but the expression ends` }
        : { message: `expected ${TOKENS[want!]}, found ${TOKENS[got!]}` };
    }
    case "unexpected_character": {
      const found = ctx.source.slice(range.start, range.end);
      // cel-js's range holds one UTF-16 unit of a character beyond it (an emoji): take it whole.
      const text = /[\uD800-\uDBFF]$/.test(found)
        ? ctx.source.slice(range.start, range.end + 1)
        : found;
      if (/[\s\p{Cf}]/u.test(text)) {
        const code = text.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
        return {
          message: `unexpected invisible character U+${code}`,
          hint: "delete it, or type a plain space: it often comes with copied text",
        };
      }
      // cel-js reads `!==` as `!=` and a stray `=`: the hint answers what was meant.
      const negated = text === "=" && ctx.source.slice(0, range.start).endsWith("!=");
      const hint = negated
        ? "compare with `!=`"
        : (FOREIGN_WORDS[text] ??
          (text === "$" ? "`${{ }}` belongs in templates, not in bare CEL" : undefined));
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
      const [, limit, value] = /Exceeded (\w+) \((\d+)\)/.exec(summary)!;
      const what: Record<string, string> = {
        maxAstNodes: "has more than N parts",
        maxDepth: "is nested more than N deep",
        maxListElements: "has a list of more than N items",
        maxMapEntries: "has a map of more than N entries",
        maxCallArguments: "calls a function with more than N arguments",
      };
      return {
        message: `the expression ${what[limit!]!.replace("N", value!)}`,
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
  // `context` is in scope everywhere, `state` everywhere but in `models`.
  if (name === "state") {
    return {
      message: `\`${name}\` is not available in ${scope.where}: a model is set up from the environment and the run's context, before any node writes the state`,
      hint: inScope,
    };
  }
  const home = VARIABLE_HOMES[name];
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

/** A field a record does not declare: `receiver.key` (key a string) or `receiver['key']`. */
function noSuchKey(node: AstLike, summary: string, base: Span, ctx: DiagnoseContext): ExprProblem {
  const [receiver, keyNode] = node.args as [AstLike, AstLike | string];
  const key = summary.replace("No such key: ", "");
  // The key's own place in brackets; the whole access after a dot.
  const { start, end } = (keyNode as AstLike).range ?? base;
  const at = { start, end };
  const rootName = receiver.op === "id" ? (receiver.args as string) : undefined;
  const text = ctx.source.slice(receiver.range!.start, receiver.range!.end);
  // Only records have fields to miss.
  const receiverType = ctx.typeOf(text) as RecordType;
  const fields = Object.keys(receiverType.fields);
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
  const typeNote = receiverType.label
    ? ` (${article(receiverType.label)} \`${receiverType.label}\`)`
    : "";
  return {
    kind: "type",
    ...at,
    message: `\`${text}\`${typeNote} has no field \`${key}\``,
    hint: fields.length ? `its fields: ${nameList(fields)}` : undefined,
    suggest,
  };
}

const BINARY = /no such overload: (.+?) (==|!=|<=|>=|<|>|\+|-|\*|\/|%|in) (.+)/;

/** An operator and its operands' types: `no such overload: int + string`, or `-string`. */
function noSuchOverload(summary: string): { message: string; hint?: string } {
  const m = BINARY.exec(summary);
  if (!m) {
    const [, operator, operand] = /no such overload: ([!-])(.+)/.exec(summary)!;
    return { message: `\`${operator}\` cannot be applied to \`${operand}\`` };
  }
  const [, left, operator, right] = m as unknown as [string, string, string, string];
  const message = `\`${operator}\` cannot combine \`${left}\` and \`${right}\``;
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

/** A call (`name(args)` or `receiver.name(args)`, the name first in the node's args). */
function noMatchingOverload(
  summary: string,
  node: AstLike,
  ctx: DiagnoseContext,
): { message: string; suggest?: ExprProblem["suggest"] } {
  const name = (node.args as [string])[0];
  if (!ctx.functions.has(name)) {
    return {
      message: `unknown function \`${name}\``,
      suggest: { word: name, candidates: [...ctx.functions] },
    };
  }
  const signature = /'(.*)'/.exec(summary)![1];
  return { message: `no overload of \`${name}\` accepts \`${signature}\`` };
}
