/**
 * All the places one name stands for the same thing, across files: a node's or a tool's in its
 * spec; a channel's in its spec and, where a subgraph node copies it by name (no `input`, or no
 * `output`, and the child declares it), in the child spec too — with the parent's `input` keys
 * and `output.X` reads that name the child's channel. What references list and rename edits.
 */
import { resolve } from "node:path";
import { graphRefs, resolveGraphRef } from "../modules/index.js";
import { isObject } from "../spec/data.js";
import type { SpecDocument } from "../spec/document.js";
import { FIXTURE_FILE, fixtureGraph, fixtureOccurrences } from "./fixture-occurrences.js";
import { type NameSection, type Occurrence, occurrencesOf } from "./occurrences.js";
import { mountsOf, specFiles } from "./parent-specs.js";

/**
 * A spec file read for navigation: the editor's text when it is open, else the file's; a file
 * that is not a spec is undefined, unless `anyYaml` (a test fixture is read so).
 */
export type LoadSpec = (abs: string, anyYaml?: boolean) => Promise<SpecDocument | undefined>;

/** One site of a name: the document it was found in and the occurrence there. */
export interface NameSite {
  doc: SpecDocument;
  occurrence: Occurrence;
}

/** A name as the cursor designates it: in `doc`, or in the child a subgraph node of `doc` mounts. */
export interface NameTarget {
  section: NameSection;
  name: string;
  doc: SpecDocument;
}

const occurrenceCache = new WeakMap<SpecDocument, Occurrence[]>();
/** A document's occurrences, found once per parsed text. */
export function occurrences(doc: SpecDocument): Occurrence[] {
  const kept = occurrenceCache.get(doc);
  if (kept) return kept;
  const found = occurrencesOf(doc);
  occurrenceCache.set(doc, found);
  return found;
}

/** The occurrence whose span holds `offset` (in the spec's own text), if any. */
export function occurrenceAt(doc: SpecDocument, offset: number): Occurrence | undefined {
  return occurrences(doc).find(
    (o) => o.span[0] <= offset && offset <= o.span[1] && o.span[1] <= doc.text.length,
  );
}

/** The child specs `doc`'s subgraph nodes mount, by node name. */
async function children(doc: SpecDocument, load: LoadSpec): Promise<Map<string, SpecDocument>> {
  const out = new Map<string, SpecDocument>();
  for (const ref of graphRefs(doc.data)) {
    const found = await resolveGraphRef({ specPath: resolve(doc.path), root: doc.root }, ref);
    if (!found.abs || found.abs === resolve(doc.path)) continue;
    const child = await load(found.abs);
    if (child && isObject(child.data)) out.set(ref.node, child);
  }
  return out;
}

const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined;

/**
 * Whether subgraph node `node` of `parent` copies channel `name` into or out of `child` by name:
 * both declare it and the node leaves out `input` (and the child takes it) or `output` (and the
 * child gives it).
 */
function copiesByName(parent: SpecDocument, node: string, child: SpecDocument, name: string) {
  const spec = parent.data as Record<string, unknown>;
  const n = isObject(spec.nodes) && isObject(spec.nodes[node]) ? spec.nodes[node] : {};
  if (!isObject(spec.state) || !Object.hasOwn(spec.state, name)) return false;
  const c = child.data as Record<string, unknown>;
  const state = isObject(c.state) ? c.state : {};
  if (!Object.hasOwn(state, name)) return false;
  const takes = strings(c.input) ?? Object.keys(state);
  const gives = strings(c.output) ?? Object.keys(state);
  return (
    (n.input === undefined && takes.includes(name)) ||
    (n.output === undefined && gives.includes(name))
  );
}

/**
 * Every site of `target`, its declarations included, in document order per file: for a channel,
 * across the subgraphs it is copied into and the parents it is copied from by name, with the
 * parents' `input` keys and `output.X` that name it.
 */
export async function sitesOf(target: NameTarget, load: LoadSpec): Promise<NameSite[]> {
  const out: NameSite[] = [];
  const seen = new Set<string>();
  const { section, name } = target;
  // The project's files and test fixtures, read once per request, when first needed.
  let files: Promise<string[]> | undefined;
  let fixtures: Promise<{ doc: SpecDocument; graph: string }[]> | undefined;
  const projectFiles = () => {
    files ??= specFiles(target.doc.root);
    return files;
  };
  const projectFixtures = () => {
    fixtures ??= projectFiles().then(async (all) => {
      const candidates = new Set(all);
      const found: { doc: SpecDocument; graph: string }[] = [];
      for (const file of all.filter((f) => FIXTURE_FILE.test(f))) {
        const doc = await load(file, true);
        if (doc) found.push({ doc, graph: fixtureGraph(doc, candidates) });
      }
      return found;
    });
    return fixtures;
  };
  const named = (doc: SpecDocument, mount: string) =>
    occurrences(doc)
      .filter((o) => o.mount === mount && o.name === name)
      .map((o) => ({ doc, occurrence: o }));
  const visit = async (doc: SpecDocument) => {
    const key = resolve(doc.path);
    if (seen.has(key)) return;
    seen.add(key);
    for (const o of occurrences(doc))
      if (o.section === section && o.name === name && !o.mount) out.push({ doc, occurrence: o });
    if (section === "tools") return;
    // The tests of this spec name its nodes and channels too.
    for (const fixture of await projectFixtures())
      if (fixture.graph === key)
        for (const o of fixtureOccurrences(fixture.doc))
          if (o.section === section && o.name === name)
            out.push({ doc: fixture.doc, occurrence: o });
    if (section !== "state") return;
    for (const [node, child] of await children(doc, load)) {
      if (!copiesByName(doc, node, child, name)) continue;
      // The child's channel is this one: its sites, and this spec's names for it, follow.
      out.push(...named(doc, node));
      await visit(child);
    }
    for (const { parent, node } of await mountsOf(doc, await projectFiles(), load)) {
      // A parent's `input` key or `output.X` naming this channel is a site of it.
      out.push(...named(parent, node));
      if (copiesByName(parent, node, doc, name)) await visit(parent);
    }
  };
  await visit(target.doc);
  return out;
}

/**
 * What the cursor's occurrence designates: its own name, or — on a subgraph node's `input` key
 * or an `output.X` — the child's channel, whose sites include those of the mounting node.
 */
export async function targetOf(
  doc: SpecDocument,
  occurrence: Occurrence,
  load: LoadSpec,
): Promise<{ target: NameTarget; extra: NameSite[] } | undefined> {
  const { section, name, mount } = occurrence;
  if (!mount) return { target: { section, name, doc }, extra: [] };
  const child = (await children(doc, load)).get(mount);
  if (!child) return undefined;
  const extra = occurrences(doc)
    .filter((o) => o.mount === mount && o.name === name)
    .map((o) => ({ doc, occurrence: o }));
  return { target: { section, name, doc: child }, extra };
}

/** Every site of what `occurrence` designates (none when a mounted child cannot be read). */
export async function allSites(
  doc: SpecDocument,
  occurrence: Occurrence,
  load: LoadSpec,
): Promise<{ target: NameTarget; sites: NameSite[] } | undefined> {
  const found = await targetOf(doc, occurrence, load);
  if (!found) return undefined;
  const sites = [...found.extra, ...(await sitesOf(found.target, load))];
  // A site reached twice (a parent naming a child's channel by both routes) is one site.
  const unique = new Map<string, NameSite>();
  for (const s of sites)
    unique.set(`${resolve(s.doc.path)}:${s.occurrence.span[0]}:${s.occurrence.span[1]}`, s);
  return { target: found.target, sites: [...unique.values()] };
}
