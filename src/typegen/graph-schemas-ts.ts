/**
 * The JSON Schemas of one graph's TypeScript types: its state (what a run holds), update (what a
 * write may be, by reducer), input, output, context, and per node that can pause, what the pause
 * shows and what answers it. `graphspec types` turns each into TypeScript with
 * json-schema-to-typescript; `tsType` carries what JSON Schema cannot say (chat messages,
 * LangChain's approval request).
 */
import { ExprEnvironment } from "../expr/index.js";
import { graphJsonSchemas } from "../json-schema/graph-schemas.js";
import type { StateField } from "../spec/spec-types.generated.js";
import type { SpecTree } from "./child-specs.js";
import { exprTypeSchema } from "./expr-schema.js";

/** The namespace the generated module imports graphspec as. */
export const NS = "graphspec";

export interface GraphTypeSchemas {
  state: Record<string, unknown>;
  update: Record<string, unknown>;
  input: Record<string, unknown>;
  output: Record<string, unknown>;
  context: Record<string, unknown>;
  interrupts: Record<string, unknown>;
}

type Schema = Record<string, unknown>;

const closed = (properties: Record<string, Schema>, required: string[]): Schema => ({
  type: "object",
  properties,
  ...(required.length ? { required } : {}),
  additionalProperties: false,
});

/** Schema keywords whose value is one schema, or a map or list of schemas. */
const ONE = ["items", "additionalProperties", "not", "if", "then", "else", "contains"];
const MAP = ["properties", "patternProperties", "definitions", "$defs"];
const LIST = ["anyOf", "oneOf", "allOf", "prefixItems"];

/**
 * A copy without `title`s: json-schema-to-typescript names a declaration after each, and two
 * types of one module (a state field and an input field) would then declare the same name.
 */
export function withoutTitles(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutTitles);
  if (!schema || typeof schema !== "object") return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === "title") continue;
    if (ONE.includes(k)) out[k] = withoutTitles(v);
    else if (MAP.includes(k) && v && typeof v === "object" && !Array.isArray(v))
      out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, withoutTitles(s)]));
    else if (LIST.includes(k) && Array.isArray(v)) out[k] = v.map(withoutTitles);
    else out[k] = v;
  }
  return out;
}

const kindOf = (field: StateField): string =>
  typeof field.reducer === "string"
    ? field.reducer
    : field.reducer
      ? "custom"
      : field.type === "messages"
        ? "messages"
        : "replace";

/** What a write to the channel may be (docs/spec.md "Reducers"). */
function updateSchema(field: StateField, value: Schema): Schema {
  const described = field.description ? { description: field.description } : {};
  switch (kindOf(field)) {
    case "messages":
      return {
        tsType: `${NS}.GraphMessageInput | ${NS}.GraphMessageInput[]`,
        ...described,
      };
    case "append":
    case "union": {
      const item = (value.items as Schema | undefined) ?? {};
      return { anyOf: [item, { type: "array", items: item }], ...described };
    }
    case "merge": {
      const { required: _required, ...some } = value;
      return some;
    }
    case "sum":
    case "max":
    case "min":
      return { type: field.type, ...described };
    case "custom":
      return { ...described };
    default:
      return value;
  }
}

/** The schema of a payload as the run shows it: its templates evaluated, as their types say. */
function payloadSchema(value: unknown, env: ExprEnvironment, where: string): Schema {
  if (typeof value === "string") {
    if (!value.includes("${{")) return { type: "string" };
    const checked = env.checkTemplate(value, env.scope(where));
    return checked.type ? exprTypeSchema(checked.type) : {};
  }
  if (value === null) return { type: "null" };
  if (typeof value === "number") return { type: "number" };
  if (typeof value === "boolean") return { type: "boolean" };
  if (Array.isArray(value)) {
    return {
      type: "array",
      items: value.map((v) => payloadSchema(v, env, where)),
      minItems: value.length,
      maxItems: value.length,
    };
  }
  if (typeof value === "object") {
    const entries = Object.entries(value);
    return closed(
      Object.fromEntries(entries.map(([k, v]) => [k, payloadSchema(v, env, where)])),
      entries.map(([k]) => k),
    );
  }
  return {};
}

const literalUnion = (names: readonly string[]): string =>
  names.length ? names.map((n) => JSON.stringify(n)).join(" | ") : "never";

/** Per node that can pause: `{ payload, resume }`. */
function interruptSchemas(tree: SpecTree): Schema {
  const { spec } = tree;
  const env = ExprEnvironment.for({ state: spec.state, context: spec.context });
  const nodes: Record<string, Schema> = {};
  for (const [name, node] of Object.entries(spec.nodes ?? {})) {
    const n = node as Record<string, unknown> & { kind?: string };
    if (n.kind === "interrupt") {
      const shown = Object.hasOwn(n, "payload")
        ? payloadSchema(n.payload, env, `the \`payload\` of node \`${name}\``)
        : { type: "null" };
      // A refused resume value pauses again, showing the payload with the reason (docs/spec.md).
      const payload = n.schema
        ? {
            anyOf: [
              shown,
              closed(
                {
                  payload: shown,
                  error: closed(
                    { message: { type: "string" }, hint: { type: "string" }, resume: {} },
                    ["message", "resume"],
                  ),
                },
                ["payload", "error"],
              ),
            ],
          }
        : shown;
      nodes[name] = closed(
        { payload, resume: (withoutTitles(n.schema) as Schema | undefined) ?? {} },
        ["payload", "resume"],
      );
    } else if (n.kind === "agent" && Array.isArray(n.approve) && n.approve.length) {
      const tools = literalUnion(n.approve as string[]);
      nodes[name] = closed(
        {
          payload: { tsType: `${NS}.ToolApprovalRequest<${tools}>` },
          resume: { tsType: `${NS}.ToolApprovalAnswer<${tools}>` },
        },
        ["payload", "resume"],
      );
    } else if (n.kind === "subgraph") {
      // The child's pauses show under this node, as the child shows them.
      const child = tree.children.get(name);
      if (!child) {
        nodes[name] = closed({ payload: {}, resume: {} }, ["payload", "resume"]);
        continue;
      }
      const inner = Object.values(
        (interruptSchemas(child).properties ?? {}) as Record<string, Schema>,
      ).map((s) => s.properties as { payload: Schema; resume: Schema });
      if (inner.length === 0) continue;
      const either = (list: Schema[]) => (list.length === 1 ? list[0]! : { anyOf: list });
      nodes[name] = closed(
        {
          payload: either(inner.map((i) => i.payload)),
          resume: either(inner.map((i) => i.resume)),
        },
        ["payload", "resume"],
      );
    }
  }
  return closed(nodes, Object.keys(nodes));
}

export function graphTypeSchemas(tree: SpecTree): GraphTypeSchemas {
  const { spec } = tree;
  const declared = graphJsonSchemas(spec);
  const fields = Object.entries(spec.state ?? {});
  const declaredValue = (name: string): Schema =>
    withoutTitles((declared.state.properties as Record<string, Schema>)[name]) as Schema;
  const stateProperty = (name: string, field: StateField): Schema =>
    field.type === "messages"
      ? {
          tsType: `${NS}.GraphMessage[]`,
          ...(field.description ? { description: field.description } : {}),
        }
      : declaredValue(name);
  // A channel with a default (and any `messages` channel) always has a value; others may not.
  const alwaysThere = fields
    .filter(([, f]) => f.type === "messages" || Object.hasOwn(f, "default"))
    .map(([k]) => k);
  const project = (keys: readonly string[] | undefined, schemaOf: (k: string) => Schema) => {
    const names = keys ?? fields.map(([k]) => k);
    return closed(
      Object.fromEntries(names.map((k) => [k, schemaOf(k)])),
      names.filter((k) => alwaysThere.includes(k)),
    );
  };
  const byName = new Map(fields);
  const update = (k: string) => updateSchema(byName.get(k)!, declaredValue(k));
  const state = (k: string) => stateProperty(k, byName.get(k)!);
  const updates = project(undefined, update);
  const { required: _all, ...anyUpdate } = updates;
  const input = project(spec.input, update);
  const { required: _none, ...anyInput } = input;
  const context = withoutTitles(declared.context) as Schema;
  return {
    state: project(undefined, state),
    // A write, like a run's input, gives any of the channels.
    update: anyUpdate,
    input: anyInput,
    output: project(spec.output, state),
    context: { ...context, additionalProperties: false },
    interrupts: interruptSchemas(tree),
  };
}
