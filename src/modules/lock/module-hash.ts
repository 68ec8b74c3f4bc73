/**
 * The hash a lock records for a tool module: of its text and of every file of the project it
 * imports by a relative path, followed through those files in turn (a tool's schema is often
 * imported from a file of schemas). Packages and files outside the project are not followed: a
 * package's version is its lockfile's business. Bounded like the static inspector.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { realpathLoose } from "../files.js";
import type { Shared } from "../shared.js";
import { resolveLocal, STATIC_LIMITS, syntaxOf } from "../static/static-exports.js";
import { contentHash, lockKey } from "./lock-file.js";

/**
 * The module's hash, or undefined when it cannot be read. A module that imports no file of the
 * project hashes as its own text alone.
 */
async function computeModuleHash(
  abs: string,
  root: string,
  shared: Shared,
): Promise<string | undefined> {
  const realRoot = await realpathLoose(root);
  const hashes = new Map<string, string>();
  const queue = [abs];
  const seen = new Set(queue);
  while (queue.length && hashes.size < STATIC_LIMITS.maxFiles) {
    const file = queue.shift() as string;
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch {
      if (file === abs) return undefined;
      hashes.set(lockKey(root, file), "unreadable");
      continue;
    }
    hashes.set(lockKey(root, file), contentHash(bytes));
    const syntax = await syntaxOf(file, shared);
    if (!("imports" in syntax)) continue;
    for (const specifier of syntax.imports) {
      const target = await resolveLocal(specifier, file, realRoot);
      if (target && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  if (hashes.size === 1) return hashes.values().next().value;
  const lines = [...hashes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash("sha256")
    .update(lines.map(([key, hash]) => `${hash}  ${key}\n`).join(""))
    .digest("hex");
}

/** The module's current hash, once per run. */
export const moduleHash = (abs: string, root: string, shared: Shared) =>
  shared(`graphspec:lock-hash:${root}\0${abs}`, () => computeModuleHash(abs, root, shared));
