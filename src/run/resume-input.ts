/**
 * What a resume runs: the answer as LangGraph's Command (`null` given by interrupt id, since
 * LangGraph reads `resume: null` as no answer), or `null` to go on from the last checkpoint — or,
 * when the thread has nothing to resume (finished, unknown, or paused at a node the spec lost),
 * the RunResult saying so.
 */
import { Command } from "@langchain/langgraph";
import { atCheckpoint } from "./checkpoint-at.js";
import { commandParts } from "./command-input.js";
import type { Execute } from "./execute-run.js";
import type { ResumeOptions } from "./executor-api.js";
import { graphChanged } from "./graph-changed.js";
import type { Loaded } from "./graph-loader.js";
import type { Persistence } from "./persistence.js";
import type { RunResult } from "./result.js";
import { threadSnapshot } from "./thread-snapshot.js";

/** What a resume of `graph` runs, with the version of the graph the resume took. */
export type ResumeInput = (
  graph: string,
  opts: ResumeOptions & {
    checkpointId?: string;
    /** Nothing pending on a thread that has run: run nothing and complete (`stream`'s `continue`). */
    idleCompletes?: boolean;
  },
  loaded: Loaded,
) => Promise<unknown>;

/** What a resume's input needs: the checkpointer, and `execute` to read where the thread stands. */
export interface ResumeParts {
  saver: Persistence["saver"];
  execute: Execute;
}

export function resumeInputOf(parts: ResumeParts): ResumeInput {
  const { saver, execute } = parts;

  /**
   * What a resume runs: the answer as a Command, or `null` to go on from the last checkpoint —
   * or, when the thread is finished or unknown, the RunResult saying so.
   */
  async function resumeInput(
    graph: string,
    opts: Parameters<ResumeInput>[1],
    loaded: Loaded,
  ): Promise<unknown> {
    const { graph: compiled, spec } = loaded;
    /** Where the thread stands, read only: what a resume that cannot go on answers with. */
    const inspect = () =>
      execute({
        graph,
        input: undefined,
        threadId: opts.threadId,
        context: undefined,
        inspectOnly: true,
        loaded,
      });
    // From a checkpoint: what is pending there (its interrupt, its next nodes), not at the latest.
    const before =
      opts.checkpointId !== undefined
        ? await compiled.getState({ configurable: atCheckpoint(opts.threadId, opts.checkpointId) })
        : (await threadSnapshot(compiled, (await saver()).saver, opts.threadId)).snapshot;
    // A thread paused under an earlier version of the spec, at a node (or with a channel) it lost.
    const changed = before.config?.configurable?.checkpoint_id
      ? await graphChanged((await saver()).saver, opts.threadId, spec)
      : undefined;
    if (changed) {
      const result = await inspect();
      return { ...result, status: "failed", error: changed } satisfies RunResult;
    }
    const command = commandParts(opts, loaded);
    if ("error" in command) {
      const result = await inspect();
      return { ...result, status: "failed", error: command.error } satisfies RunResult;
    }
    const pending = before.next.length > 0 || before.tasks.some((t) => t.interrupts?.length);
    // LangGraph's invoke(null) on a thread whose run has ended runs nothing and answers its state.
    if (before.config?.configurable?.checkpoint_id && !pending && opts.idleCompletes) return null;
    // A goto runs its nodes on a thread that has nothing pending too, as LangGraph's Command does.
    if (!before.config?.configurable?.checkpoint_id || (!pending && !command.goto)) {
      const result = await inspect();
      return {
        ...result,
        status: "failed",
        error: {
          code: "nothing-to-resume",
          phase: "input",
          message: before.config?.configurable?.checkpoint_id
            ? `thread \`${opts.threadId}\` has nothing to resume: its run has completed`
            : `there is no thread \`${opts.threadId}\` of graph \`${graph}\``,
          hint: "start a new run with `graphspec run`, or check the thread id",
        },
      } satisfies RunResult;
    }
    const withCommand = command.goto || command.update ? command : undefined;
    if (opts.value === undefined) return withCommand ? new Command(withCommand) : null;
    // LangGraph reads `resume: null` as no answer at all; null is an answer: give it by interrupt id.
    const ids = before.tasks.flatMap((t) => (t.interrupts ?? []).map((i) => i.id));
    if (opts.value === null && ids.length && ids.every((id) => typeof id === "string")) {
      return new Command({
        ...withCommand,
        resume: Object.fromEntries(ids.map((id) => [id, null])),
      });
    }
    return new Command({ ...withCommand, resume: opts.value });
  }
  return resumeInput;
}
