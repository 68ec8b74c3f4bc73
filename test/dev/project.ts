/** A project on disk for the dev tests: package.json (its root), graphs/, and helpers to rewrite files. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect, vi } from "vitest";
import type { ReloadEvent } from "../../src/dev/reload-event.js";

/** The built CLI (dist/, after `npm run build`), as users run it. */
export const BIN = join(import.meta.dirname, "..", "..", "bin", "graphspec.js");

/** Waits until `check` holds (a reload seen, a version served): a condition, never a time. */
export const until = (check: () => unknown) =>
  vi.waitFor(async () => expect(await check()).toBeTruthy(), { timeout: 30_000, interval: 5 });

export interface Project {
  root: string;
  graphs: string;
  write(rel: string, text: string): string;
  remove(): void;
}

export function project(prefix: string): Project {
  const root = mkdtempSync(join(tmpdir(), `graphspec-${prefix}-`));
  writeFileSync(join(root, "package.json"), '{ "type": "module" }\n');
  const graphs = join(root, "graphs");
  mkdirSync(graphs);
  return {
    root,
    graphs,
    write(rel, text) {
      const abs = join(root, rel);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, text);
      return abs;
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A spec whose nodes each append `mark` to `marks`: the output shows which version ran. */
export const markingSpec = (mark: string, extra = "") => `version: 1
name: marking
state:
  marks: { type: array, items: { type: string }, reducer: append, default: [] }
nodes:
  first: { kind: set, values: { marks: [${mark}] } }
  slow: { kind: function, module: ./slow.mjs, writes: [marks] }
  last: { kind: set, values: { marks: [${mark}] } }
edges:
  - { from: START, to: first }
  - { from: first, to: slow }
  - { from: slow, to: last }
  - { from: last, to: ${extra || "END"} }
`;

/** Events as the dev executor reports them, for waits on conditions. */
export function recorder() {
  const events: ReloadEvent[] = [];
  return {
    events,
    onReload: (e: ReloadEvent) => {
      events.push(e);
    },
    count: (type: ReloadEvent["type"]) => events.filter((e) => e.type === type).length,
  };
}
