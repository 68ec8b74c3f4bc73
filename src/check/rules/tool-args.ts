import { listNames, suggest } from "../../diagnostics/suggest.js";
import { ExprEnvironment } from "../../expr/index.js";
import { schemaProblems } from "../../json-schema/schema-problems.js";
import { argumentLabel, validatorFor, valueProblems } from "../../json-schema/value-problems.js";
import { isObject } from "../../spec/data.js";
import type { JsonSchema } from "../../spec/spec-types.generated.js";
import type { CheckContext } from "../check-context.js";
import type { Rule } from "../rule.js";
import { toolInfo } from "../tool-info.js";
import {
  type ArgumentSite,
  checkPart,
  checkTypedArgument,
  hasTemplate,
} from "../typed-arguments.js";

type Obj = Record<string, unknown>;

interface ArgumentShape {
  schema: Obj;
  properties: Obj;
  required: string[];
  /**
   * Whether undeclared arguments are mistakes. A tool's schema lists what the tool reads (zod's
   * objects strip the rest), so unless the schema opens itself explicitly, an unknown key is a typo.
   */
  closed: boolean;
}

function argumentShape(schema: JsonSchema | undefined): ArgumentShape | undefined {
  if (!isObject(schema) || !isObject(schema.properties)) return undefined;
  const extra = schema.additionalProperties;
  return {
    schema,
    properties: schema.properties,
    required: Array.isArray(schema.required)
      ? schema.required.filter((r): r is string => typeof r === "string")
      : [],
    closed: (extra === undefined || extra === false) && schema.patternProperties === undefined,
  };
}

/** Where an argument's values are checked: the spec's expression scope there and the schema's root. */
function argumentSite(
  ctx: CheckContext,
  shape: ArgumentShape,
  base: (string | number)[],
  where: string,
): ArgumentSite {
  const env = ctx.memo("tool-args:env", () =>
    ExprEnvironment.for({ state: ctx.spec.state, context: ctx.spec.context }),
  );
  return { ctx, env, scope: env.scope(where), root: shape.schema, base };
}

/** The schema without `required`: literal arguments are checked one by one, missing ones separately. */
const relaxed = new WeakMap<Obj, Obj>();
function withoutRequired(schema: Obj): Obj {
  let out = relaxed.get(schema);
  if (!out) {
    const { required: _required, ...rest } = schema;
    out = rest;
    relaxed.set(schema, out);
  }
  return out;
}

/** "`a`, `b` and `c`". */
const listAll = (names: string[]): string =>
  listNames(names, 12).replace(/ or (?=[^,]*$)/, " and ");

async function checkBind(ctx: CheckContext, tool: string): Promise<void> {
  const bind = (ctx.spec.tools?.[tool] as { bind?: unknown } | undefined)?.bind;
  if (!isObject(bind)) return;
  const shape = argumentShape((await toolInfo(ctx, tool))?.jsonSchema);
  if (!shape) return;
  const site = argumentSite(
    ctx,
    shape,
    ["tools", tool, "bind"],
    `the \`bind\` of tool \`${tool}\``,
  );
  const names = Object.keys(shape.properties);
  for (const [key, value] of Object.entries(bind)) {
    if (Object.hasOwn(shape.properties, key)) {
      checkPart(site, [key], value, shape.properties[key]);
      continue;
    }
    if (!shape.closed) continue;
    ctx.report("tool-args", ["tools", tool, "bind", key], {
      message: `\`bind\` sets \`${key}\`, which is not an argument of tool \`${tool}\``,
      hint: suggest(key, names) ?? `its arguments: ${listAll(names)}`,
      at: "key",
    });
  }
}

async function checkNode(ctx: CheckContext, name: string, node: Obj): Promise<void> {
  const tool = node.tool;
  if (typeof tool !== "string") return;
  // Declared in `tools`, or taken from an MCP server (undefined otherwise: unknown-tool's to say).
  const info = await toolInfo(ctx, tool);
  const shape = argumentShape(info?.jsonSchema);
  if (!info || !shape) return;
  const args = isObject(node.args) ? node.args : {};
  const bound = new Set(info.bound);
  const open = Object.keys(shape.properties).filter((k) => !bound.has(k));
  const literal: Obj = {};
  const typed: [string, unknown][] = [];
  for (const [key, value] of Object.entries(args)) {
    const at = ["nodes", name, "args", key];
    if (bound.has(key)) {
      ctx.report("tool-args", at, {
        message: `argument \`${key}\` is filled by tool \`${tool}\`'s \`bind\``,
        hint: "remove it here: `bind` decides its value",
        at: "key",
      });
    } else if (!Object.hasOwn(shape.properties, key)) {
      if (!shape.closed) continue;
      ctx.report("tool-args", at, {
        message: `tool \`${tool}\` has no argument \`${key}\``,
        hint:
          suggest(key, open) ??
          (open.length ? `its arguments: ${listAll(open)}` : "it takes no arguments"),
        at: "key",
      });
    } else if (!hasTemplate(value)) {
      literal[key] = value;
    } else {
      typed.push([key, value]);
    }
  }
  if (typed.length) {
    const site = argumentSite(
      ctx,
      shape,
      ["nodes", name, "args"],
      `the \`args\` of node \`${name}\``,
    );
    for (const [key, value] of typed) checkTypedArgument(site, [key], value, shape.properties[key]);
  }
  const missing = shape.required.filter((r) => !Object.hasOwn(args, r) && !bound.has(r));
  for (const key of missing) {
    const hasArgs = isObject(node.args);
    ctx.report("tool-args", hasArgs ? ["nodes", name, "args"] : ["nodes", name], {
      message: `tool \`${tool}\` needs argument \`${key}\``,
      hint: hasArgs ? `add \`${key}\` to \`args\`` : `add \`args: { ${key}: ... }\``,
      at: hasArgs ? undefined : "key",
    });
  }
  if (!Object.keys(literal).length) return;
  const validate = validatorFor(withoutRequired(shape.schema));
  if (!validate) return;
  for (const p of valueProblems(validate, literal, argumentLabel)) {
    ctx.report("tool-args", ["nodes", name, "args", ...p.path], {
      message: p.message,
      hint: p.hint,
      replacement: p.replacement,
      at: p.at,
    });
  }
}

/** A plain function's `schema` in the spec is the arguments' JSON Schema: it must be a valid one. */
function checkDeclaredSchema(ctx: CheckContext, tool: string): void {
  const schema = (ctx.spec.tools?.[tool] as { schema?: unknown } | undefined)?.schema;
  if (!isObject(schema)) return;
  for (const p of schemaProblems(schema)) {
    ctx.report("tool-args", ["tools", tool, "schema", ...p.path], {
      message: p.message,
      hint: p.hint,
      replacement: p.replacement,
      at: p.at,
    });
  }
}

/** A tool node's `args`, and a tool's `bind` and declared `schema`, against the tool's arguments. */
export const toolArgs: Rule = {
  name: "tool-args",
  async check(ctx) {
    for (const tool of Object.keys(isObject(ctx.spec.tools) ? ctx.spec.tools : {})) {
      checkDeclaredSchema(ctx, tool);
      await checkBind(ctx, tool);
    }
    for (const [name, node] of Object.entries(ctx.spec.nodes ?? {})) {
      if (isObject(node) && node.kind === "tool") await checkNode(ctx, name, node);
    }
  },
};
