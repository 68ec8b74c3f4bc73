/**
 * The differential test's oracle (test/differential.test.ts): of a run that failed after
 * `validate` passed its spec, whether the failure is the data's (a script that ran out, a loop on
 * a condition the data never meets, a module failing on purpose, a value only known at run time)
 * or the structure's — something a static rule could have seen in the spec — and which class.
 *
 * The judgement reads the generated spec the failure happened in (the parent's, or the child's
 * when the error's `path` goes through the subgraph node) and the error's code, node and field.
 * What a write wrote is judged by the spec's own value for it: a literal, or a template whose kind
 * is known without running (`${{ 1 + 1 }}`, a read of a typed channel, text around `${{ }}`);
 * a value computed from a model's answer, a tool's result, a resume value or an `any` channel is
 * the data's.
 */
import type { RunResult } from "../../src/index.js";
import type { FuzzCase, Spec } from "./spec-generator.js";

/** A failure's class; `structural` ones fail the test. */
export interface Verdict {
  structural: boolean;
  /** The class: the run error's code, or a finer name for the structural classes. */
  kind: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const data = (kind: string): Verdict => ({ structural: false, kind });
const structure = (kind: string): Verdict => ({ structural: true, kind });

/** Failures that are always the data's. */
const ALWAYS_DATA = new Set([
  // An expression failing on a value: a channel not yet written, a wrong type inside `any`.
  "expression",
  "expression-limit",
  // A route without `default` (validate warns) where no case matched this state.
  "route-no-match",
  // The scripted model's answer did not match `output.schema` (the script is data).
  "invalid-output",
]);

/**
 * Messages of deliberate failures: the script ran out or did not fit (a text turn where a
 * structured answer is asked), a turn was a scripted failure, a module failed on purpose, or the
 * resume value of an agent's approval was not a decision (the caller's data; issue 13's report).
 */
const DELIBERATE =
  /has no answer left|was asked for a structured answer|deliberate|Invalid HITLResponse/;

/** A child's failure of the kinds above, as the parent's `subgraph` error carries its message. */
const CHILD_DATA =
  /has no answer left|was asked for a structured answer|deliberate|Invalid HITLResponse|Recursion limit|recursion limit|expression|no case of the route|did not match|invalid-output|node `[^`]+` wrote|tool `/i;

export function judge(result: RunResult, c: FuzzCase): Verdict {
  const error = result.error;
  const code = error?.code ?? "(no code)";
  const message = error?.message ?? "";
  const where = specOf(c, error?.path);
  // The node that failed, in `where`: inside a child, the path's last (`node` is the parent's).
  const node = error?.path && error.path.length > 1 ? error.path.at(-1) : error?.node;
  if (ALWAYS_DATA.has(code)) return data(code);
  switch (code) {
    case "recursion-limit": {
      // Static edges always run: a cycle of them never ends unless a node fails or pauses. A
      // child's loop names the subgraph node alone.
      const loop = error?.path?.length ? c.children["child.yaml"] : c.spec;
      return loop && staticCycle(loop) ? structure("static-cycle") : data(code);
    }
    case "parallel-write":
      return parallelWrite(c, where, message);
    case "invalid-write":
    case "invalid-input":
      return invalidWrite(c, where, node, error?.field, message);
    case "tool-error":
      return toolError(where, node, message, error?.hint);
    case "node-error":
      return DELIBERATE.test(message) ? data(code) : structure(code);
    // What an `invoke` of a compiled child throws; the executor reports the child's own code.
    case "subgraph":
      return CHILD_DATA.test(message) ? data(code) : structure(code);
    default:
      return structure(code);
  }
}

/** The spec a failure happened in: the child's when its path goes through the subgraph node. */
function specOf(c: FuzzCase, path: string[] | undefined): Spec | undefined {
  if (path === undefined || path.length < 2) return c.spec;
  return c.children["child.yaml"];
}

const nodesOf = (spec: Spec): Record<string, Obj> =>
  (isObj(spec.nodes) ? spec.nodes : {}) as Record<string, Obj>;
const stateOf = (spec: Spec): Record<string, Obj> =>
  (isObj(spec.state) ? spec.state : {}) as Record<string, Obj>;

/** Node names an edge (or an `on_error`) can lead to: `to`, a route's cases, a map's `to`. */
function targetsOf(e: Obj): string[] {
  const out: unknown[] = [];
  if (e.to !== undefined) out.push(...(Array.isArray(e.to) ? e.to : [e.to]));
  if (Array.isArray(e.route)) for (const c of e.route) if (isObj(c)) out.push(c.to ?? c.default);
  if (isObj(e.map)) out.push(e.map.to);
  return out.filter((t): t is string => typeof t === "string");
}

/**
 * Whether a cycle of static edges (`from: node`, `to: node` or a list: they always run) is
 * reachable from START by any edge or `on_error.goto`.
 */
export function staticCycle(spec: Spec): boolean {
  const edges = (Array.isArray(spec.edges) ? spec.edges : []).filter(isObj);
  const sources = (e: Obj) => (Array.isArray(e.from) ? e.from : [e.from]).map(String);
  const any = new Map<string, string[]>();
  const add = (from: string, to: string[]) => any.set(from, [...(any.get(from) ?? []), ...to]);
  for (const e of edges) for (const f of sources(e)) add(f, targetsOf(e));
  for (const [n, body] of Object.entries(nodesOf(spec)))
    if (isObj(body.on_error) && typeof body.on_error.goto === "string")
      add(n, [body.on_error.goto]);
  const reachable = new Set<string>();
  const queue = ["START"];
  for (let n = queue.shift(); n !== undefined; n = queue.shift())
    for (const t of any.get(n) ?? []) {
      if (reachable.has(t)) continue;
      reachable.add(t);
      queue.push(t);
    }
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (typeof e.from !== "string" || e.to === undefined || !reachable.has(e.from)) continue;
    next.set(e.from, [...(next.get(e.from) ?? []), ...targetsOf({ to: e.to })]);
  }
  const state = new Map<string, "open" | "done">();
  const visit = (n: string): boolean => {
    if (state.get(n) === "open") return true;
    if (state.get(n) === "done") return false;
    state.set(n, "open");
    const found = (next.get(n) ?? []).some(visit);
    state.set(n, "done");
    return found;
  };
  return [...next.keys()].some(visit);
}

/**
 * LangGraph's InvalidUpdateError. The data's only when a writer's writes are unknown to validate:
 * a `function` node without `writes` (the message names the writers when it knows them).
 */
function parallelWrite(c: FuzzCase, where: Spec | undefined, message: string): Verdict {
  const named = /\(written by (.*)\)$/.exec(message)?.[1];
  const writers = named ? [...named.matchAll(/`([^`]+)`/g)].map((m) => m[1]!) : undefined;
  const specs = where ? [where] : [c.spec, ...Object.values(c.children)];
  const unknown = (n: Obj | undefined) => n?.kind === "function" && n.writes === undefined;
  const opaque = specs.some((s) => {
    const nodes = nodesOf(s);
    return writers ? writers.some((w) => unknown(nodes[w])) : Object.values(nodes).some(unknown);
  });
  if (opaque) return data("parallel-write");
  // Two resets in a step: validate sees literal `null`s; a template that reads an unset channel
  // computes one only at run time.
  const reset = /wrote `null` \(a reset\) to `(\w+)`/.exec(message)?.[1];
  if (reset !== undefined && specs.every((s) => literalResets(s, reset) < 2))
    return data("parallel-write (computed reset)");
  const onError = specs.some((s) =>
    Object.entries(nodesOf(s)).some(
      ([n, node]) => isObj(node.on_error) && (!writers || writers.includes(n)),
    ),
  );
  return structure(onError ? "parallel-write (on_error)" : "parallel-write");
}

/** How many places of the spec write a literal `null` to `channel` (a `set`, a `write` map, an `on_error`). */
function literalResets(spec: Spec, channel: string): number {
  let n = 0;
  for (const node of Object.values(nodesOf(spec))) {
    const maps = [node.values, node.write, isObj(node.on_error) ? node.on_error.write : undefined];
    n += maps.filter((m) => isObj(m) && m[channel] === null).length;
  }
  return n;
}

/**
 * A write the channel refused. Structural when the spec gives the written value's kind: a
 * literal, a typed template, a subgraph copying back a channel the child declares typed.
 */
function invalidWrite(
  c: FuzzCase,
  where: Spec | undefined,
  node: string | undefined,
  field: string | undefined,
  message: string,
): Verdict {
  // The run's input into a child: the parent's value refused by the child's declaration.
  if (/the run's input wrote/.test(message)) return subgraphInput(c, node, field);
  if (!where || node === undefined || field === undefined) return data("invalid-write");
  const body = nodesOf(where)[node];
  if (!body) return data("invalid-write");
  const channel = stateOf(where)[field];
  // A narrowed channel (an enum) refuses values of the right kind that only the run computes.
  const narrowed = channel?.enum !== undefined;
  if (body.kind === "subgraph") return subgraphWrite(c, where, body, field, narrowed);
  const value = /^the `on_error` of/.test(message)
    ? writtenBy(body.on_error, field, { kind: "object" })
    : /^the `map\.with`/.test(message)
      ? undefined
      : body.kind === "set"
        ? isObj(body.values)
          ? { value: body.values[field] }
          : undefined
        : writtenBy(body, field, undefined);
  if (!value) return data("invalid-write");
  const known = "kind" in value ? value.kind : kindOf(value.value, where);
  if (known === undefined) return data("invalid-write");
  if (narrowed && !("value" in value && isLiteral(value.value))) return data("invalid-write");
  const type = String(channel?.type);
  const reducer = isObj(channel?.reducer)
    ? "custom"
    : String(channel?.reducer ?? (type === "messages" ? "messages" : "replace"));
  const writer = /^the `on_error` of/.test(message) ? "on_error " : "";
  return structure(
    reducer === "replace"
      ? `${writer}invalid-write (${type})`
      : `${writer}reducer-write (${type}, ${reducer})`,
  );
}

/** The value a `write` (or `on_error.write`) gives `field`: a map's entry, or the whole result. */
function writtenBy(
  holder: unknown,
  field: string,
  whole: { kind: string } | undefined,
): { value: unknown } | { kind: string } | undefined {
  if (!isObj(holder)) return undefined;
  const w = holder.write;
  if (isObj(w) && field in w) return { value: w[field] };
  if (w === field) return whole;
  return undefined;
}

/** A subgraph node's copy-back: structural when the child declares the channel with a type. */
function subgraphWrite(
  c: FuzzCase,
  parent: Spec,
  body: Obj,
  field: string,
  narrowed: boolean,
): Verdict {
  const child = c.children["child.yaml"];
  if (!child || narrowed) return data("invalid-write");
  const childState = stateOf(child);
  const output = isObj(body.output) ? body.output : undefined;
  let source: string | undefined = field;
  if (output) {
    const read = /^\$\{\{ output\.(\w+) \}\}$/.exec(String(output[field] ?? ""));
    source = read?.[1];
  }
  const type = source === undefined ? undefined : childState[source]?.type;
  const parentType = stateOf(parent)[field]?.type;
  const kind = `subgraph-copy-back (${type} → ${parentType})`;
  // The child's `any` channel holds what its run wrote: validate cannot know it.
  return type === undefined || type === "any" ? data(kind) : structure(kind);
}

/**
 * A child refusing the parent's value as its input: structural when the parent's value has a
 * known kind — its `input` map's template, or (without `input`) its own typed channel.
 */
function subgraphInput(c: FuzzCase, node: string | undefined, field: string | undefined): Verdict {
  const body = node === undefined ? undefined : nodesOf(c.spec)[node];
  if (!body || field === undefined) return data("subgraph-input");
  const given = isObj(body.input)
    ? field in body.input
      ? kindOf(body.input[field], c.spec)
      : undefined
    : stateOf(c.spec)[field]?.type;
  return given === undefined || given === "any"
    ? data("subgraph-input")
    : structure(
        `subgraph-input (${given} → ${stateOf(c.children["child.yaml"] ?? {})[field]?.type})`,
      );
}

/** A `tool` node's arguments refused by the tool's schema, when the spec gives their kinds. */
function toolError(
  where: Spec | undefined,
  node: string | undefined,
  message: string,
  hint: string | undefined,
): Verdict {
  if (DELIBERATE.test(message)) return data("tool-error");
  if (!where || node === undefined || !/^give `args`/.test(hint ?? "")) return data("tool-error");
  const body = nodesOf(where)[node];
  // A `tools` node or an agent runs the model's calls: their arguments are the script's data.
  if (body?.kind !== "tool" || !isObj(body.args)) return data("tool-error");
  const args = Object.values(body.args);
  return args.every((a) => kindOf(a, where) !== undefined)
    ? structure("tool-args")
    : data("tool-error");
}

const isLiteral = (v: unknown): boolean => !JSON.stringify(v ?? null).includes("${{");

/** The kinds of the generator's computed templates (test/support/spec-generator.ts). */
const EXPRESSION_KINDS: [RegExp, string][] = [
  [/^string\(/, "string"],
  [/^'[^']*' \+ '[^']*'$/, "string"],
  [/^'[^']*'$/, "string"],
  [/^error\.message$/, "string"],
  [/^[\d.]+ [+*] [\d.]+$/, "number"],
  [/^state\.count \+ 1$/, "number"],
  [/^\d+ > \d+$/, "boolean"],
  [/^\[.*\]$/, "array"],
  [/^\{.*\}$/, "object"],
];

/**
 * The JSON kind of a value as the spec writes it, when known without running: a literal's, text
 * around `${{ }}` (a string), a whole `${{ expr }}` of the generator's, a read of a typed channel.
 */
export function kindOf(value: unknown, spec: Spec): string | undefined {
  if (isLiteral(value)) {
    if (value === null) return "null";
    return Array.isArray(value) ? "array" : typeof value;
  }
  if (typeof value !== "string") return undefined;
  const whole = /^\$\{\{ (.*) \}\}$/.exec(value);
  if (!whole || whole[1]!.includes("${{")) return "string";
  const expr = whole[1]!;
  const read = /^state\.(\w+)$/.exec(expr);
  if (read) {
    const type = stateOf(spec)[read[1]!]?.type;
    return type === undefined || type === "any" ? undefined : String(type);
  }
  return EXPRESSION_KINDS.find(([re]) => re.test(expr))?.[1];
}
