/**
 * A thread belongs to its graph. Each checkpoint stores the path of the spec that wrote it
 * (checkpoint-keys.ts GRAPH_KEY): a run with another spec is refused (`thread-graph-mismatch`)
 * rather than taking the thread over, and a path read back from the store is only loaded when it
 * is a spec file inside the executor's project (`graph-outside-project`) — the store is data, and
 * a row pointed at a module elsewhere must not get it run.
 */
import { realpath } from "node:fs/promises";
import { extname, isAbsolute, join, relative } from "node:path";
import { GRAPH_EXTENSIONS, resolveFile } from "../modules/files.js";
import type { RunError } from "./result.js";

export interface ThreadGraphs {
  /**
   * The spec a thread ran, as an absolute path that may be loaded — or why it may not; undefined
   * when the thread stores no graph (it does not exist, or graphspec did not write it).
   */
  storedGraph(threadId: string): Promise<{ path: string } | { error: RunError } | undefined>;
  /** Why the spec at `path` may not run on the thread (it belongs to another), or undefined. */
  mismatch(threadId: string, path: string): Promise<RunError | undefined>;
}

const realOrSame = (path: string) => realpath(path).catch(() => path);

/**
 * @param root the executor's project root: specs named by a thread must be inside it
 * @param stored the graph path stored with a thread's latest checkpoint, unchecked
 */
export function threadGraphs(
  root: string,
  stored: (threadId: string) => Promise<string | undefined>,
): ThreadGraphs {
  const shown = (path: string) => {
    const rel = relative(root, path);
    return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
  };
  return {
    async storedGraph(threadId) {
      const path = await stored(threadId);
      if (path === undefined) return undefined;
      const refuse = (why: string): { error: RunError } => ({
        error: {
          code: "graph-outside-project",
          phase: "input",
          message: `thread \`${threadId}\` names the graph \`${path}\`, which ${why}: it is not loaded`,
          hint: `give the spec to run explicitly, if you trust it; only spec files inside the project (${root}) are loaded from a thread's checkpoints`,
        },
      });
      if (!isAbsolute(path)) return refuse("is not an absolute path");
      if (!GRAPH_EXTENSIONS.includes(extname(path).toLowerCase() as never)) {
        return refuse(`is not a spec file (${GRAPH_EXTENSIONS.join(", ")})`);
      }
      const file = await resolveFile({ specPath: join(root, "_"), root }, path, "graph", []);
      if (!file.ok && file.problem.rule === "path-escape") {
        return refuse(
          /symbolic link/.test(file.problem.message)
            ? "leads through a symbolic link out of the project"
            : "is outside the project",
        );
      }
      // A spec that is missing now is reported by loading it, as any missing spec is.
      return { path };
    },
    async mismatch(threadId, path) {
      const owner = await stored(threadId);
      if (owner === undefined) return undefined;
      if (owner === path || (await realOrSame(owner)) === (await realOrSame(path)))
        return undefined;
      return {
        code: "thread-graph-mismatch",
        phase: "input",
        message: `thread \`${threadId}\` belongs to the graph \`${shown(owner)}\`, not \`${shown(path)}\``,
        hint: `run \`${shown(owner)}\` on this thread (\`graphspec resume\` without a spec finds it), or start a new thread for \`${shown(path)}\``,
      };
    },
  };
}
