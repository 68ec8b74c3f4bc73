/**
 * Where runs keep their checkpoints: `memory` (this process only), or `sqlite` — the default, a
 * file (`.graphspec/state.db`) through LangGraph's official SQLite checkpointer, so paused and
 * failed runs survive the process. Or any LangGraph checkpointer passed in.
 */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { type BaseCheckpointSaver, MemorySaver } from "@langchain/langgraph";

export type CheckpointerChoice = "memory" | "sqlite" | BaseCheckpointSaver;

export interface OpenCheckpointer {
  saver: BaseCheckpointSaver;
  /** Whether checkpoints outlive this process. */
  durable: boolean;
}

export const DEFAULT_SQLITE_PATH = ".graphspec/state.db";

/** The configurable key (and checkpoint metadata key) that names the spec a thread runs. */
export const GRAPH_KEY = "graphspec_graph";

/**
 * LangGraph.js does not copy a run's config into checkpoint metadata; this puts the thread's
 * graph there, so `threads list` and `resume` without a spec know what a thread ran.
 */
function tagging(saver: BaseCheckpointSaver): BaseCheckpointSaver {
  const put = saver.put.bind(saver);
  saver.put = (config, checkpoint, metadata, versions) => {
    const graph = config.configurable?.[GRAPH_KEY];
    const tagged =
      typeof graph === "string"
        ? ({ ...metadata, [GRAPH_KEY]: graph } as typeof metadata)
        : metadata;
    return put(config, checkpoint, tagged, versions);
  };
  return saver;
}

export async function openCheckpointer(
  choice: CheckpointerChoice,
  sqlitePath = DEFAULT_SQLITE_PATH,
): Promise<OpenCheckpointer> {
  if (choice === "memory") return { saver: tagging(new MemorySaver()), durable: false };
  if (choice === "sqlite") {
    const path = resolve(sqlitePath);
    mkdirSync(dirname(path), { recursive: true });
    // Loaded only when used: better-sqlite3 is a native module.
    const { SqliteSaver } = await import("@langchain/langgraph-checkpoint-sqlite");
    return { saver: tagging(SqliteSaver.fromConnString(path)), durable: true };
  }
  return { saver: tagging(choice), durable: !(choice instanceof MemorySaver) };
}
