/**
 * Declared tools as LangChain tools, named by their key in `tools:`. A LangChain tool export is
 * used as it is; a plain function becomes one with the spec's description and JSON Schema.
 * `bind` fills arguments from the state and context of the node that runs the tool, and hides
 * them from the schema the model sees (so a model never chooses `user_id`).
 */
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { isLangChainTool } from "../modules/index.js";
import { isObject } from "../spec/data.js";
import type { Tool } from "../spec/spec-types.generated.js";
import { activeNode } from "./active-node.js";
import { GraphspecRunError } from "./graphspec-run-error.js";
import { compileValue, type ValueCompiler } from "./values.js";

type JsonSchema = Record<string, unknown>;

/** The schema without the bound arguments: what the model is shown. */
function withoutBound(schema: JsonSchema, bound: readonly string[]): JsonSchema {
  if (!bound.length) return schema;
  const properties = { ...(isObject(schema.properties) ? schema.properties : {}) };
  for (const key of bound) delete properties[key];
  const required = Array.isArray(schema.required)
    ? schema.required.filter((k) => !bound.includes(String(k)))
    : undefined;
  // A model that sends a hidden argument anyway is not refused: the bound value replaces it (the
  // tool's own schema still checks the full arguments).
  const { additionalProperties: _strict, ...rest } = schema;
  return { ...rest, properties, ...(required ? { required } : {}) };
}

function argumentSchema(value: unknown, decl: Tool): JsonSchema {
  if (isLangChainTool(value)) {
    const schema = (value as { schema?: unknown }).schema;
    const json =
      isObject(schema) && !("_def" in schema) && !("_zod" in schema)
        ? schema
        : toJsonSchema(schema as never);
    const { $schema: _draft, ...rest } = json as JsonSchema;
    return rest;
  }
  const schema = "schema" in decl ? decl.schema : undefined;
  return (isObject(schema) ? schema : { type: "object", properties: {} }) as JsonSchema;
}

/**
 * The tool declared as `name`, ready for a model, a ToolNode or a direct call. `value` is the
 * loaded export of its module; `values` compiles its `bind` templates.
 */
export function buildTool(
  name: string,
  decl: Tool,
  value: unknown,
  values: ValueCompiler,
): StructuredToolInterface {
  const lcTool = isLangChainTool(value) ? (value as unknown as StructuredToolInterface) : undefined;
  const bound = isObject(decl.bind) ? Object.keys(decl.bind) : [];
  const description = decl.description ?? lcTool?.description ?? name;
  if (lcTool && !bound.length && lcTool.name === name && description === lcTool.description)
    return lcTool;

  const path = ["tools", name, "bind"];
  const bind = bound.length
    ? compileValue(values, path, decl.bind, values.expr.scope(`the \`bind\` of tool \`${name}\``))
    : undefined;
  const call = async (args: Record<string, unknown>, config: unknown): Promise<unknown> => {
    let full = args;
    if (bind) {
      const active = activeNode.getStore();
      if (!active) {
        throw new GraphspecRunError(
          "tool-error",
          `tool \`${name}\` was called outside a node, so its \`bind\` values cannot be computed`,
          {
            hint: "call bound tools from the graph's nodes",
          },
        );
      }
      full = {
        ...args,
        ...(bind({ state: active.vars.state, context: active.context }) as Record<string, unknown>),
      };
    }
    // The wrapper is the tool callers see; the inner call reports no events of its own (it would
    // show up as a second call of the same tool in streams and traces). What it writes with
    // `runtime.writer` is written as from the wrapper, whose callbacks a stream listens to.
    if (lcTool) {
      const outer = config as { writer?: ((chunk: unknown) => void) | null };
      const writer = outer?.writer;
      return lcTool.invoke(full, {
        ...(config as object),
        callbacks: [],
        ...(writer
          ? {
              writer: (chunk: unknown) =>
                AsyncLocalStorageProviderSingleton.runWithConfig(config as never, () =>
                  writer(chunk),
                ),
            }
          : {}),
      } as never);
    }
    return (value as (a: Record<string, unknown>) => unknown)(full);
  };
  const wrapped = tool(call, {
    name,
    description,
    schema: withoutBound(argumentSchema(value, decl), bound) as never,
  }) as unknown as StructuredToolInterface;
  if (bind) {
    // Bound before the call starts, so its events (progress, traces) show the arguments the tool
    // really runs with, not the ones a model invented.
    const applied = (args: unknown): unknown => {
      const active = activeNode.getStore();
      if (!active || !isObject(args)) return args; // `call` says why it cannot bind
      return {
        ...args,
        ...(bind({ state: active.vars.state, context: active.context }) as object),
      };
    };
    boundArguments.set(wrapped, applied);
    const invoke = wrapped.invoke.bind(wrapped);
    wrapped.invoke = ((input: unknown, config?: unknown) =>
      invoke(
        (isToolCall(input) ? { ...input, args: applied(input.args) } : applied(input)) as never,
        config as never,
      )) as typeof wrapped.invoke;
  }
  return wrapped;
}

const isToolCall = (v: unknown): v is { args: unknown } =>
  isObject(v) && v.type === "tool_call" && "args" in v;

/**
 * The arguments a bound tool runs with, given a model's: its `bind` values laid over them, from the
 * node that runs it. Absent for a tool without `bind`.
 */
export const boundArguments = new WeakMap<StructuredToolInterface, (args: unknown) => unknown>();
