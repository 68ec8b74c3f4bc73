/**
 * check/'s entry, and the only module of check/ the layers above import: `validate` runs the
 * schema and every semantic rule over a loaded document and applies severities and suppressions.
 */
import { compareDiagnostics, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { CATALOG } from "../diagnostics/rule-catalog.js";
import { isCatalog } from "../spec/catalog.js";
import type { SpecDocument } from "../spec/document.js";
import { catalogHost } from "../spec/load.js";
import { notASpec } from "../spec/not-a-spec.js";
import { CheckContext, type CheckOptions, type ValidateOptions } from "./check-context.js";
import { notASpecFindings } from "./not-a-spec-findings.js";
import { dependsOnBroken } from "./rule-sections.js";
import { RULES } from "./rules/index.js";
import { schemaCheck } from "./rules/schema.js";

export type { CheckOptions, LoadModulesOptions, ValidateOptions } from "./check-context.js";

/**
 * Every diagnostic for a loaded document: load problems, schema violations and semantic rules,
 * suppressions applied, sorted by position. Never throws on bad input. Runs nothing of the
 * project's unless `loadModules` asks for it, and then in a separate process.
 */
export function validate(doc: SpecDocument, options: ValidateOptions = {}): Promise<Diagnostic[]> {
  const { loadModules, loadSubgraphs, severity, cache, probes, toolLock } = options;
  const checked = { loadModules, loadSubgraphs, severity, cache, probes, toolLock };
  if (isCatalog(doc)) return validateCatalog(doc, checked);
  return checkDocument(doc, checked);
}

/**
 * A catalog (only `tools` and `models`) checked on its own: as the entries of the smallest spec
 * naming it, so with the same rules, messages and positions as through a spec that names it —
 * keeping only what is in the catalog file. The host uses no tool, so what a tool's `bind` reads
 * of `state` and `context` (the spec's) is left to the specs that use the tool.
 */
async function validateCatalog(
  catalog: SpecDocument,
  options: CheckOptions,
): Promise<Diagnostic[]> {
  const found = await checkDocument(catalogHost(catalog), options);
  return found.filter((d) => d.file === catalog.file);
}

/** `validate` with compile's own module inspector (modules it imports itself anyway). */
export async function checkDocument(
  doc: SpecDocument,
  options: CheckOptions,
): Promise<Diagnostic[]> {
  const notSpec = notASpec(doc);
  if (notSpec) return finish(doc, notASpecFindings(doc, notSpec), options);
  const found: Diagnostic[] = [...doc.problems];
  if (doc.data !== undefined) {
    const { findings: schema, broken: brokenBy } = schemaCheck(doc);
    found.push(...schema);
    // A section counts as broken only while the finding that says so is shown: with `schema`
    // off or that line's finding suppressed, the rules that read the section speak instead.
    const shown = (d: Diagnostic) =>
      options.severity?.schema !== "off" && !doc.suppressions.covers(d.rule, d.line);
    const broken = new Set([...brokenBy].filter(([, d]) => shown(d)).map(([s]) => s));
    // A child spec is checked as compile checks it: the same modules, no severity overrides, no
    // lock (the child file's own check reports on the lock).
    const { loadModules, loadSubgraphs, cache, inspector } = options;
    const childOptions: CheckOptions = {
      loadModules,
      loadSubgraphs,
      cache,
      inspector,
      toolLock: false,
    };
    const checkChild = (child: SpecDocument) => checkDocument(child, childOptions);
    const ctx = new CheckContext(doc, schema.length === 0, { ...options, checkChild });
    // A file that is not a mapping at all has nothing for the semantic rules to read.
    const isMapping = typeof doc.data === "object" && doc.data !== null && !Array.isArray(doc.data);
    for (const rule of isMapping ? RULES : []) {
      if (options.severity?.[rule.name] === "off") continue;
      // One mistake, one finding: `node:` for `nodes:` is the schema's to report, not every
      // edge's unknown node.
      if (dependsOnBroken(rule.name, broken)) continue;
      try {
        await rule.check(ctx);
      } catch (e) {
        // A rule may stumble over data the schema already rejected; that is expected noise.
        // On schema-valid data it is a bug in graphspec: say so rather than hide it.
        if (ctx.schemaValid) {
          ctx.report("internal-error", [], {
            message: `rule \`${rule.name}\` failed: ${(e as Error)?.message ?? String(e)}`,
            hint: "please report this with the spec that caused it",
          });
        }
      }
    }
    found.push(...ctx.diagnostics);
  }
  return finish(doc, found, options);
}

function finish(doc: SpecDocument, found: Diagnostic[], options: ValidateOptions): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const d of found) {
    const override = options.severity?.[d.rule as keyof typeof CATALOG];
    if (override === "off") continue;
    if (override) d.severity = override;
    // A finding in the spec's catalog is suppressed by the catalog file's comments, not the spec's;
    // one in a prompt file by nothing (its text is the prompt: a comment there would be sent).
    const catalog = doc.catalog?.doc;
    const suppressions =
      catalog && d.file === catalog.file ? catalog.suppressions : doc.suppressions;
    const inPrompt = doc.prompts?.some((p) => p.file === d.file);
    if (!inPrompt && suppressions.covers(d.rule, d.line)) continue;
    const key = `${d.file}:${d.line}:${d.column}:${d.rule}:${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out.sort(compareDiagnostics);
}
