/**
 * Following subgraph nodes into child specs: loading each child once per run, and finding
 * subgraphs that mount each other in a cycle.
 */
import { relative, sep } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { graphRefs, resolveGraphRef, type Shared } from "../modules/index.js";
import type { SpecDocument } from "../spec/document.js";
import { readSpec } from "../spec/load.js";
import { notASpec } from "../spec/not-a-spec.js";
import type { Path } from "../spec/source-map.js";
import type { CheckContext } from "./check-context.js";
import { checkedGraphRefs, sharedOf } from "./module-refs.js";
import { notASpecFindings } from "./not-a-spec-findings.js";
import { checkSchema } from "./rules/schema.js";

/** Chains of subgraphs deeper than this are not followed (a guard, not a language limit). */
const MAX_DEPTH = 32;

export interface ChildSpec {
  doc: SpecDocument;
  /** Load and schema errors: a child with any cannot be compiled. */
  errors: Diagnostic[];
}

/** Reads a child spec once per shared cache; its paths are relative to the project root. */
export function loadChildSpec(abs: string, root: string, shared: Shared): Promise<ChildSpec> {
  return shared(`graphspec:spec:${abs}`, async () => {
    const doc = await readSpec(abs, { root, file: relative(root, abs).split(sep).join("/") });
    // A child that is not a spec is not quoted either (its schema errors could show its values).
    const notSpec = notASpec(doc);
    const found = notSpec ? notASpecFindings(doc, notSpec) : [...doc.problems, ...checkSchema(doc)];
    return { doc, errors: found.filter((d) => d.severity === "error") };
  });
}

export interface SubgraphFinding {
  /** Where to report: the `graph:` value of a node of the checked spec. */
  path: Path;
  kind: "cycle" | "child-errors";
  /** For a cycle: the spec files around it, from the checked spec (absolute paths). */
  chain?: string[];
  child?: ChildSpec;
}

/**
 * For each subgraph node of the checked spec: does following it lead into a cycle, or is the child
 * broken? Children are only read when `loadSubgraphs` is not false; a spec mounting itself is found
 * either way.
 */
export function subgraphFindings(ctx: CheckContext): Promise<SubgraphFinding[]> {
  return ctx.memo("subgraphs:findings", async () => {
    const findings: SubgraphFinding[] = [];
    const load = ctx.options.loadSubgraphs !== false;
    const shared = sharedOf(ctx);
    const root = ctx.doc.root;
    // Specs fully explored without meeting a cycle (depth-first search's "black" set).
    const clear = new Set<string>();

    /** The chain from the checked spec into a cycle reachable from `abs`, if there is one. */
    const cycleFrom = async (abs: string, chain: string[]): Promise<string[] | undefined> => {
      if (chain.includes(abs)) return [...chain, abs];
      if (clear.has(abs) || chain.length > MAX_DEPTH) return undefined;
      const child = await loadChildSpec(abs, root, shared);
      if (child.doc.data !== undefined) {
        for (const ref of graphRefs(child.doc.data)) {
          const next = await resolveGraphRef({ specPath: abs, root }, ref);
          if (!next.abs) continue;
          const found = await cycleFrom(next.abs, [...chain, abs]);
          if (found) return found;
        }
      }
      clear.add(abs);
      return undefined;
    };

    for (const { ref, abs } of await checkedGraphRefs(ctx)) {
      if (!abs) continue;
      if (abs === ctx.doc.path) {
        findings.push({ path: ref.path, kind: "cycle", chain: [abs, abs] });
        continue;
      }
      if (!load) continue;
      const child = await loadChildSpec(abs, root, shared);
      if (child.errors.length) {
        findings.push({ path: ref.path, kind: "child-errors", child });
        continue;
      }
      const chain = await cycleFrom(abs, [ctx.doc.path]);
      if (chain) findings.push({ path: ref.path, kind: "cycle", chain });
    }
    return findings;
  });
}

export interface ChildCheck {
  /** The `graph:` value of a node of the checked spec. */
  path: Path;
  child: ChildSpec;
  /** The child's own findings of severity error, as compile checks it. */
  errors: Diagnostic[];
}

/**
 * The rule errors of each child the checked spec mounts, where the child loads and leads into no
 * cycle (those are subgraph-cycle's): compile checks the child and refuses the parent for them.
 * Each child is checked once per validation run; its own children are checked the same way.
 */
export function childChecks(ctx: CheckContext): Promise<ChildCheck[]> {
  return ctx.memo("subgraphs:child-checks", async () => {
    const checkChild = ctx.options.checkChild;
    if (ctx.options.loadSubgraphs === false || !checkChild) return [];
    const reported = new Set((await subgraphFindings(ctx)).map((f) => f.path.join("\0")));
    const shared = sharedOf(ctx);
    const out: ChildCheck[] = [];
    for (const { ref, abs } of await checkedGraphRefs(ctx)) {
      if (!abs || abs === ctx.doc.path || reported.has(ref.path.join("\0"))) continue;
      const child = await loadChildSpec(abs, ctx.doc.root, shared);
      const found = await shared(`graphspec:child-check:${abs}`, () => checkChild(child.doc));
      const errors = found.filter((d) => d.severity === "error");
      if (errors.length) out.push({ path: ref.path, child, errors });
    }
    return out;
  });
}

/** The children the checked spec mounts that load without errors, by the `graph:` naming each. */
export function loadedChildren(
  ctx: CheckContext,
  shared: Shared,
): Promise<{ path: Path; child: ChildSpec }[]> {
  return ctx.memo("subgraphs:loaded", async () => {
    if (ctx.options.loadSubgraphs === false) return [];
    const out: { path: Path; child: ChildSpec }[] = [];
    for (const { ref, abs } of await checkedGraphRefs(ctx)) {
      if (!abs || abs === ctx.doc.path) continue;
      const child = await loadChildSpec(abs, ctx.doc.root, shared);
      if (child.errors.length === 0 && child.doc.data !== undefined)
        out.push({ path: ref.path, child });
    }
    return out;
  });
}
