/**
 * Runs a compiled spec and the same graph written by hand with LangGraph on the same inputs, and
 * records what the proof compares: the final state, the order nodes ran in (per step, as
 * LangGraph's `updates` stream reports them) and the interrupts met. Resumes follow each
 * interrupt when `resumes` are given. Both graphs need a checkpointer for interrupts.
 */
import { Command } from "@langchain/langgraph";
import { expect } from "vitest";

type AnyGraph = any;

export interface RunRecord {
  /** Node names in the order their updates arrived, one list per step (sorted within a step). */
  steps: string[][];
  /** Interrupt values, in order. */
  interrupts: unknown[];
  /** The final state (the graph's output), as plain JSON. */
  state: unknown;
}

export interface RunPlan {
  input: unknown;
  context?: Record<string, unknown>;
  /** Resume values, used one per interrupt. */
  resumes?: unknown[];
  threadId?: string;
  recursionLimit?: number;
}

/** A value as comparable JSON: messages in LangChain's serialized form, without their random ids and provider metadata. */
export function plain(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (key, v) => {
      if (key === "id" || key === "lc_kwargs" || key === "response_metadata") return undefined;
      return v;
    }),
  );
}

/** Runs `graph` through `plan` and records what happened. */
export async function record(graph: AnyGraph, plan: RunPlan): Promise<RunRecord> {
  const threadId = plan.threadId ?? `t-${Math.random().toString(36).slice(2)}`;
  const config = {
    configurable: { thread_id: threadId },
    ...(plan.context ? { context: plan.context } : {}),
    ...(plan.recursionLimit ? { recursionLimit: plan.recursionLimit } : {}),
  };
  const steps: string[][] = [];
  const interrupts: unknown[] = [];
  const resumes = [...(plan.resumes ?? [])];
  let input: unknown = plan.input;
  for (;;) {
    const stream = await graph.stream(input, { ...config, streamMode: ["updates", "debug"] });
    let step: string[] = [];
    let stepNumber: number | undefined;
    let paused = false;
    for await (const [mode, chunk] of stream) {
      if (mode === "debug") {
        if (chunk.type !== "task") continue;
        // A task of a new step number closes the previous step.
        if (chunk.step !== stepNumber && step.length) {
          steps.push(step.sort());
          step = [];
        }
        stepNumber = chunk.step;
        step.push(chunk.payload.name);
        continue;
      }
      if ("__interrupt__" in chunk) {
        paused = true;
        for (const i of chunk.__interrupt__) interrupts.push(plain(i.value));
      }
    }
    if (step.length) steps.push(step.sort());
    if (!paused || !resumes.length) break;
    input = new Command({ resume: resumes.shift() });
  }
  const snapshot = await graph.getState({ configurable: { thread_id: threadId } });
  return { steps, interrupts, state: plain(snapshot.values) };
}

/** Runs both graphs through the same plan and expects the same record. Returns the compiled one's. */
export async function expectSameRun(
  compiled: AnyGraph,
  handWritten: AnyGraph,
  plan: RunPlan,
): Promise<RunRecord> {
  const a = await record(compiled, plan);
  const b = await record(handWritten, plan);
  expect(a).toEqual(b);
  return a;
}
