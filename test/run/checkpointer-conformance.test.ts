/**
 * LangGraph's own checkpointer conformance suite (@langchain/langgraph-checkpoint-validation)
 * against each checkpointer as the executor builds it: LangGraph's saver with graphspec's
 * wrappers (graph/context/model tags in metadata, the secret guard, the state and thread bounds),
 * opened and closed the way `createExecutor` does. The wrappers replace `put` and `putWrites`, so
 * they must keep every promise the savers make: round-trips, namespaces, pending writes, listing
 * with filters and limits, deleting a thread.
 *
 * Each checkpointer is named after the package it wraps: the suite skips, by that name, the
 * checks the package is known upstream not to meet (SqliteSaver and MemorySaver store every
 * channel's value in every checkpoint, not only the changed ones).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import {
  type CheckpointSaverTestInitializer,
  specTest,
} from "@langchain/langgraph-checkpoint-validation";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, test } from "vitest";
import { withBounds } from "../../src/run/checkpoint-bounds.js";
import {
  type CheckpointerChoice,
  type CheckpointerOptions,
  type OpenCheckpointer,
  openCheckpointer,
} from "../../src/run/checkpointer.js";
import { sizeLimits } from "../../src/run/size-limits.js";
import { freshDatabase, serverUrl } from "../support/postgres.js";

// The suite is written against Vitest's globals (its own runner turns them on); this file hands
// it the same functions instead of turning globals on for every test file.
Object.assign(globalThis, {
  describe,
  it,
  test,
  expect,
  beforeAll,
  afterAll,
  beforeEach,
  afterEach,
});

/** Each checkpointer the suite makes, with what closes it. */
const opened = new WeakMap<BaseCheckpointSaver, OpenCheckpointer>();

/** As the executor opens one (executor.ts): LangGraph's saver, tagged and bounded. */
async function open(choice: CheckpointerChoice, options: CheckpointerOptions = {}) {
  const checkpointer = await withBounds(openCheckpointer(choice, options), sizeLimits());
  opened.set(checkpointer.saver, checkpointer);
  return checkpointer.saver;
}
const close = async (saver: BaseCheckpointSaver) => opened.get(saver)?.close();

const initializer = (
  checkpointerName: string,
  create: () => Promise<BaseCheckpointSaver>,
  more: Partial<CheckpointSaverTestInitializer<BaseCheckpointSaver>> = {},
): CheckpointSaverTestInitializer<BaseCheckpointSaver> => ({
  checkpointerName,
  createCheckpointer: create,
  destroyCheckpointer: close,
  ...more,
});

describe("graphspec's memory checkpointer", () => {
  specTest(initializer("MemorySaver", () => open("memory")));
});

describe("graphspec's SQLite checkpointer", () => {
  const dir = mkdtempSync(join(tmpdir(), "graphspec-conformance-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  // A file of its own for each checkpointer the suite makes: no state is shared between them.
  specTest(
    initializer("@langchain/langgraph-checkpoint-sqlite", () =>
      open("sqlite", { sqlitePath: join(dir, `state-${++n}.db`) }),
    ),
  );
});

describe.skipIf(!serverUrl())("graphspec's PostgreSQL checkpointer", () => {
  let databaseUrl = "";
  specTest(
    initializer(
      "@langchain/langgraph-checkpoint-postgres",
      async () => {
        const saver = await open("postgres", { databaseUrl });
        // One database for the file; each checkpointer starts from empty tables.
        const { pool } = saver as unknown as {
          pool: { query(sql: string): Promise<unknown> };
        };
        await pool.query("TRUNCATE checkpoints, checkpoint_blobs, checkpoint_writes");
        return saver;
      },
      {
        beforeAll: async () => {
          databaseUrl = await freshDatabase("conformance");
        },
        beforeAllTimeout: 30_000,
      },
    ),
  );
});
