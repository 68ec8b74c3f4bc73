/** Finding a reference's export among a module's export names, and checking it has the shape its use needs. */

import { closest, listNames } from "../diagnostics/suggest.js";
import type { Path } from "../spec/source-map.js";
import type { ExportFacts } from "./export-facts.js";
import type { ModuleRef, RefKind, RefProblem } from "./refs.js";

/** A module's export names, as far as they are known. */
export interface ExportNames {
  names: readonly string[];
  /**
   * Whether `names` is every export. False when some cannot be known without running the module
   * (a computed `module.exports`, `export * from` a package): a name missing from `names` may exist.
   */
  complete: boolean;
}

const FUNCTION_SHAPES: Record<Exclude<RefKind, "tool">, string> = {
  function: "a function node runs `(state, runtime) => update`",
  router: "a router is `(state) => target | target[]`",
  reducer: "a reducer is `(current, update) => next`",
};

/** The path of the `export` key beside a reference's `module`. */
export const exportPath = (ref: ModuleRef): Path => [...ref.path.slice(0, -1), "export"];

/**
 * The export a reference uses — `export:`, else (for a tool) the tool's name, else `default` — or
 * why there is none. Undefined when the names are incomplete and the export is not among them:
 * then nobody can say without running the module, and saying nothing is better than a false error.
 */
export function findExport(
  ref: ModuleRef,
  exports: ExportNames,
): { name: string } | RefProblem | undefined {
  const has = (n: string) => exports.names.includes(n);
  if (ref.export !== undefined) {
    if (has(ref.export)) return { name: ref.export };
  } else {
    if (ref.tool && has(ref.tool.name)) return { name: ref.tool.name };
    if (has("default")) return { name: "default" };
  }
  if (!exports.complete) return undefined;
  const names = [...new Set(exports.names)]
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
      ...(near ? { replacement: near } : {}),
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

const described = (facts: ExportFacts): string => {
  switch (facts.kind) {
    case "function":
      return "a function";
    case "class":
      return "a class";
    case "tool":
      return "a LangChain tool";
    case "other":
      return facts.what;
    case "unreadable":
      return "unreadable";
  }
};

/** Why an export cannot serve as `ref.kind`, if it cannot. */
export function shapeProblem(
  ref: ModuleRef,
  name: string,
  facts: ExportFacts,
): RefProblem | undefined {
  const at = ref.export !== undefined ? exportPath(ref) : ref.path;
  const subject = `export \`${name}\` of \`${ref.module}\``;
  if (facts.kind === "unreadable") {
    return {
      rule: "unknown-export",
      path: exportPath(ref),
      message: `export \`${name}\` of module \`${ref.module}\` throws when it is read: ${facts.error}`,
      hint: "export a LangChain tool or a plain function",
    };
  }
  if (ref.kind !== "tool") {
    if (facts.kind === "function") return undefined;
    return {
      rule: "unknown-export",
      path: at,
      message: `${subject} is ${described(facts)}, not a function`,
      hint: FUNCTION_SHAPES[ref.kind],
    };
  }
  if (facts.kind === "tool") return undefined;
  if (facts.kind === "class") {
    return {
      rule: "unknown-export",
      path: at,
      message: `${subject} is a class, not a tool`,
      hint: `export an instance (\`new ${facts.className}()\`) or a \`tool(...)\``,
    };
  }
  if (facts.kind === "function") {
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
    message: `${subject} is ${described(facts)}, not a tool`,
    hint: "export a LangChain tool (`tool(fn, { name, description, schema })`) or a function with `schema:` in the spec",
  };
}
