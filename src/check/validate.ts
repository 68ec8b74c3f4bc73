/**
 * check/'s entry, and the only module of check/ the layers above import: `validate` runs the
 * schema and every semantic rule over a loaded document and applies severities and suppressions.
 */
import { compareDiagnostics, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { CATALOG } from "../diagnostics/rule-catalog.js";
import type { SpecDocument } from "../spec/document.js";
import { notASpec } from "../spec/not-a-spec.js";
import { CheckContext, type CheckOptions, type ValidateOptions } from "./check-context.js";
import { notASpecFindings } from "./not-a-spec-findings.js";
import { RULES } from "./rules/index.js";
import { checkSchema } from "./rules/schema.js";

export type { CheckOptions, LoadModulesOptions, ValidateOptions } from "./check-context.js";

/**
 * Every diagnostic for a loaded document: load problems, schema violations and semantic rules,
 * suppressions applied, sorted by position. Never throws on bad input. Runs nothing of the
 * project's unless `loadModules` asks for it, and then in a separate process.
 */
export function validate(doc: SpecDocument, options: ValidateOptions = {}): Promise<Diagnostic[]> {
  const { loadModules, loadSubgraphs, severity, cache } = options;
  return checkDocument(doc, { loadModules, loadSubgraphs, severity, cache });
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
    const schema = checkSchema(doc);
    found.push(...schema);
    const ctx = new CheckContext(doc, schema.length === 0, options);
    // A file that is not a mapping at all has nothing for the semantic rules to read.
    const isMapping = typeof doc.data === "object" && doc.data !== null && !Array.isArray(doc.data);
    for (const rule of isMapping ? RULES : []) {
      if (options.severity?.[rule.name] === "off") continue;
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
    if (doc.suppressions.covers(d.rule, d.line)) continue;
    const key = `${d.line}:${d.column}:${d.rule}:${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out.sort(compareDiagnostics);
}
