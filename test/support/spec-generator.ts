/**
 * Random graphspec specs for the differential test (test/differential.test.ts): mostly well formed,
 * with the mistakes people make mixed in — values and defaults of the wrong type, writes to
 * channels that do not exist, misspelled names, missing edges — so that a good share passes
 * `validate` and reaches compile and run. One function per form of the language; each returns a
 * fast-check arbitrary of plain spec data (the shape the YAML would have).
 *
 * The specs use a fixed project written by the test (FUZZ_MODULES below): one function module,
 * one tool module, and one scripted model, `scripted:fuzz`, whose turns the case carries.
 *
 * Hazards (issue 24) are the shapes a fuzzer found passing validate and failing at run time:
 * static-edge cycles, `any` channels with combining reducers written values of other kinds,
 * `on_error` writes into a channel another node of the step writes, parent and child specs
 * declaring a shared channel with different types, tool arguments of the wrong type. `fuzzCaseOf`
 * takes their weight: 0 is the generator without them; at w each hazard's form is picked about
 * w times in (10 + w).
 */
import fc from "fast-check";

/** Plain spec data, as YAML would hold it. */
type Json = unknown;
export type Spec = Record<string, Json>;
type Field = Record<string, Json>;
type State = Record<string, Field>;

/** A generated case: the spec, the child specs its subgraph nodes mount (file → spec), the model's script, and the resume values. */
export interface FuzzCase {
  spec: Spec;
  children: Record<string, Spec>;
  script: Json[];
  resumes: Json[];
}

/** The modules of the fixed project, by file name relative to the specs' folder's parent. */
export const FUZZ_MODULES: Record<string, string> = {
  "fns.mjs": `
export const nothing = () => ({});
export const bump = (state) => ({ count: (typeof state.count === "number" ? state.count : 0) + 1 });
export const say = () => ({ text: "from a function" });
export const stray = () => ({ no_such_channel: 1 });
export const fail = () => { throw new Error("deliberate failure in a function"); };
`,
  "reducers.mjs": `
export const latest = (current, written) => written;
export const fail = () => { throw new Error("deliberate failure in a reducer"); };
`,
  "tools.mjs": `
export const echo = ({ text }) => "echo: " + text;
export const fail = () => { throw new Error("deliberate failure in a tool"); };
`,
};

/** Channel names: everyday ones and `messages`; rarely one LangGraph reserves (issue 13, class 7). */
const CHANNELS = ["text", "count", "items", "meta", "flag", "score", "messages"];
const RESERVED = "__root__";
const NODES = ["alpha", "beta", "gamma", "delta", "epsilon"];
const TYPES = ["string", "integer", "number", "boolean", "array", "object", "messages", "any"];
const REDUCERS: unknown[] = [
  "replace",
  "append",
  "union",
  "merge",
  "sum",
  "max",
  "min",
  "messages",
];
/** Reducers of reducers.mjs: one that keeps the written value, one that fails on purpose. */
const CUSTOM_REDUCERS = [
  { module: "../reducers.mjs", export: "latest" },
  { module: "../reducers.mjs", export: "fail" },
];

/** A name as written, or (rarely) misspelled: the rules must catch the misspelling. */
const spelled = (name: string): fc.Arbitrary<string> =>
  fc.oneof({ weight: 80, arbitrary: fc.constant(name) }, fc.constant(`${name}x`));

/** A literal of the given type. */
function literalOf(type: string): fc.Arbitrary<Json> {
  switch (type) {
    case "string":
      return fc.constantFrom("", "low", "high", "hello");
    case "integer":
      return fc.integer({ min: -3, max: 5 });
    case "number":
      return fc.constantFrom(0, 1.5, -2.25, 3);
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(fc.constantFrom("a", "b"), { maxLength: 2 });
    case "object":
      return fc.constantFrom({}, { k: "v" }, { n: 1 });
    case "messages":
      return fc.constantFrom([], [{ role: "user", content: "hi" }], ["hello"]);
    default:
      return fc.oneof(
        fc.constant(null),
        fc.string({ maxLength: 3 }),
        fc.integer(),
        fc.constantFrom<Json>({ k: "v" }, ["a"]),
      );
  }
}

/** Any JSON literal, of whatever type: a wrong default or a wrong write. */
const anyLiteral: fc.Arbitrary<Json> = fc.constantFrom(...TYPES).chain(literalOf);

/** A value of the channel's type mostly, sometimes of another (validate must say so), or null. */
const valueFor = (type: string): fc.Arbitrary<Json> =>
  fc.oneof(
    { weight: 12, arbitrary: literalOf(type) },
    { weight: 1, arbitrary: anyLiteral },
    { weight: 1, arbitrary: fc.constant(null) },
  );

/** The built-in reducers that can combine values of each type. */
const FITTING_REDUCERS: Record<string, string[]> = {
  string: ["replace"],
  integer: ["replace", "sum", "max", "min"],
  number: ["replace", "sum", "max", "min"],
  boolean: ["replace"],
  array: ["replace", "append", "union"],
  object: ["replace", "merge"],
  messages: ["messages"],
  any: ["replace", "append"],
};

/**
 * One state channel: a type, maybe a reducer (mostly one that fits the type), maybe a default
 * (mostly of its type), rarely an enum. Wrong reducers and defaults are rare enough that most
 * specs still pass validate.
 */
export function channel(name: string, hazard = 0): fc.Arbitrary<Field> {
  const type =
    name === "messages"
      ? fc.oneof({ weight: 5, arbitrary: fc.constant("messages") }, fc.constantFrom(...TYPES))
      : fc.constantFrom(...TYPES);
  return weighted([10, typedChannel(type)], [hazard, anyWithReducer]);
}

/** Reducers that combine values of one kind, on an `any` channel (issue 24: `merge` took `1`). */
const COMBINING = ["merge", "sum", "max", "min", "append", "union", "messages"];

/** Hazard: an `any` channel with a combining reducer, maybe a default of whatever kind. */
const anyWithReducer: fc.Arbitrary<Field> = fc
  .record(
    { type: fc.constant("any"), reducer: fc.constantFrom(...COMBINING), default: anyLiteral },
    { requiredKeys: ["type", "reducer"] },
  )
  .map(withoutUndefined);

function typedChannel(type: fc.Arbitrary<string>): fc.Arbitrary<Field> {
  return type.chain((t) => {
    const enumerated = fc.oneof(
      { weight: t === "string" ? 6 : 40, arbitrary: fc.constant(undefined) },
      fc.constant(["low", "high"]),
    );
    return enumerated.chain((values) =>
      fc
        .record(
          {
            type: fc.constant(t),
            reducer: fc.oneof(
              { weight: 10, arbitrary: fc.constant(undefined) },
              { weight: 10, arbitrary: fc.constantFrom(...FITTING_REDUCERS[t]!) },
              fc.constantFrom(...REDUCERS),
              fc.constantFrom(...CUSTOM_REDUCERS),
            ),
            default: fc.oneof(
              { weight: 8, arbitrary: fc.constant(undefined) },
              { weight: 12, arbitrary: values ? fc.constantFrom(...values) : literalOf(t) },
              anyLiteral,
            ),
            enum: fc.constant(values),
          },
          { requiredKeys: ["type", "enum"] },
        )
        .map(withoutUndefined),
    );
  });
}

/** 1–5 state channels, `messages` mostly among them (llm, agent and tools nodes need it). */
export const stateOf = (hazard: number): fc.Arbitrary<State> =>
  fc
    .tuple(
      fc.uniqueArray(
        fc.oneof({ weight: 60, arbitrary: fc.constantFrom(...CHANNELS) }, fc.constant(RESERVED)),
        { minLength: 1, maxLength: 4 },
      ),
      fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, fc.constant(false)),
    )
    .map(([names, chat]) => (chat && !names.includes("messages") ? [...names, "messages"] : names))
    .chain((names) =>
      fc.tuple(...names.map((n) => channel(n, hazard))).map((fields) => {
        const out: State = {};
        names.forEach((n, i) => {
          out[n] = fields[i]!;
        });
        return out;
      }),
    );

/** A channel of the state to read or write; rarely one that is not there. */
function channelName(s: State): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 30, arbitrary: fc.constantFrom(...Object.keys(s)).chain(spelled) },
    fc.constantFrom(...CHANNELS),
  );
}

/**
 * A template for a channel's value: a literal, a read of a channel of the same type (rarely of
 * any), an interpolated string, or arithmetic.
 */
function template(s: State, type: string): fc.Arbitrary<Json> {
  const read = (k: string) => `\${{ state.${k} }}`;
  const alike = Object.keys(s).filter((k) => s[k]!.type === type);
  const computed: string[] = {
    string: ["text ${{ 'x' }}", "${{ string(1 + 1) }}"],
    integer: ["${{ 1 + 1 }}", ...(s.count?.type === "integer" ? ["${{ state.count + 1 }}"] : [])],
    number: ["${{ 1.5 * 2.0 }}"],
    boolean: ["${{ 1 > 2 }}"],
    array: ["${{ ['a', 'b'] }}"],
    object: ["${{ {'k': 'v'} }}"],
    messages: ["hello ${{ 'x' }}"],
  }[type] ?? ["${{ 1 + 1 }}", "${{ {'k': 'v'} }}", "${{ ['a'] }}", "text ${{ 'x' }}"];
  return fc.oneof(
    { weight: 8, arbitrary: valueFor(type) },
    { weight: 2, arbitrary: fc.constantFrom(...computed) },
    ...(alike.length ? [{ weight: 2, arbitrary: fc.constantFrom(...alike.map(read)) }] : []),
    { weight: 1, arbitrary: fc.constantFrom(...Object.keys(s).map(read)) },
  );
}

/** A `{ channel: value }` map of writes (the `values` of a set node, a `write` map). */
function writes(s: State, extra: readonly string[] = []): fc.Arbitrary<Record<string, Json>> {
  return fc
    .uniqueArray(
      channelName(s).chain((c) =>
        fc.tuple(
          fc.constant(c),
          fc.oneof(
            { weight: 4, arbitrary: template(s, s[c]?.type as string) },
            fc.constantFrom(...extra, "x"),
          ),
        ),
      ),
      { minLength: 1, maxLength: 3, selector: ([c]) => c },
    )
    .map((pairs) => Object.fromEntries(pairs));
}

/** A `write`: a channel name, or a map of templates that may read `output`/`result`/`resume`. */
function write(s: State, variable: string): fc.Arbitrary<Json | undefined> {
  const uses = [`\${{ ${variable} }}`, `\${{ string(${variable}) }}`];
  return fc.oneof(fc.constant(undefined), channelName(s), writes(s, uses) as fc.Arbitrary<Json>);
}

/** A CEL condition over the state, mostly well typed. */
function condition(s: State): fc.Arbitrary<string> {
  const forChannel = Object.entries(s).flatMap(([k, f]) => {
    const c = [`has(state.${k})`];
    if (f.type === "integer" || f.type === "number") c.push(`state.${k} > 2`);
    if (f.type === "boolean") c.push(`state.${k}`);
    if (f.type === "array" || f.type === "messages" || f.type === "string")
      c.push(`size(state.${k}) > 1`);
    if (f.type === "string") c.push(`state.${k} == "high"`);
    return c;
  });
  return fc.constantFrom("true", "false", ...forChannel);
}

/** `set`: literal and template values for 1–3 channels. */
export function setNode(s: State): fc.Arbitrary<Field> {
  return fc.record({ kind: fc.constant("set"), values: writes(s) });
}

/** `function`: one export of fns.mjs, with or without `writes` (without, its writes are unknown to validate). */
export function functionNode(s: State): fc.Arbitrary<Field> {
  return fc
    .record(
      {
        kind: fc.constant("function"),
        module: fc.constant("../fns.mjs"),
        export: fc.constantFrom("nothing", "bump", "say", "stray", "fail"),
        writes: fc.uniqueArray(channelName(s), { maxLength: 2 }),
      },
      { requiredKeys: ["kind", "module", "export"] },
    )
    .map(withoutUndefined);
}

const OUTPUT_SCHEMA: Json = {
  schema: {
    type: "object",
    properties: { label: { type: "string" }, n: { type: "integer" } },
    required: ["label"],
  },
};

/** `llm`: maybe `tools`, maybe a structured `output` (both together: a reproduced case of issue 13), any `write`. */
export function llmNode(s: State): fc.Arbitrary<Field> {
  const answer = fc.oneof(
    { weight: 4, arbitrary: fc.constant({}) },
    { weight: 4, arbitrary: fc.constant({ tools: ["echo"] }) },
    { weight: 4, arbitrary: fc.constant({ output: OUTPUT_SCHEMA }) },
    fc.constant({ tools: ["echo"], output: OUTPUT_SCHEMA }),
  );
  return fc
    .record(
      {
        kind: fc.constant("llm"),
        prompt: fc.constantFrom("hi", "state: ${{ state }}"),
        answer,
        write: write(s, "output"),
      },
      { requiredKeys: ["kind", "answer"] },
    )
    .map(({ answer, ...rest }) => withoutUndefined({ ...rest, ...answer }));
}

/** `agent`: the echo tool, maybe approved by a person, a structured `output`, any `write`. */
export function agentNode(s: State): fc.Arbitrary<Field> {
  return fc
    .record(
      {
        kind: fc.constant("agent"),
        prompt: fc.constant("do it"),
        tools: fc.constant(["echo"]),
        approve: fc.constant(["echo"]),
        max_steps: fc.integer({ min: 1, max: 3 }),
        output: fc.constant(OUTPUT_SCHEMA),
        write: write(s, "output"),
      },
      { requiredKeys: ["kind", "tools"] },
    )
    .map(withoutUndefined);
}

/**
 * Hazard: arguments echo's schema (`text`, a string, required) refuses: another kind, literal or
 * computed, a channel's value, none, or one it does not declare.
 */
function wrongArgs(s: State): fc.Arbitrary<Json> {
  const reads = Object.keys(s).map((k) => ({ text: `\${{ state.${k} }}` }));
  return fc.constantFrom<Json>(
    { text: 3 },
    { text: ["hi"] },
    { text: "${{ 1 + 1 }}" },
    { text: "${{ {'k': 'v'} }}" },
    {},
    { text: "hi", extra: 1 },
    ...reads,
  );
}

/** `tool`: one call of echo or fail, its `result` written or not. */
export function toolNode(s: State, hazard = 0): fc.Arbitrary<Field> {
  return fc
    .record(
      {
        kind: fc.constant("tool"),
        tool: fc.constantFrom("echo", "fail"),
        args: weighted(
          [10, fc.record({ text: fc.constantFrom("hi", "${{ 'a' + 'b' }}") })],
          [hazard, wrongArgs(s)],
        ),
        write: write(s, "result"),
      },
      { requiredKeys: ["kind", "tool", "args"] },
    )
    .map(withoutUndefined);
}

/** `interrupt`: a payload, a string schema for the resume value, any `write` of `resume`. */
export function interruptNode(s: State): fc.Arbitrary<Field> {
  return fc
    .record(
      {
        kind: fc.constant("interrupt"),
        payload: fc.constantFrom("ok?", { question: "${{ 'a' + 'b' }}" }),
        schema: fc.constant({ type: "string" }),
        write: write(s, "resume"),
      },
      { requiredKeys: ["kind"] },
    )
    .map(withoutUndefined);
}

/** The generated tools node: runs the last AI message's tool calls. */
export function toolsNode(): fc.Arbitrary<Field> {
  return fc.constant({ kind: "tools" });
}

/** A subgraph node mounting `child` (a file name), with maybe `input` and `output` maps. */
export function subgraphNode(s: State, child: string, childState: State): fc.Arbitrary<Field> {
  const childKeys = Object.keys(childState);
  const input = fc.uniqueArray(
    fc.tuple(
      fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(...childKeys) },
        fc.constantFrom(...CHANNELS),
      ),
      fc.constantFrom(...Object.keys(s)).map((k) => `\${{ state.${k} }}` as Json),
    ),
    { minLength: 1, maxLength: 2, selector: ([k]) => k },
  );
  const output = fc.uniqueArray(
    fc.tuple(
      channelName(s),
      fc.constantFrom(...childKeys).map((k) => `\${{ output.${k} }}` as Json),
    ),
    { minLength: 1, maxLength: 2, selector: ([k]) => k },
  );
  return fc
    .record(
      {
        kind: fc.constant("subgraph"),
        graph: fc.constant(`./${child}`),
        input: input.map((p) => Object.fromEntries(p)),
        output: output.map((p) => Object.fromEntries(p)),
      },
      { requiredKeys: ["kind", "graph"] },
    )
    .map(withoutUndefined);
}

/** A node of any kind but subgraph (those need a child spec: see `nodes`). */
export function node(s: State, hazard = 0): fc.Arbitrary<Field> {
  return fc.oneof(
    { weight: 3, arbitrary: setNode(s) },
    { weight: 2, arbitrary: functionNode(s) },
    { weight: 2, arbitrary: llmNode(s) },
    agentNode(s),
    toolNode(s, hazard),
    interruptNode(s),
    toolsNode(),
  );
}

/** Common node options: `on_error` sometimes, going to another node or END, writing the error. */
function onError(s: State, names: string[]): fc.Arbitrary<Json | undefined> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constant(undefined) },
    fc
      .record(
        {
          goto: fc.constantFrom(...names, "END"),
          write: fc.oneof(
            channelName(s),
            writes(s, ["${{ error.message }}"]) as fc.Arbitrary<Json>,
          ),
        },
        { requiredKeys: [] },
      )
      .map(withoutUndefined),
  );
}

// --- Edges: one function per form ---

const target = (names: string[]) =>
  fc.oneof(fc.constantFrom(...names).chain(spelled), fc.constant("END"));

/** `from → to`: a node (maybe misspelled) or END. */
export function plainEdge(from: string, names: string[]): fc.Arbitrary<Json> {
  return target(names).map((to) => ({ from, to }));
}

/** `from → [a, b]`: two or three nodes in parallel. */
export function fanOutEdge(from: string, names: string[]): fc.Arbitrary<Json> {
  if (names.length < 2) return plainEdge(from, names);
  return fc
    .uniqueArray(fc.constantFrom(...names), { minLength: 2, maxLength: 3 })
    .map((to) => ({ from, to }));
}

/** `route`: 1–3 cases over the state, and mostly a `default`. */
export function routeEdge(from: string, names: string[], s: State): fc.Arbitrary<Json> {
  return fc
    .tuple(
      fc.array(
        fc.record({ when: condition(s), to: target(names) }).map((c) => c as Json),
        { minLength: 1, maxLength: 3 },
      ),
      fc.option(fc.oneof(fc.constant("END"), target(names)), { nil: undefined, freq: 4 }),
    )
    .map(([cases, dflt]) => ({
      from,
      route: dflt === undefined ? cases : [...cases, { default: dflt }],
    }));
}

/** `map`: one run of a node per item of a literal list or a list channel, maybe `with` writes. */
export function mapEdge(from: string, names: string[], s: State): fc.Arbitrary<Json> {
  const lists = Object.entries(s)
    .filter(([, f]) => f.type === "array" || f.type === "messages")
    .map(([k]) => `state.${k}`);
  return fc
    .record({
      over: fc.constantFrom("[1, 2]", "['a', 'b']", "[]", ...lists),
      to: fc.constantFrom(...names),
      with: fc.option(writes(s, ["${{ item }}", "${{ string(item) }}"]), { nil: undefined }),
    })
    .map((m) => ({ from, map: withoutUndefined(m) as Json }));
}

/** A join: `from: [a, b]` waits for all of them. */
export function joinEdge(names: string[]): fc.Arbitrary<Json> {
  return fc
    .tuple(fc.uniqueArray(fc.constantFrom(...names), { minLength: 2, maxLength: 3 }), target(names))
    .map(([from, to]) => ({ from, to }));
}

/** The edges leaving one node: mostly one, sometimes two (two routes: class 6), rarely none. */
function edgesFrom(from: string, names: string[], s: State): fc.Arbitrary<Json[]> {
  const one = fc.oneof(
    { weight: 4, arbitrary: plainEdge(from, names) },
    { weight: 3, arbitrary: routeEdge(from, names, s) },
    fanOutEdge(from, names),
    mapEdge(from, names, s),
  );
  return fc.oneof(
    { weight: 10, arbitrary: one.map((e) => [e]) },
    fc.tuple(one, one),
    fc.constant<Json[]>([]),
  );
}

/**
 * Hazard: a cycle of static edges through 1–3 nodes (their own edges replaced). Its exit: none;
 * a static edge to END beside the cycle's (`step → END` and `step → step`: both run, so the loop
 * never ends); a route back or out (a loop on the data, not a static cycle); or a pause before
 * its first node each round (`interrupts.before`).
 */
interface Loop {
  nodes: string[];
  exit: "none" | "static-end" | "route" | "interrupt";
  when: string;
}

function staticLoop(names: string[], s: State): fc.Arbitrary<Loop> {
  return fc.record({
    nodes: fc.uniqueArray(fc.constantFrom(...names), {
      minLength: 1,
      maxLength: Math.min(3, names.length),
    }),
    exit: fc.constantFrom<Loop["exit"]>("none", "static-end", "route", "interrupt"),
    when: condition(s),
  });
}

function loopEdges({ nodes, exit, when }: Loop): Json[] {
  const last = nodes.at(-1)!;
  const inner = nodes.slice(0, -1).map((n, i) => ({ from: n, to: nodes[i + 1]! }));
  if (exit === "route")
    return [...inner, { from: last, route: [{ when, to: "END" }, { default: nodes[0]! }] }];
  const back = { from: last, to: nodes[0]! };
  return exit === "static-end" ? [...inner, back, { from: last, to: "END" }] : [...inner, back];
}

/**
 * Hazard: a node that fails (the `fail` function or tool) and writes a channel from its
 * `on_error`, fanned out from START beside a `set` node writing the same channel in that step.
 */
interface Clash {
  pair: string[];
  channel: string;
  failing: "function" | "tool";
  goto: string;
  onErrorValue: Json;
  setValue: Json;
}

function onErrorClash(names: string[], s: State): fc.Arbitrary<Clash> {
  return fc.constantFrom(...Object.keys(s)).chain((channel) =>
    fc.record({
      pair: fc.uniqueArray(fc.constantFrom(...names), { minLength: 2, maxLength: 2 }),
      channel: fc.constant(channel),
      failing: fc.constantFrom<Clash["failing"]>("function", "tool"),
      goto: fc.constantFrom("END", ...names),
      onErrorValue: fc.oneof(
        template(s, s[channel]!.type as string),
        fc.constant("${{ error.message }}"),
      ),
      setValue: template(s, s[channel]!.type as string),
    }),
  );
}

function clashNodes(c: Clash): Record<string, Field> {
  const [failing, setter] = c.pair as [string, string];
  const onError = { goto: c.goto, write: { [c.channel]: c.onErrorValue } };
  const body: Field =
    c.failing === "function"
      ? { kind: "function", module: "../fns.mjs", export: "fail", writes: [] }
      : { kind: "tool", tool: "fail", args: { text: "hi" } };
  return {
    [failing]: { ...body, on_error: onError },
    [setter]: { kind: "set", values: { [c.channel]: c.setValue } },
  };
}

/** A whole graph: state, nodes, edges from START and from each node, maybe joins and a subgraph. */
function graph(
  name: string,
  child: { file: string; state: State } | undefined,
  hazard: number,
): fc.Arbitrary<Spec> {
  return stateOf(hazard).chain((s) =>
    fc.uniqueArray(fc.constantFrom(...NODES), { minLength: 1, maxLength: 4 }).chain((names) => {
      const kinds = names.map((_, i) =>
        child && i === names.length - 1
          ? subgraphNode(s, child.file, child.state)
          : node(s, hazard).chain((body) =>
              onError(s, names).map((e) => withoutUndefined({ ...body, on_error: e }) as Field),
            ),
      );
      // The subgraph node keeps its body: hazards rewrite the others.
      const plain = child ? names.slice(0, -1) : names;
      const none = fc.constant(undefined);
      return fc
        .record({
          nodes: fc.tuple(...kinds),
          start: fc.oneof(
            { weight: 8, arbitrary: plainEdge("START", names) },
            fanOutEdge("START", names),
            routeEdge("START", names, s),
          ),
          out: fc.tuple(...names.map((n) => edgesFrom(n, names, s))),
          joins: names.length > 2 ? fc.array(joinEdge(names), { maxLength: 1 }) : fc.constant([]),
          recursion: fc.option(fc.integer({ min: 3, max: 12 }), { nil: undefined }),
          loop: weighted([10, none], [hazard, staticLoop(names, s)]),
          clash: plain.length < 2 ? none : weighted([10, none], [hazard, onErrorClash(plain, s)]),
        })
        .map(({ nodes, start, out, joins, recursion, loop, clash }) => {
          const bodies: Record<string, Field> = {
            ...Object.fromEntries(names.map((n, i) => [n, nodes[i]!])),
            ...(clash ? clashNodes(clash) : {}),
          };
          const looped = new Set(loop?.nodes);
          const edges = [
            clash ? { from: "START", to: clash.pair } : start,
            ...names.flatMap((n, i) => (looped.has(n) ? [] : out[i]!)),
            ...(loop ? loopEdges(loop) : []),
            ...joins,
          ];
          const used = JSON.stringify(bodies);
          const modelled = /"kind":"(llm|agent)"/.test(used);
          const tooled = /"kind":"(llm|agent|tool|tools)"/.test(used);
          return withoutUndefined({
            version: 1,
            name,
            state: s,
            models: modelled ? { default: { model: "scripted:fuzz" } } : undefined,
            tools: tooled ? TOOLS : undefined,
            nodes: bodies,
            edges,
            interrupts: loop?.exit === "interrupt" ? { before: [loop.nodes[0]!] } : undefined,
            limits: recursion === undefined ? undefined : { recursion },
          }) as Spec;
        });
    }),
  );
}

/** The tools of the fixed project's tools.mjs, declared in each spec whose nodes may use them. */
const TOOLS: Json = {
  echo: {
    module: "../tools.mjs",
    description: "Echo a text.",
    schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  },
  fail: {
    module: "../tools.mjs",
    description: "Always fails.",
    schema: { type: "object", properties: { text: { type: "string" } } },
  },
};

/** One model turn of the scripted model: text, a structured answer, a tool call, or a failure. */
export const turn: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom("an answer", "high"),
  fc.constantFrom({ structured: { label: "low", n: 1 } }, { structured: { label: 3 } }),
  fc.constant({ tool_calls: [{ name: "echo", args: { text: "hi" } }] }),
  fc.constant({ tool_calls: [{ name: "structured_output", args: { label: "x" } }] }),
  fc.constant({ error: "deliberate model failure" }),
);

/**
 * Hazard: the child declares some of the parent's channels again (a subgraph without `input` or
 * `output` passes them both ways): with the same field, another type, `any`, or — for `messages` —
 * an object; with a default, so that a value crosses.
 */
function sharedChannels(parent: State): fc.Arbitrary<State> {
  const variant = (field: Field): fc.Arbitrary<Field> =>
    fc.oneof(
      fc.constant(field),
      fc
        .constantFrom(...TYPES)
        .chain((t) => literalOf(t).map((d) => ({ type: t, default: d }) as Field)),
      fc.constant<Field>({ type: "any", default: { k: "v" } }),
      fc.constant<Field>({ type: "object", default: { k: "v" } }),
    );
  return fc
    .subarray(Object.keys(parent), { minLength: 1 })
    .chain((keys) =>
      fc
        .tuple(...keys.map((k) => variant(parent[k]!)))
        .map((fields) => Object.fromEntries(keys.map((k, i) => [k, fields[i]!]))),
    );
}

/**
 * A case: a parent spec, maybe with one subgraph node whose child is a generated spec of its own.
 * `hazard` weighs the shapes of issue 24 (see the top of this file); 0 leaves them out.
 */
export function fuzzCaseOf(hazard: number): fc.Arbitrary<FuzzCase> {
  return fc
    .option(graph("child", undefined, hazard), { nil: undefined, freq: 3 })
    .chain((childSpec) =>
      fc.record({
        spec: graph(
          "parent",
          childSpec && { file: "child.yaml", state: childSpec.state as unknown as State },
          hazard,
        ),
        children: fc.constant<Record<string, Spec>>(childSpec ? { "child.yaml": childSpec } : {}),
        script: fc.array(turn, { maxLength: 6 }),
        resumes: fc.array(fc.constantFrom<Json>("yes", 1, { decisions: [{ type: "approve" }] }), {
          maxLength: 2,
        }),
      }),
    )
    .chain((c) => {
      const childSpec = c.children["child.yaml"];
      if (!childSpec || hazard === 0) return fc.constant(c);
      return weighted(
        [10, fc.constant(undefined)],
        [hazard, sharedChannels(c.spec.state as State)],
      ).map((shared) =>
        shared === undefined
          ? c
          : {
              ...c,
              children: {
                "child.yaml": {
                  ...childSpec,
                  state: { ...(childSpec.state as State), ...shared },
                },
              },
            },
      );
    });
}

/** The generator with issue 24's hazards at weight 3. */
export const fuzzCase: fc.Arbitrary<FuzzCase> = fuzzCaseOf(3);

/** `fc.oneof` over [weight, arbitrary] pairs, leaving out those of weight 0. */
function weighted<T>(...options: [number, fc.Arbitrary<T>][]): fc.Arbitrary<T> {
  const kept = options.filter(([w]) => w > 0);
  return fc.oneof(...kept.map(([weight, arbitrary]) => ({ weight, arbitrary })));
}

/** The object without its undefined properties (YAML would print them as null). */
function withoutUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
