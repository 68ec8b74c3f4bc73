/**
 * A client that leaves before its run ends, through the official SDK against the real server: by
 * default the run goes on (it can be joined); with `onDisconnect: "cancel"` — what the SDK's
 * `useStream` sends unless its stream is resumable, so its Stop button stops the run — or
 * `joinStream(…, { cancelOnDisconnect: true })`, the run is cancelled, as on LangGraph's server,
 * and the thread takes the next run. Cancelling by leaving needs the right to cancel: a caller the
 * Auth handler lets follow a run but not change it cannot join with `cancelOnDisconnect`.
 */
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gates, openGatesAfterEach } from "../support/gates.js";
import { type Harness, startHarness } from "./harness.js";

const HANDLER = join(import.meta.dirname, "../fixtures/server/auth/watchers.ts:auth");
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ authHandler: HANDLER });
});
afterAll(async () => {
  await h?.stop();
});
openGatesAfterEach();

const as = (token: "owner" | "watcher") =>
  new Client({
    apiUrl: h.url,
    defaultHeaders: { Authorization: `Bearer ${token}` },
    callerOptions: { maxRetries: 0 },
  });

/** Reads a run's stream until its node waits at the gate, then leaves; the run's id. */
async function leaveAtTheGate(
  stream: AsyncIterable<{ event: string; data: unknown }>,
  leave: AbortController,
): Promise<string | undefined> {
  let runId: string | undefined;
  try {
    for await (const chunk of stream) {
      if (chunk.event === "metadata") runId = (chunk.data as { run_id: string }).run_id;
      await expect.poll(() => gates().length).toBe(1);
      leave.abort();
    }
  } catch (e) {
    if ((e as Error).name !== "AbortError") throw e;
  }
  return runId;
}

/** A thread's status once it has settled (not `busy`), asked through the SDK. */
const settled = async (client: Client, thread: string) => {
  await expect.poll(async () => (await client.threads.get(thread)).status).not.toBe("busy");
  return (await client.threads.get(thread)).status;
};

describe("a client that leaves before its run ends", () => {
  it('runs.stream with onDisconnect "cancel": leaving cancels the run; the thread takes the next', async () => {
    const client = as("owner");
    const { thread_id } = await client.threads.create();
    const leave = new AbortController();
    const runId = await leaveAtTheGate(
      client.runs.stream(thread_id, "gated", {
        input: {},
        onDisconnect: "cancel",
        signal: leave.signal,
      }),
      leave,
    );
    expect(runId).toBeDefined();
    await expect
      .poll(async () => (await client.runs.get(thread_id, runId!)).status)
      .toBe("interrupted");
    expect(await settled(client, thread_id)).not.toBe("error");
    // The cancelled run's node still waits at its gate: opening it changes nothing.
    gates().shift()!();
    const next = await client.runs.create(thread_id, "gated", { input: {} });
    await expect.poll(() => gates().length).toBe(1);
    gates().shift()!();
    expect(await client.runs.join(thread_id, next.run_id)).toMatchObject({ done: true });
  });

  it.each([
    ["not given", undefined],
    ['"continue"', "continue" as const],
  ])(
    "runs.stream with onDisconnect %s: the run goes on to its end, and can be joined",
    async (_, mode) => {
      const client = as("owner");
      const { thread_id } = await client.threads.create();
      const leave = new AbortController();
      const runId = await leaveAtTheGate(
        client.runs.stream(thread_id, "gated", {
          input: {},
          ...(mode ? { onDisconnect: mode } : {}),
          signal: leave.signal,
        }),
        leave,
      );
      expect((await client.runs.get(thread_id, runId!)).status).toBe("running");
      gates().shift()!();
      expect(await client.runs.join(thread_id, runId!)).toMatchObject({ done: true });
      expect((await client.runs.get(thread_id, runId!)).status).toBe("success");
    },
  );

  it('runs.wait with onDisconnect "cancel": leaving cancels the run', async () => {
    const client = as("owner");
    const { thread_id } = await client.threads.create();
    const leave = new AbortController();
    const waiting = client.runs
      .wait(thread_id, "gated", { input: {}, onDisconnect: "cancel", signal: leave.signal })
      .catch((e: Error) => e.name);
    await expect.poll(() => gates().length).toBe(1);
    const [run] = await client.runs.list(thread_id);
    leave.abort();
    expect(await waiting).toBe("AbortError");
    await expect
      .poll(async () => (await client.runs.get(thread_id, run!.run_id)).status)
      .toBe("interrupted");
  });

  it("joinStream with cancelOnDisconnect: leaving cancels the run; without it, the run goes on", async () => {
    const client = as("owner");
    const { thread_id } = await client.threads.create();
    const run = await client.runs.create(thread_id, "gated", { input: {} });
    await expect.poll(() => gates().length).toBe(1);

    // A plain join, left: the run goes on.
    const plain = new AbortController();
    await leaveAtTheGate(
      client.runs.joinStream(thread_id, run.run_id, { signal: plain.signal }),
      plain,
    );
    expect((await client.runs.get(thread_id, run.run_id)).status).toBe("running");

    const cancelling = new AbortController();
    await leaveAtTheGate(
      client.runs.joinStream(thread_id, run.run_id, {
        signal: cancelling.signal,
        cancelOnDisconnect: true,
      }),
      cancelling,
    );
    await expect
      .poll(async () => (await client.runs.get(thread_id, run.run_id)).status)
      .toBe("interrupted");
  });

  it("joinStream with cancelOnDisconnect needs the right to cancel; following does not", async () => {
    const { thread_id } = await as("owner").threads.create();
    const run = await as("owner").runs.create(thread_id, "gated", { input: {} });
    await expect.poll(() => gates().length).toBe(1);
    const watcher = as("watcher");
    await expect(watcher.runs.cancel(thread_id, run.run_id)).rejects.toThrow(/403/);
    const leave = new AbortController();
    await expect(
      leaveAtTheGate(
        watcher.runs.joinStream(thread_id, run.run_id, {
          signal: leave.signal,
          cancelOnDisconnect: true,
        }),
        leave,
      ),
    ).rejects.toThrow(/403/);
    const following = new AbortController();
    await leaveAtTheGate(
      watcher.runs.joinStream(thread_id, run.run_id, { signal: following.signal }),
      following,
    );
    expect((await watcher.runs.get(thread_id, run.run_id)).status).toBe("running");
    gates().shift()!();
    expect(await watcher.runs.join(thread_id, run.run_id)).toMatchObject({ done: true });
  });

  it("an on_disconnect the server does not know is refused, naming the field", async () => {
    const { thread_id } = await as("owner").threads.create();
    const res = await fetch(`${h.url}/threads/${thread_id}/runs/stream`, {
      method: "POST",
      headers: { authorization: "Bearer owner", "content-type": "application/json" },
      body: JSON.stringify({ assistant_id: "gated", input: {}, on_disconnect: "cancle" }),
    });
    expect(res.status).toBe(422);
    expect(await res.text()).toMatch(/on_disconnect/);
    expect(gates()).toHaveLength(0);
  });
});
