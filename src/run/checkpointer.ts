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

export async function openCheckpointer(
  choice: CheckpointerChoice,
  sqlitePath = DEFAULT_SQLITE_PATH,
): Promise<OpenCheckpointer> {
  if (choice === "memory") return { saver: new MemorySaver(), durable: false };
  if (choice === "sqlite") {
    const path = resolve(sqlitePath);
    mkdirSync(dirname(path), { recursive: true });
    // Loaded only when used: better-sqlite3 is a native module.
    const { SqliteSaver } = await import("@langchain/langgraph-checkpoint-sqlite");
    return { saver: SqliteSaver.fromConnString(path), durable: true };
  }
  return { saver: choice, durable: !(choice instanceof MemorySaver) };
}
