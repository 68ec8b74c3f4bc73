/**
 * What identifies an MCP server for the lock, computed from the spec alone (validate starts
 * nothing): a sha-256 of what starts or reaches it — `command`, `args`, `cwd` and `env` (as
 * templates, never their values), or `url` — and the hash of each script of the project its
 * command and arguments name (a file with a source extension, SCRIPT_EXTENSIONS, and the project
 * files a JavaScript or TypeScript one imports, as module-hash.ts follows them). Editing the
 * server's code, or how it is started, makes its record stale; a data file it is given (a
 * database, a log) is not hashed, or every run would. Headers are left out: they authenticate,
 * they do not choose the server.
 */
import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import { dirname, extname, resolve } from "node:path";
import { isObject } from "../../spec/data.js";
import { isInside } from "../../spec/inside-root.js";
import { realpathLoose } from "../files.js";
import type { Shared } from "../shared.js";
import { lockKey, sorted } from "./lock-file.js";
import { moduleHash } from "./module-hash.js";

export interface McpServerIdentity {
  sha256: string;
  /** Project files the command and arguments name, by path from the project root: their hashes. */
  files: Map<string, string>;
}

/**
 * The folder a server's `cwd` and relative arguments are read from: its `cwd` resolved from the
 * folder of the file that declares it (the spec), or that folder.
 */
export const mcpServerCwd = (decl: Record<string, unknown>, declaredIn: string): string =>
  resolve(dirname(declaredIn), typeof decl.cwd === "string" ? decl.cwd : ".");

/** Files hashed as the server's code when the command or an argument names one. */
export const SCRIPT_EXTENSIONS = new Set([
  ".js",
  ".mjs",
  ".cjs",
  ".ts",
  ".mts",
  ".cts",
  ".py",
  ".sh",
  ".rb",
  ".php",
  ".pl",
  ".lua",
]);

/** A word of the command line that names a path (`./x`, `../servers/x.mjs`), not an option or a URL. */
const pathLike = (word: string) =>
  /[\\/]/.test(word) && !word.startsWith("-") && !word.includes("://");

const isFile = (path: string) =>
  stat(path).then(
    (s) => s.isFile(),
    () => false,
  );

export async function mcpServerIdentity(
  decl: Record<string, unknown>,
  declaredIn: string,
  root: string,
  shared: Shared,
): Promise<McpServerIdentity> {
  const files = new Map<string, string>();
  let config: Record<string, unknown>;
  if (typeof decl.url === "string") {
    config = { url: decl.url };
  } else {
    const cwd = mcpServerCwd(decl, declaredIn);
    const realRoot = await realpathLoose(root);
    // A path is recorded from the project root, whether the file exists or not, so two specs
    // naming one script from different folders agree; a script of the project is hashed.
    const word = async (text: string): Promise<unknown> => {
      if (!pathLike(text) && !SCRIPT_EXTENSIONS.has(extname(text).toLowerCase())) return text;
      const abs = resolve(cwd, text);
      // Outside the project a path is machine-specific, and no business of the project's lock.
      if (!isInside(realRoot, await realpathLoose(abs))) return text;
      if (SCRIPT_EXTENSIONS.has(extname(abs).toLowerCase()) && (await isFile(abs)))
        files.set(lockKey(root, abs), (await moduleHash(abs, root, shared)) ?? "unreadable");
      return pathLike(text) ? { path: lockKey(root, abs) } : text;
    };
    const command = typeof decl.command === "string" ? decl.command : "";
    const args = Array.isArray(decl.args) ? decl.args.filter((a) => typeof a === "string") : [];
    config = {
      // A bare command (`node`, `npx`) is looked up on PATH, never in the folder.
      command: pathLike(command) ? await word(command) : command,
      args: await Promise.all(args.map(word)),
      cwd: lockKey(root, cwd) || ".",
      env: isObject(decl.env) ? decl.env : {},
    };
  }
  const sha256 = createHash("sha256")
    .update(JSON.stringify(sorted(config)))
    .digest("hex");
  return { sha256, files };
}
