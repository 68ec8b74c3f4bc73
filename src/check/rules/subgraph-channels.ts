import { didYouMean, listNames } from "../../diagnostics/suggest.js";
import {
  ExprEnvironment,
  type ExprType,
  formatType,
  isAssignable,
  isTemplate,
  T,
  writeType,
} from "../../expr/index.js";
import { asObject as obj } from "../../spec/data.js";
import { describeType } from "../expressions/finding.js";
import { sharedOf } from "../module-refs.js";
import type { Rule } from "../rule.js";
import { loadedChildren } from "../subgraphs.js";

type Obj = Record<string, unknown>;

/** The type of a literal `input` value; undefined where a list or map is left to the child. */
function literalType(value: unknown): ExprType | undefined {
  if (typeof value === "string") return T.string;
  if (typeof value === "boolean") return T.bool;
  if (typeof value === "number") return Number.isInteger(value) ? T.int : T.double;
  return undefined;
}

const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined;

/**
 * What crosses into and out of a subgraph must fit: every `input` key is a channel the child takes
 * (compile refuses the spec otherwise), and every value crossing — an `input` value, or a channel
 * both declare and copied without `input` / `output` — has a type the receiving channel accepts
 * (otherwise the first run fails on a value the spec itself chose).
 */
export const subgraphChannels: Rule = {
  name: "subgraph-channels",
  async check(ctx) {
    const children = await loadedChildren(ctx, sharedOf(ctx));
    if (children.length === 0) return;
    const parentState = obj(ctx.spec.state) ?? {};
    const parent = ExprEnvironment.for({ state: ctx.spec.state, context: ctx.spec.context });
    for (const { path, child } of children) {
      const name = String(path[1]);
      const node = obj(ctx.spec.nodes?.[name]) ?? {};
      const spec = (child.doc.data ?? {}) as Obj;
      const childState = obj(spec.state) ?? {};
      const env = ExprEnvironment.for({ state: spec.state, context: spec.context });
      const file = `\`${child.doc.file}\``;
      const takes = strings(spec.input) ?? Object.keys(childState);
      const gives = strings(spec.output) ?? Object.keys(childState);
      /** What the child's channel `key` accepts as a write (its reducer's input). */
      const childAccepts = (key: string) =>
        writeType(env.state.fields[key] ?? T.dyn, childState[key]);
      const input = obj(node.input);

      for (const [key, value] of Object.entries(input ?? {})) {
        const at = ["nodes", name, "input", key];
        if (!Object.hasOwn(childState, key)) {
          ctx.report("subgraph-channels", at, {
            message: `node \`${name}\` passes \`${key}\` to the subgraph ${file}, which has no such state channel`,
            hint:
              didYouMean(key, takes) ??
              `the channels it takes: ${listNames(takes) || "none (its `input` list is empty)"}`,
            at: "key",
          });
          continue;
        }
        if (!takes.includes(key)) {
          ctx.report("subgraph-channels", at, {
            message: `node \`${name}\` passes \`${key}\` to the subgraph ${file}, which does not take it as input (its \`input\` list leaves it out)`,
            hint: `add \`${key}\` to the child's \`input\` list, or drop it here; it takes ${listNames(takes) || "nothing"}`,
            at: "key",
          });
          continue;
        }
        const accepts = childAccepts(key);
        let type: ExprType | undefined;
        if (typeof value === "string" && isTemplate(value)) {
          // Problems inside the template are the expression rules'; only a clean one has a type.
          const r = parent.checkTemplate(value, parent.scope(`the \`input\` of node \`${name}\``));
          type = r.problems.length ? undefined : r.type;
        } else type = literalType(value);
        if (type === undefined || isAssignable(type, accepts, { nullable: true })) continue;
        ctx.report("subgraph-channels", at, {
          message: `node \`${name}\` passes \`${formatType(type)}\` as \`${key}\` to the subgraph ${file}, whose \`${key}\` takes ${describeType(accepts)}`,
          hint: "convert the value (`string(…)`, `int(…)`, `[…]`), or change the child's channel type",
        });
      }

      // Without `input`, every channel both declare goes in as it is; without `output`, comes back.
      const shared = (keys: string[]) => keys.filter((k) => Object.hasOwn(parentState, k));
      const crossings: [string, ExprType, ExprType, string][] = [];
      if (input === undefined) {
        for (const k of shared(takes)) {
          crossings.push([k, parent.state.fields[k] ?? T.dyn, childAccepts(k), "into"]);
        }
      }
      if (node.output === undefined) {
        for (const k of shared(gives)) {
          const into = writeType(parent.state.fields[k] ?? T.dyn, parentState[k]);
          crossings.push([k, env.state.fields[k] ?? T.dyn, into, "back from"]);
        }
      }
      for (const [k, from, to, way] of crossings) {
        if (isAssignable(from, to, { nullable: true })) continue;
        ctx.report("subgraph-channels", path, {
          message: `channel \`${k}\` is copied ${way} the subgraph ${file} as \`${formatType(from)}\`, and the receiving \`${k}\` takes ${describeType(to)}`,
          hint: `give \`${k}\` the same type in both specs, or map it explicitly with \`${way === "into" ? "input" : "output"}\` on node \`${name}\``,
        });
      }
    }
  },
};
