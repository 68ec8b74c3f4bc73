/**
 * Where a `graphspec test` fixture (`*.test.yaml`) names its spec's nodes and channels: the nodes
 * of `interrupt_before`/`interrupt_after` and of what a test expects (`path`, `next`,
 * `interrupts[].node`, `error.node`), the channels of a test's `input` and of an expected
 * `output`. A rename of the spec's node or channel renames them too, or the tests would fail.
 */
import { dirname, resolve } from "node:path";
import { isObject } from "../spec/data.js";
import type { SpecDocument } from "../spec/document.js";
import type { Path } from "../spec/source-map.js";
import { addOccurrence, type Occurrence } from "./occurrences.js";

/** A fixture's file name (as `graphspec test` finds them: src/run/fixtures/load.ts). */
export const FIXTURE_FILE = /\.test\.(ya?ml|json)$/;

/**
 * The spec a fixture tests: its `graph:` (relative to it), else its own name without `.test`
 * — with the extension the spec has among `candidates` (the project's files).
 */
export function fixtureGraph(fixture: SpecDocument, candidates: ReadonlySet<string>): string {
  const data = isObject(fixture.data) ? fixture.data : {};
  if (typeof data.graph === "string") return resolve(dirname(fixture.path), data.graph);
  const stem = resolve(fixture.path).replace(FIXTURE_FILE, "");
  const all = [".yaml", ".yml", ".json"].map((ext) => stem + ext);
  return all.find((c) => candidates.has(c)) ?? all[0]!;
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Where the fixture names nodes and channels of its spec. */
export function fixtureOccurrences(doc: SpecDocument): Occurrence[] {
  const out: Occurrence[] = [];
  const data = isObject(doc.data) ? doc.data : {};
  const node = (path: Path, name: unknown) => {
    if (typeof name === "string" && doc.map.has(path))
      addOccurrence(doc, out, "nodes", name, doc.map.span(path));
  };
  const channels = (path: Path, map: unknown) => {
    if (isObject(map))
      for (const k of Object.keys(map)) {
        const at = [...path, k];
        if (doc.map.has(at)) addOccurrence(doc, out, "state", k, doc.map.span(at, "key"));
      }
  };
  /** A test or one of its `then` steps: breakpoints and what it expects. */
  const step = (at: Path, s: Record<string, unknown>) => {
    for (const key of ["interrupt_before", "interrupt_after"])
      for (const [i, n] of list(s[key]).entries()) node([...at, key, i], n);
    if (!isObject(s.expect)) return;
    const expect = s.expect;
    const e = [...at, "expect"];
    for (const key of ["path", "next"])
      for (const [i, n] of list(expect[key]).entries()) node([...e, key, i], n);
    for (const [i, p] of list(expect.interrupts).entries())
      if (isObject(p)) node([...e, "interrupts", i, "node"], p.node);
    if (isObject(expect.error)) node([...e, "error", "node"], expect.error.node);
    channels([...e, "output"], expect.output);
  };
  for (const [i, test] of list(data.tests).entries()) {
    if (!isObject(test)) continue;
    channels(["tests", i, "input"], test.input);
    step(["tests", i], test);
    for (const [j, then] of list(test.then).entries())
      if (isObject(then)) step(["tests", i, "then", j], then);
  }
  return out;
}
