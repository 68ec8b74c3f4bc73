/**
 * Collecting the expressions of a spec: every place an expression or template may stand
 * (`ExprSite`), what it may read there (its scope) and what type the place needs (`Expectation`),
 * with the literal values written beside them checked on the way. Reads spec data of any shape.
 */
import { listNames, suggest } from "../../diagnostics/suggest.js";
import {
  ERROR_TYPE,
  type ExprEnvironment,
  type ExprType,
  formatType,
  isAssignable,
  isTemplate,
  MESSAGE_TYPE,
  reducerName,
  type Scope,
  T,
  typeFromSchema,
  writeType,
} from "../../expr/index.js";
import { catalogOf } from "../../spec/catalog.js";
import { asObject as obj } from "../../spec/data.js";
import type { Path } from "../../spec/source-map.js";
import type { CheckContext } from "../check-context.js";
import { describeType, type Finding } from "./finding.js";
import { type ReducerExpectation, reducerExpectation, refusedByReducer } from "./reducer-writes.js";

/** What a place requires of the value written there. */
export interface Expectation {
  type: ExprType;
  /** Whether `null` is accepted (it clears a channel). */
  nullable: boolean;
  /** The message when a value of type `actual` (already formatted) does not fit. */
  mismatch(actual: string): string;
  hint?: string;
  /** A channel write whose reducer takes less than the channel's type: its own finding. */
  reducer?: ReducerExpectation | undefined;
}

/** The finding for a value of type `actual` (written as `shown`) that does not meet `expected`. */
export function misfitFinding(
  expected: Expectation,
  actual: ExprType,
  shown: string,
): Pick<Finding, "rule" | "message" | "hint"> {
  if (refusedByReducer(expected.reducer, actual))
    return {
      rule: "reducer-write",
      message: expected.reducer.mismatch(shown),
      hint: expected.reducer.hint,
    };
  return { rule: "expression-type", message: expected.mismatch(shown), hint: expected.hint };
}

export interface ExprSite {
  /** Data path of the string holding the expression. */
  path: Path;
  /** The template, or the bare CEL of a `when` / `map.over`. */
  source: string;
  kind: "template" | "cel";
  scope: Scope;
  expected?: Expectation | undefined;
}

type Obj = Record<string, unknown>;
/** The entries of a mapping; none when the value is not one (spec data may have any shape). */
export const entries = (v: unknown): [string, unknown][] => Object.entries(obj(v) ?? {});

/** What a node's natural result is, per kind, as expressions see it. */
function nodeLocals(node: Obj): Record<string, ExprType> {
  switch (node.kind) {
    case "llm":
    case "agent": {
      const schema = obj(node.output)?.schema;
      return { output: schema === undefined ? MESSAGE_TYPE : typeFromSchema(schema, "Output") };
    }
    case "tool":
      return { result: T.dyn };
    case "interrupt":
      return { resume: node.schema === undefined ? T.dyn : typeFromSchema(node.schema, "Resume") };
    default:
      return {};
  }
}

/** Collects sites and the literal-value findings met on the way. */
class SiteCollector {
  readonly sites: ExprSite[] = [];
  readonly findings: Finding[] = [];
  constructor(
    private readonly env: ExprEnvironment,
    private readonly state: Obj,
  ) {}

  site(path: Path, source: unknown, kind: ExprSite["kind"], scope: Scope, expected?: Expectation) {
    if (typeof source === "string") this.sites.push({ path, source, kind, scope, expected });
  }

  /** A channel's expectation for a write (reducer-aware) or a Send payload (the channel's type). */
  channel(key: string, how: "write" | "payload"): Expectation | undefined {
    if (!Object.hasOwn(this.state, key)) return undefined;
    const field = this.state[key];
    const type = this.env.state.fields[key] ?? T.dyn;
    const accepts = how === "write" ? writeType(type, field) : type;
    const reducer =
      how === "write" ? reducerExpectation(key, reducerName(field), type, accepts) : undefined;
    return {
      type: accepts,
      nullable: true,
      mismatch: (actual) =>
        `cannot write ${actual} to \`${key}\`, which takes ${describeType(accepts)}`,
      ...(reducer?.reducer === "messages" ? { hint: reducer.hint } : {}),
      reducer,
    };
  }

  /** A map from state key to value (write, set, subgraph output, map.with, on_error.write). */
  writes(base: Path, map: unknown, scope: Scope, how: "write" | "payload") {
    for (const [key, value] of entries(map)) {
      this.value([...base, key], value, scope, this.channel(key, how), key);
      if (how === "write" && isMessagesField(this.state[key]))
        this.messageMaps([...base, key], value, key);
    }
  }

  /**
   * A literal map written to a message channel becomes a message only with \`role\` (or \`type\`)
   * and \`content\`: LangGraph's reducer fails on any other map at run time.
   */
  private messageMaps(path: Path, value: unknown, key: string) {
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        if (!Array.isArray(item)) this.messageMaps([...path, i], item, key);
      });
      return;
    }
    const o = obj(value);
    if (!o || ("content" in o && ("role" in o || "type" in o))) return;
    const missing = ["role", "content"].filter((k) => !(k in o) && !(k === "role" && "type" in o));
    this.findings.push({
      rule: "expression-type",
      path,
      message: `a message written to \`${key}\` needs ${missing.map((k) => `\`${k}\``).join(" and ")}: a map without ${missing.length === 1 ? "it" : "them"} is no message`,
      hint: 'e.g. `{ role: assistant, content: "${{ state.answer }}" }`, or a plain string',
    });
  }

  /**
   * A JSON value whose strings are templates: records each template as a site with the type
   * expected at its position, and checks literals (numbers, plain strings, ...) on the way.
   */
  value(
    path: Path,
    value: unknown,
    scope: Scope,
    expected: Expectation | undefined,
    place: string,
  ) {
    if (typeof value === "string" && isTemplate(value)) {
      this.site(path, value, "template", scope, expected);
      return;
    }
    if (Array.isArray(value)) {
      const list = expected && pick(expected.type, "list");
      if (expected && !list) return this.mismatch(path, expected, "a list", T.list(T.dyn));
      const itemExpected = list && nested(list.item, `an item of \`${place}\``);
      for (const [i, item] of value.entries()) {
        this.value([...path, i], item, scope, itemExpected, place);
      }
      return;
    }
    const o = obj(value);
    if (o) {
      // Where a map is accepted (e.g. a message given as `{role, content}`), any key is.
      const target = expected && (pick(expected.type, "map") ?? pick(expected.type, "record"));
      if (expected && !target) return this.mismatch(path, expected, "a map", T.map(T.dyn));
      for (const [key, v] of Object.entries(o)) {
        const name = `${place}.${key}`;
        if (target?.kind === "record" && !target.open && !Object.hasOwn(target.fields, key)) {
          this.findings.push({
            rule: "expression-type",
            path: [...path, key],
            at: "key",
            message: `\`${place}\` has no field \`${key}\``,
            hint:
              suggest(key, Object.keys(target.fields)) ??
              `its fields: ${listNames(Object.keys(target.fields))}`,
          });
          continue;
        }
        const fieldType = target?.kind === "record" ? target.fields[key] : target?.value;
        this.value([...path, key], v, scope, fieldType && nested(fieldType, `\`${name}\``), name);
      }
      return;
    }
    if (expected) this.literal(path, value, expected);
  }

  private literal(path: Path, value: unknown, expected: Expectation) {
    const type =
      typeof value === "string"
        ? T.string
        : typeof value === "boolean"
          ? T.bool
          : typeof value === "number"
            ? Number.isSafeInteger(value)
              ? T.int
              : T.double
            : value === null
              ? T.null
              : undefined;
    if (!type) return;
    if (!isAssignable(type, expected.type, { nullable: expected.nullable })) {
      return this.mismatch(path, expected, `\`${formatType(type)}\``, type);
    }
    const allowed = typeof value === "string" ? stringEnum(expected.type) : undefined;
    if (allowed && typeof value === "string" && !allowed.includes(value)) {
      this.findings.push({
        rule: "expression-type",
        path,
        message: `\`${value}\` is not one of ${listNames(allowed)}`,
        hint: suggest(value, allowed),
      });
    }
  }

  private mismatch(path: Path, expected: Expectation, shown: string, actual: ExprType) {
    this.findings.push({ path, ...misfitFinding(expected, actual, shown) });
  }
}

/** Whether a state field is a message channel (by its type or its reducer). */
function isMessagesField(field: unknown): boolean {
  const f = obj(field);
  return f !== undefined && (f.type === "messages" || f.reducer === "messages");
}

/** The member of an expected type that a value of this shape would meet. */
function pick<K extends "list" | "record" | "map">(
  t: ExprType,
  kind: K,
): Extract<ExprType, { kind: K }> | undefined {
  if (t.kind === kind) return t as Extract<ExprType, { kind: K }>;
  if (t.kind === "dyn" && kind !== "record")
    return (kind === "list" ? T.list(T.dyn) : T.map(T.dyn)) as never;
  if (t.kind === "union") for (const m of t.of) if (pick(m, kind)) return pick(m, kind);
  return undefined;
}

/** The enum a string must be one of, if the expected type has exactly one. */
function stringEnum(t: ExprType): readonly string[] | undefined {
  if (t.kind === "string") return t.enum;
  // The unions of places (writeType) hold a list and its item, or the forms of a message: a plain
  // string beside an enum is never among them.
  if (t.kind === "union") return t.of.map(stringEnum).find((e) => e !== undefined);
  return undefined;
}

const nested = (type: ExprType, name: string): Expectation => ({
  type,
  nullable: true,
  mismatch: (actual) => `cannot write ${actual} to ${name}, which takes ${describeType(type)}`,
});

const WHEN: Expectation = {
  type: T.bool,
  nullable: false,
  mismatch: (actual) => `\`when\` must be a \`bool\`, not ${actual}`,
  hint: 'compare it, e.g. `state.x == "value"` or `size(state.items) > 0`',
};
const OVER: Expectation = {
  type: T.list(T.dyn),
  nullable: false,
  mismatch: (actual) => `\`map.over\` must be a list, not ${actual}`,
};
const MESSAGES: Expectation = {
  type: T.list(T.dyn),
  nullable: false,
  mismatch: (actual) => `\`messages\` must be a list of messages, not ${actual}`,
  hint: "give the whole list as one expression, e.g. `${{ state.messages }}`",
};

export function collectSites(ctx: CheckContext, env: ExprEnvironment): SiteCollector {
  const spec = ctx.spec as unknown as Obj;
  const c = new SiteCollector(env, obj(spec.state) ?? {});
  const plain = (where: string) => env.scope(where);

  for (const [name, node] of entries(spec.nodes)) {
    const n = obj(node);
    if (!n) continue;
    const at = (...p: (string | number)[]): Path => ["nodes", name, ...p];
    const of = (part: string) => `the \`${part}\` of node \`${name}\``;
    const kind = typeof n.kind === "string" ? n.kind : "";
    if (kind === "llm" || kind === "agent") {
      const prompt = plain(`the prompt of node \`${name}\``);
      c.site(at("system"), n.system, "template", prompt);
      c.site(at("prompt"), n.prompt, "template", prompt);
      c.site(at("messages"), n.messages, "template", prompt, MESSAGES);
    }
    if (obj(n.write))
      c.writes(at("write"), n.write, env.scope(of("write"), nodeLocals(n)), "write");
    if (kind === "tool") c.value(at("args"), n.args, plain(of("args")), undefined, "args");
    if (kind === "interrupt")
      c.value(at("payload"), n.payload, plain(of("payload")), undefined, "payload");
    if (kind === "set") c.writes(at("values"), n.values, plain(of("values")), "write");
    if (kind === "subgraph") {
      c.value(at("input"), n.input, plain(of("input")), undefined, "input");
      c.writes(at("output"), n.output, env.scope(of("output"), { output: T.dyn }), "write");
    }
    const onError = obj(n.on_error);
    if (obj(onError?.write)) {
      c.writes(
        at("on_error", "write"),
        onError?.write,
        env.scope(of("on_error"), { error: ERROR_TYPE }),
        "write",
      );
    }
  }

  const routeScope = plain("a route's `when`");
  const overScope = plain("`map.over`");
  (Array.isArray(spec.edges) ? spec.edges : []).forEach((edge, i) => {
    const e = obj(edge);
    if (!e) return;
    if (Array.isArray(e.route)) {
      e.route.forEach((rc, j) => {
        const when = obj(rc)?.when;
        c.site(["edges", i, "route", j, "when"], when, "cel", routeScope, WHEN);
      });
    }
    const map = obj(e.map);
    if (map) {
      c.site(["edges", i, "map", "over"], map.over, "cel", overScope, OVER);
      const item = typeof map.over === "string" ? itemType(env, map.over, overScope) : T.dyn;
      c.writes(["edges", i, "map", "with"], map.with, env.scope("`map.with`", { item }), "payload");
    }
  });

  const used = toolsNodesName(spec.nodes);
  for (const [name, tool] of entries(spec.tools)) {
    // A catalog's tool this spec does not use: its `bind` reads the context of the specs that do,
    // and is checked through them.
    if (tool && typeof tool === "object" && catalogOf(tool) && !used.has(name)) continue;
    const bind = obj(tool)?.bind;
    c.value(
      ["tools", name, "bind"],
      bind,
      plain(`the \`bind\` of tool \`${name}\``),
      undefined,
      "bind",
    );
  }
  const models = env.modelsScope();
  for (const [name, model] of entries(spec.models)) {
    const options = obj(model);
    if (!options) continue;
    for (const [key, value] of Object.entries(options)) {
      const entries = TEXT_MAPS.has(key) ? obj(value) : undefined;
      if (entries) {
        for (const [k, v] of Object.entries(entries))
          c.value(["models", name, key, k], v, models, textOption(name, `${key}.${k}`), name);
      } else {
        const expected = TEXT_OPTIONS.has(key) ? textOption(name, key) : undefined;
        c.value(["models", name, key], value, models, expected, name);
      }
    }
  }
  return c;
}

/** Options a provider takes as text (a key, an address, who a call is for), or as maps of text. */
const TEXT_OPTIONS = new Set(["api_key", "base_url", "user"]);
const TEXT_MAPS = new Set(["headers", "metadata"]);

/** A model option that must evaluate to a string (other keys go to the provider as written). */
function textOption(model: string, option: string): Expectation {
  return {
    type: T.string,
    nullable: false,
    mismatch: (actual) => `model \`${model}\`: \`${option}\` takes a \`string\`, not ${actual}`,
    hint: "convert it with `string(...)`, or interpolate it into text",
  };
}

/** The tools the nodes name (`tools`, `approve`, `tool`). */
function toolsNodesName(nodes: unknown): Set<string> {
  const names = new Set<string>();
  for (const [, node] of entries(nodes)) {
    const n = obj(node);
    for (const list of [n?.tools, n?.approve])
      if (Array.isArray(list)) for (const t of list) if (typeof t === "string") names.add(t);
    if (typeof n?.tool === "string") names.add(n.tool);
  }
  return names;
}

/** The element type of a `map.over` list, for `item`; dyn when it is not known. */
function itemType(env: ExprEnvironment, over: string, scope: Scope): ExprType {
  const r = env.check(over, scope);
  return r.ok && r.type.kind === "list" ? r.type.item : T.dyn;
}
