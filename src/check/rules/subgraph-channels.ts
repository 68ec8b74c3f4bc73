import { didYouMean, listNames, suggest } from "../../diagnostics/suggest.js";
import {
  ExprEnvironment,
  type ExprType,
  isAssignable,
  isTemplate,
  T,
  writeType,
} from "../../expr/index.js";
import { asObject as obj } from "../../spec/data.js";
import type { Path } from "../../spec/source-map.js";
import {
  bareRead,
  literalType,
  mapIntoMessages,
  mapNote,
  reducerNote,
  shown,
} from "../crossing-types.js";
import { describeType } from "../expressions/finding.js";
import { sharedOf } from "../module-refs.js";
import type { Rule } from "../rule.js";
import { loadedChildren } from "../subgraphs.js";

type Obj = Record<string, unknown>;

const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined;

/** One side of a crossing: its declarations and expression environment. */
interface Side {
  state: Obj;
  env: ExprEnvironment;
}

/** The declared type of channel `key` on a side, and what a write to it accepts (through its reducer). */
const typeOf = (side: Side, key: string): ExprType => side.env.state.fields[key] ?? T.dyn;
const accepts = (side: Side, key: string): ExprType =>
  writeType(typeOf(side, key), side.state[key]);

/**
 * Whether a value of type `from` fits channel `key` of `to`; `whole` when the value is a channel
 * of the other side read whole (copied by default, or a bare `${{ state.k }}`), whose declared
 * `object` type promises no message fields.
 */
const fits = (from: ExprType, to: Side, key: string, whole: boolean): boolean =>
  isAssignable(from, accepts(to, key), { nullable: true }) &&
  !(whole && mapIntoMessages(from, to.state[key]));

/**
 * What crosses into and out of a subgraph must fit: every `input` key is a channel the child takes
 * (compile refuses the spec otherwise), and every value crossing — an `input` value, an `output`
 * value (typed by the child's final state), or a channel both declare and copied without `input` /
 * `output` — has a type the receiving channel and its reducer accept (otherwise the first run fails
 * on a value the spec itself chose).
 */
export const subgraphChannels: Rule = {
  name: "subgraph-channels",
  async check(ctx) {
    const children = await loadedChildren(ctx, sharedOf(ctx));
    if (children.length === 0) return;
    const parent: Side = {
      state: obj(ctx.spec.state) ?? {},
      env: ExprEnvironment.for({ state: ctx.spec.state, context: ctx.spec.context }),
    };
    for (const { path, child } of children) {
      const name = String(path[1]);
      const node = obj(ctx.spec.nodes?.[name]) ?? {};
      const spec = (child.doc.data ?? {}) as Obj;
      const kid: Side = {
        state: obj(spec.state) ?? {},
        env: ExprEnvironment.for({ state: spec.state, context: spec.context }),
      };
      const file = `\`${child.doc.file}\``;
      const takes = strings(spec.input) ?? Object.keys(kid.state);
      const gives = strings(spec.output) ?? Object.keys(kid.state);
      const input = obj(node.input);
      const output = obj(node.output);
      const misfit = (at: Path, message: string, hint: string) =>
        ctx.report("subgraph-channels", at, { message, hint });

      for (const [key, value] of Object.entries(input ?? {})) {
        const at = ["nodes", name, "input", key];
        if (!Object.hasOwn(kid.state, key)) {
          ctx.report("subgraph-channels", at, {
            message: `node \`${name}\` passes \`${key}\` to the subgraph ${file}, which has no such state channel`,
            hint:
              suggest(key, takes) ??
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
        const read = bareRead(value, "state");
        const whole = read !== undefined && Object.hasOwn(parent.state, read);
        let type: ExprType | undefined;
        if (whole) type = typeOf(parent, read);
        else if (typeof value === "string" && isTemplate(value)) {
          // Problems inside the template are the expression rules'; only a clean one has a type.
          const where = parent.env.scope(`the \`input\` of node \`${name}\``);
          const r = parent.env.checkTemplate(value, where);
          type = r.problems.length ? undefined : r.type;
        } else type = literalType(value);
        if (type === undefined || fits(type, kid, key, whole)) continue;
        misfit(
          at,
          `node \`${name}\` passes ${shown(type)} as \`${key}\` to the subgraph ${file}, whose \`${key}\`${reducerNote(kid.state[key])} takes ${describeType(accepts(kid, key))}${whole ? mapNote(type, kid.state[key]) : ""}`,
          "convert the value (`string(…)`, `int(…)`, `[…]`), or change the child's channel type",
        );
      }

      // `output` values are templates over the child's final state: its `output` channels.
      const final = T.record(
        "Output",
        Object.fromEntries(gives.map((k) => [k, typeOf(kid, k)] as const)),
      );
      for (const [key, value] of Object.entries(output ?? {})) {
        if (!Object.hasOwn(parent.state, key) || typeof value !== "string" || !isTemplate(value))
          continue;
        const at = ["nodes", name, "output", key];
        const where = `the \`output\` of node \`${name}\``;
        // Unless the template is clean with `output` unknown, the expression rules report it.
        if (
          parent.env.checkTemplate(value, parent.env.scope(where, { output: T.dyn })).problems
            .length
        )
          continue;
        const read = bareRead(value, "output");
        const whole = read !== undefined && Object.hasOwn(final.fields, read);
        const r = parent.env.checkTemplate(value, parent.env.scope(where, { output: final }));
        if (r.problems.length) {
          const p = r.problems[0]!;
          misfit(
            at,
            `${p.message}: the final state of the subgraph ${file} has ${gives.length ? `only ${gives.map((g) => `\`${g}\``).join(", ")}` : "no channels"}`,
            (p.suggest && didYouMean(p.suggest.word, p.suggest.candidates)) ??
              `read a channel the child gives, or add it to the child's \`output\` list`,
          );
          continue;
        }
        const type = whole ? typeOf(kid, read) : r.type;
        if (type === undefined || fits(type, parent, key, whole)) continue;
        misfit(
          at,
          `node \`${name}\` copies ${shown(type)} back from the subgraph ${file} into \`${key}\`${reducerNote(parent.state[key])}, which takes ${describeType(accepts(parent, key))}${whole ? mapNote(type, parent.state[key]) : ""}`,
          `convert the value, or give \`${key}\` and the child's channel the same type`,
        );
      }

      // Without `input`, every channel both declare goes in as it is; without `output`, comes back.
      const shared = (keys: string[]) => keys.filter((k) => Object.hasOwn(parent.state, k));
      const crossings: [string, Side, Side, string][] = [];
      if (input === undefined)
        for (const k of shared(takes)) crossings.push([k, parent, kid, "into"]);
      if (node.output === undefined)
        for (const k of shared(gives)) crossings.push([k, kid, parent, "back from"]);
      for (const [k, from, to, way] of crossings) {
        const type = typeOf(from, k);
        if (fits(type, to, k, true)) continue;
        misfit(
          path,
          `channel \`${k}\` is copied ${way} the subgraph ${file} as ${shown(type)}, and the receiving \`${k}\`${reducerNote(to.state[k])} takes ${describeType(accepts(to, k))}${mapNote(type, to.state[k])}`,
          `give \`${k}\` the same type in both specs, or map it explicitly with \`${way === "into" ? "input" : "output"}\` on node \`${name}\``,
        );
      }
    }
  },
};
