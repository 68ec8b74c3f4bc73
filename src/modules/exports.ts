/** Finding a reference's export in a loaded module, and checking it has the shape its use needs. */

import { closest, listNames } from "../diagnostics/suggest.js";
import type { Path } from "../spec/source-map.js";
import type { ModuleRef, RefKind, RefProblem } from "./refs.js";

/** A LangChain tool: `tool(...)`, a StructuredTool instance, or anything shaped like one. */
export const isLangChainTool = (v: unknown): v is Record<string, unknown> => {
  if ((typeof v !== "object" && typeof v !== "function") || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.invoke === "function" && (typeof o.name === "string" || o.schema !== undefined);
};

const describeValue = (v: unknown): string => {
  if (v === null) return "null";
  if (v === undefined) return "undefined";
  if (Array.isArray(v)) return "an array";
  if (isLangChainTool(v)) return "a LangChain tool";
  if (typeof v === "object") return "an object";
  if (typeof v === "function") return "a function";
  return `a ${typeof v}`;
};

const isClass = (v: unknown): boolean =>
  typeof v === "function" && /^class[\s{]/.test(Function.prototype.toString.call(v));

const FUNCTION_SHAPES: Record<Exclude<RefKind, "tool">, string> = {
  function: "a function node runs `(state, runtime) => update`",
  router: "a router is `(state) => target | target[]`",
  reducer: "a reducer is `(current, update) => next`",
};

/** The path of the `export` key beside a reference's `module`. */
export const exportPath = (ref: ModuleRef): Path => [...ref.path.slice(0, -1), "export"];

export function findExport(
  ref: ModuleRef,
  exports: Record<string, unknown>,
): { name: string; value: unknown } | RefProblem {
  const has = (n: string) => Object.hasOwn(exports, n);
  if (ref.export !== undefined) {
    if (has(ref.export)) return { name: ref.export, value: exports[ref.export] };
  } else {
    if (ref.tool && has(ref.tool.name))
      return { name: ref.tool.name, value: exports[ref.tool.name] };
    if (has("default")) return { name: "default", value: exports.default };
  }
  const names = Object.keys(exports)
    .filter((n) => n !== "default" && n !== "module.exports")
    .sort();
  const wanted = ref.export ?? ref.tool?.name ?? "default";
  const near = wanted === "default" ? undefined : closest(wanted, names);
  const available = names.length
    ? `it exports ${listNames(names).replace(/ or (?=[^,]*$)/, " and ")}`
    : "it has no named exports";
  if (ref.export !== undefined) {
    return {
      rule: "unknown-export",
      path: exportPath(ref),
      message: `module \`${ref.module}\` has no export \`${ref.export}\``,
      hint: near ? `did you mean \`${near}\`?` : available,
    };
  }
  const what = ref.tool
    ? `neither \`${ref.tool.name}\` (the tool's name) nor a default export`
    : "no default export";
  return {
    rule: "unknown-export",
    path: ref.path,
    message: `module \`${ref.module}\` has ${what}`,
    hint: near
      ? `did you mean \`export: ${near}\`?`
      : names.length
        ? `name the export with \`export:\`; ${available}`
        : "export it from the module",
  };
}

/** Why an export cannot serve as `ref.kind`, if it cannot. */
export function shapeProblem(ref: ModuleRef, name: string, value: unknown): RefProblem | undefined {
  const at = ref.export !== undefined ? exportPath(ref) : ref.path;
  const subject = `export \`${name}\` of \`${ref.module}\``;
  if (ref.kind !== "tool") {
    if (typeof value === "function" && !isClass(value)) return undefined;
    return {
      rule: "unknown-export",
      path: at,
      message: `${subject} is ${isClass(value) ? "a class" : describeValue(value)}, not a function`,
      hint: FUNCTION_SHAPES[ref.kind],
    };
  }
  if (isLangChainTool(value)) return undefined;
  if (isClass(value)) {
    return {
      rule: "unknown-export",
      path: at,
      message: `${subject} is a class, not a tool`,
      hint: `export an instance (\`new ${(value as { name?: string }).name || "MyTool"}()\`) or a \`tool(...)\``,
    };
  }
  if (typeof value === "function") {
    const missing = [
      ...(ref.tool?.hasSchema ? [] : ["schema"]),
      ...(ref.tool?.hasDescription ? [] : ["description"]),
    ];
    if (!missing.length) return undefined;
    return {
      rule: "unknown-export",
      path: ["tools", ref.tool?.name ?? ""],
      at: "key",
      message: `tool \`${ref.tool?.name}\` is a plain function, so the spec must give its ${listNames(missing).replace(" or ", " and ")}`,
      hint: missing.includes("schema")
        ? "add `schema:` (the JSON Schema of its arguments) and `description:` (what it does, for the model)"
        : "add `description:` (what the tool does, for the model)",
    };
  }
  return {
    rule: "unknown-export",
    path: at,
    message: `${subject} is ${describeValue(value)}, not a tool`,
    hint: "export a LangChain tool (`tool(fn, { name, description, schema })`) or a function with `schema:` in the spec",
  };
}
