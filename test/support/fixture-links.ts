/**
 * Vitest global set-up: the symbolic links the fixtures need, made before any test file runs
 * rather than committed — a committed link is copied as a plain file by StrykerJS's sandbox
 * (docs/testing.md#mutation-testing) and by tools that do not keep links, and the fixture then
 * tests nothing. Each link is made once and left in place (it is gitignored): a file that reads the
 * fixtures while another runs never sees it missing.
 */
import { lstatSync, readlinkSync, renameSync, symlinkSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const TEST = join(import.meta.dirname, "..");

/** Link → target, both under test/. */
export const FIXTURE_LINKS: [link: string, target: string][] = [
  // A module of the path-escape golden fixture (invalid/path-escape/symlink.yaml) that leads out
  // of test/fixtures, the golden tests' root.
  ["fixtures/modules/linked-tickets.ts", "support/outside-fixtures/tickets.ts"],
];

export function linkFixtures(): void {
  for (const [link, target] of FIXTURE_LINKS) {
    const at = join(TEST, link);
    const to = relative(dirname(at), join(TEST, target));
    let current: string | undefined;
    try {
      current = lstatSync(at).isSymbolicLink() ? readlinkSync(at) : undefined;
    } catch {}
    if (current === to) continue;
    // Made under another name and renamed over: never missing, even with two set-ups at once.
    const draft = `${at}.${process.pid}.draft`;
    symlinkSync(to, draft);
    renameSync(draft, at);
  }
}

export default function setup(): void {
  linkFixtures();
}
