/**
 * What one module file declares it exports, read from its text without running it.
 *
 * - ES modules: `es-module-lexer` (the lexer Vite and others use to read import/export syntax).
 * - CommonJS: `cjs-module-lexer`, the lexer Node.js itself uses to decide which names of a CommonJS
 *   module `import` can see: graphspec loads modules with `import`, so what it finds is what a
 *   loaded module offers.
 * - TypeScript is first turned into JavaScript by esbuild, the transform tsx (which loads
 *   TypeScript modules at run time) applies, so the lexers read the code that would run.
 *
 * The three load lazily: a spec without modules never pays for them.
 */
import { extname } from "node:path";

export interface ModuleSyntax {
  /** Names the file exports itself or re-exports by name (`default` included when it has one). */
  names: string[];
  /** Specifiers whose exports it passes on wholesale: `export * from`, `module.exports = require(…)`. */
  stars: string[];
  /** Some exports cannot be known without running it (a computed `module.exports`). */
  dynamic: boolean;
  /** Every specifier it imports by a literal: `import`, `export … from`, `import("…")`, `require("…")`. */
  imports: string[];
}

export type SyntaxResult = ModuleSyntax | { syntaxError: string };

const TYPESCRIPT = new Set([".ts", ".mts", ".cts"]);

/**
 * CommonJS that replaces or extends `module.exports` with something the lexer cannot enumerate:
 * `module.exports = build()`, `exports[name] = …`, `Object.assign(module.exports, …)`. An object
 * literal or a `require()` is understood; anything else makes the names unknowable.
 */
const COMPUTED_CJS = [
  /\bmodule\s*\.\s*exports\s*=(?!=)(?!\s*(?:\{|require\s*\())/,
  /\b(?:module\s*\.\s*)?exports\s*\[(?!\s*["'`])/,
  /\bObject\s*\.\s*(?:assign|defineProperties)\s*\(\s*(?:module\s*\.\s*)?exports\b/,
];

/** The first esbuild error as `line 2, column 26: message` (1-based), without the file's path. */
function esbuildError(e: unknown): string {
  const first = (e as { errors?: { text: string; location?: { line: number; column: number } }[] })
    .errors?.[0];
  if (!first) return String((e as Error)?.message ?? e).split("\n")[0] ?? "";
  const at = first.location
    ? `line ${first.location.line}, column ${first.location.column + 1}: `
    : "";
  return `${at}${first.text}`;
}

async function toJavaScript(
  text: string,
  loader: "ts" | "js",
): Promise<string | { syntaxError: string }> {
  const { transform } = await import("esbuild");
  try {
    return (await transform(text, { loader, target: "esnext" })).code;
  } catch (e) {
    return { syntaxError: esbuildError(e) };
  }
}

type EsLexer = typeof import("es-module-lexer");
let esLexer: Promise<EsLexer> | undefined;
const loadEsLexer = (): Promise<EsLexer> =>
  (esLexer ??= import("es-module-lexer").then(async (m) => {
    await m.init();
    return m;
  }));

/**
 * What `text`, the content of the module file `abs`, exports. `commonJs`: the file runs as
 * CommonJS (`.cjs`, `.cts`, or `.js`/`.ts` in a package that is not `"type": "module"`), where
 * `default` is always there (tsx compiles `export` syntax in such files to CommonJS). A file the
 * lexers cannot read counts as dynamic rather than as having no exports.
 */
export async function readModuleSyntax(
  text: string,
  abs: string,
  commonJs: boolean,
): Promise<SyntaxResult> {
  const ext = extname(abs).toLowerCase();
  let code = text;
  // The lexer's WebAssembly compiles while esbuild (a child process) turns TypeScript into
  // JavaScript: the two waits overlap rather than add up.
  const lexer = loadEsLexer();
  lexer.catch(() => {}); // awaited below, or not needed after a syntax error: never unhandled
  if (TYPESCRIPT.has(ext)) {
    const js = await toJavaScript(text, "ts");
    if (typeof js !== "string") return js;
    code = js;
  }
  const { parse } = await lexer;
  let lexed: ReturnType<EsLexer["parse"]>;
  try {
    lexed = parse(code);
  } catch {
    // A lexer is not a parser: let esbuild say whether this is a real syntax error.
    const js = await toJavaScript(code, "js");
    if (typeof js !== "string") return js;
    try {
      lexed = parse(js);
      code = js;
    } catch {
      return { names: [], stars: [], dynamic: true, imports: requires(code) };
    }
  }
  const [imported, exports, , hasModuleSyntax] = lexed;
  const imports = [
    ...imported.flatMap((i) =>
      typeof i.specifier === "string" && !("typeOnly" in i && i.typeOnly) ? [i.specifier] : [],
    ),
    ...requires(code),
  ];
  if (hasModuleSyntax || !commonJs) {
    const names: string[] = [];
    const stars: string[] = [];
    for (const e of exports) {
      if (e.typeOnly) continue;
      if (e.type === "reexport-all") stars.push(e.from);
      else names.push(e.name);
    }
    if (commonJs && !names.includes("default")) names.push("default");
    return { names, stars, dynamic: false, imports };
  }
  return { ...(await readCommonJs(code)), imports };
}

/** The literal specifiers of `require("…")` calls (CommonJS; esbuild's output of TypeScript's `import x = require`). */
const requires = (code: string): string[] =>
  [...code.matchAll(/\brequire\s*\(\s*(["'])([^"'\n]+)\1\s*\)/g)].map((m) => m[2] ?? "");

async function readCommonJs(code: string): Promise<Omit<ModuleSyntax, "imports">> {
  const { parse } = await import("cjs-module-lexer");
  try {
    const { exports, reexports } = parse(code);
    // `default` is `module.exports` itself, always there for `import`.
    return {
      names: [...exports, "default"],
      stars: reexports,
      dynamic: COMPUTED_CJS.some((re) => re.test(code)),
    };
  } catch {
    return { names: ["default"], stars: [], dynamic: true };
  }
}
