/**
 * Runs: stream (server-sent events), wait, create in the background, list, get, join, follow,
 * cancel — on a thread, or stateless (`/runs/…`: a thread of its own, deleted after unless
 * `on_completion: "keep"`). `multitask_strategy` is `reject` (a second run on a busy thread is a
 * 409), `interrupt` (the thread's run is stopped first) or `enqueue` (queued behind it).
 */
import { randomUUID } from "node:crypto";
import type { Context } from "hono";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { missingSecrets } from "../compile/run-context.js";
import { toPlain } from "../run/serialize.js";
import { ApiError, notFound, refusalError } from "./api-error.js";
import { assistantWithGraph } from "./assistant-lookup.js";
import { matchesFilters } from "./auth-filters.js";
import { clientFailure } from "./client-text.js";
import { followRemote, REMOTE_POLL_MS, remoteEnd } from "./follow-remote.js";
import { interruptRunsOn } from "./multitask-interrupt.js";
import { checkpointOf, jsonBody, parsed, RunCreate } from "./request-body.js";
import { runChoices } from "./run-choices.js";
import { commandOf } from "./run-command.js";
import { type RunFailure, runFailure } from "./run-failure.js";
import { runLimits } from "./run-limits.js";
import { eventsNotKept, type LiveRun, type RunRecord } from "./run-registry.js";
import { openSecrets, underAssistant } from "./saved-assistants.js";
import { seal } from "./sealed-context.js";
import type { HeldContext, ServerEnv, ServerParts } from "./server-parts.js";
import type { QueuedRequest } from "./server-store.js";
import { refuseStandIn } from "./stand-in-choice.js";
import { streamModes } from "./stream-modes.js";
import { tenantKey, tooManyQueued } from "./tenant-caps.js";
import { type Allow, checkpointNotFound } from "./thread-routes.js";
import { threadClientView, threadView } from "./thread-views.js";

type C = Context<ServerEnv>;

/** A run as the routes see it: driven here (`live`, with its events) or by another replica. */
interface RunView {
  record: RunRecord;
  storedThreadId: string;
  live: LiveRun | undefined;
  /** Deletes a stateless run's thread (called once its values are read). */
  forget?: (() => Promise<void>) | undefined;
  /** The client asked for the run to be cancelled if it leaves first (`on_disconnect: "cancel"`). */
  cancelOnDisconnect?: boolean;
}

export function runRoutes(p: ServerParts, allow: Allow): Hono<ServerEnv> {
  const api = new Hono<ServerEnv>();

  /**
   * Starts the run a request describes, on `clientThreadId` (undefined: a stateless run). With
   * `background`, queues it instead (run-queue.ts) and answers its record.
   */
  async function start(
    c: C,
    clientThreadId: string | undefined,
    background = false,
    readsValues = false,
  ): Promise<RunView> {
    // The tenant is known from authentication: at its running cap, refused before its body is read.
    const capReading = background ? undefined : await p.runs.refuseOverCap(c.get("tenancy").tenant);
    const given = parsed(RunCreate, await jsonBody(c, p.maxBodyBytes));
    const modes = streamModes(given.stream_mode);
    const tenant = tenantKey(c.get("tenancy").tenant);
    const { graph: served, saved } = await assistantWithGraph(p, tenant, given.assistant_id);
    // A saved assistant's configuration under the run's own; its runs carry its id.
    const body = saved
      ? underAssistant(
          saved,
          openSecrets(p, { tenant, id: saved.assistant_id }, saved.secrets),
          given,
        )
      : given;
    const graph = saved ? { ...served, assistantId: saved.assistant_id } : served;
    const strategy = body.multitask_strategy ?? "reject";
    if (strategy === "rollback")
      throw new ApiError(
        422,
        "unsupported",
        `multitask_strategy \`${strategy}\` is not supported`,
        {
          field: "multitask_strategy",
          hint: "use `reject` (the default: wait for the thread's run, or cancel it, then start the next), `interrupt` (the thread's run is stopped first) or `enqueue` (this run waits for it)",
        },
      );
    const commanded = commandOf(body.command);
    const tenancy = c.get("tenancy");
    const stateless = clientThreadId === undefined;
    const client = clientThreadId ?? randomUUID();
    const stored = tenancy.stored(client);
    // The handler may add to the run's metadata (LangGraph's docs stamp `owner`); a thread this
    // run creates carries it, as on LangGraph's server.
    const asked = {
      thread_id: client,
      assistant_id: saved ? saved.assistant_id : graph.name,
      metadata: { ...(body.metadata ?? {}) },
      multitask_strategy: strategy,
      if_not_exists: body.if_not_exists ?? "reject",
    };
    const filters = await allow(c, "threads", "create_run", asked);
    // The thread's record and whether it has run, read once: a thread exists when either does.
    // Whether it has run is its graph in the checkpoints (one indexed row's metadata), not its
    // state (every channel read and deserialized, on every run on a thread that has run).
    const record = stateless ? undefined : await p.store.getThread(stored);
    const ranGraph = stateless ? undefined : await p.exec.graphOf(stored);
    const existing = record || ranGraph ? { metadata: record?.metadata ?? {} } : undefined;
    if (existing && !matchesFilters(existing.metadata, filters)) throw notFound("thread", client);
    if (!stateless && !existing && body.if_not_exists !== "create")
      throw notFound(
        "thread",
        client,
        'create it with `threads.create()`, or pass if_not_exists: "create"',
      );
    // The graph and assistant of its latest run, in the thread's metadata, as on LangGraph's
    // server: a thread list says which graph each thread ran, and finds a graph's or an
    // assistant's threads (agent-chat-ui searches `metadata.assistant_id` for an assistant given
    // by id, `graph_id` for one given by graph name).
    const ranBy = { graph_id: graph.name, assistant_id: graph.assistantId };
    if (!existing) await p.store.ensureThread(stored, { ...ranBy, ...(asked.metadata ?? {}) });
    // Written once a run has started on it; not again while the same assistant runs it (a run
    // writes no record it needs not).
    const learnsGraph = async () => {
      const known = existing?.metadata;
      if (known && (known.graph_id !== graph.name || known.assistant_id !== graph.assistantId))
        await p.store.patchThread(stored, ranBy);
    };
    const started = ranGraph !== undefined;
    // From a checkpoint (time travel): one of this thread's own, checked before the run is
    // started or queued; the executor checks again under the thread's claim.
    const checkpointId = checkpointOf(body);
    if (checkpointId !== undefined) {
      const at = started ? await p.exec.state(stored, undefined, { checkpointId }) : undefined;
      if (at === undefined) throw checkpointNotFound(checkpointId);
    }
    const resume =
      body.command && "resume" in body.command ? { resume: body.command.resume } : undefined;
    const input = body.input ?? undefined;
    // No input on a thread that has run: go on from its last checkpoint (LangGraph's `input: null`).
    const how =
      resume ?? (input === undefined && started ? { continue: true } : { input: input ?? {} });
    const choices = runChoices(body);
    await refuseStandIn(p.standIns, graph.path, choices.standIn);
    const options = {
      ...how,
      ...commanded,
      ...(checkpointId !== undefined ? { checkpointId } : {}),
      ...choices,
      ...runLimits(body, p.runLimits),
      ...(body.context ? { context: body.context } : {}),
    };
    // A thread never keeps a secret: a run without a required one is refused now, not once the
    // queue takes it (a background run would be accepted and then fail).
    const noSecret = missingSecrets(graph.spec, body.context ?? undefined);
    if (noSecret) throw refusalError({ ...noSecret, message: noSecret.message, phase: "input" });
    // The thread's run going on is stopped once the request is known to be good.
    if (strategy === "interrupt" && existing) await interruptRunsOn(p, stored, c.req.raw.signal);
    const keep = body.on_completion === "keep";
    c.header("Content-Location", `/threads/${encodeURIComponent(client)}/runs/`);
    // A context is never stored in plaintext: sealed with the records key, or, without one,
    // held in this replica's memory — the run then pinned to it (sealed-context.ts).
    const { context, ...plain } = options;
    const hasContext = context !== undefined && Object.keys(context).length > 0;
    // `enqueue` on a busy thread: queued behind its runs, streamed or waited for once it runs.
    const queuing =
      background ||
      (strategy === "enqueue" && existing !== undefined && (await p.runs.active(stored)));
    if (queuing && p.queue) {
      const runId = randomUUID();
      const sealed = hasContext && p.recordsKey && p.store.shared;
      const held = hasContext && !sealed ? p.queue.hold(runId, context) : undefined;
      const record = await queue(
        runId,
        stored,
        client,
        graph,
        {
          graph: graph.name,
          clientThreadId: client,
          tenant: tenancy.tenant,
          options: hasContext ? plain : options,
          ...(sealed ? { sealedContext: seal(p.recordsKey!, context, runId) } : {}),
          stateless,
          keep,
          modes,
          subgraphs: body.stream_subgraphs ?? false,
          multitaskStrategy: strategy,
        },
        asked.metadata,
        held,
      );
      c.header("Content-Location", `/threads/${encodeURIComponent(client)}/runs/${record.run_id}`);
      await learnsGraph();
      return {
        record,
        storedThreadId: stored,
        live: undefined,
        cancelOnDisconnect: body.on_disconnect === "cancel",
      };
    }
    const run = await p.runs.start({
      exec: p.exec,
      graphPath: graph.path,
      assistantId: graph.assistantId,
      storedThreadId: stored,
      clientThreadId: client,
      tenant: tenancy.tenant,
      options,
      modes,
      subgraphs: body.stream_subgraphs ?? false,
      metadata: asked.metadata ?? {},
      multitaskStrategy: strategy,
      capReading,
    });
    await learnsGraph();
    // A stateless run's thread goes once the run has ended — for `runs.wait`, once its values
    // are read (the route calls it then).
    const forget =
      stateless && !keep
        ? async () => {
            await p.exec.deleteThread(stored).catch(() => false);
            await p.store.deleteThread(stored).catch(() => false);
          }
        : undefined;
    if (forget && !readsValues) run.done.then(forget);
    c.header(
      "Content-Location",
      `/threads/${encodeURIComponent(client)}/runs/${run.record.run_id}`,
    );
    return {
      record: run.record,
      storedThreadId: stored,
      live: run,
      forget,
      cancelOnDisconnect: body.on_disconnect === "cancel",
    };
  }

  /** The run driven here, if it is: queued when the view was made, maybe taken here since. */
  const liveOf = (run: RunView) => run.live ?? p.runs.get(run.record.run_id);

  /** Stops a run: here, or — driven by another replica — through its record (run-queue.ts). */
  async function cancel(run: RunView): Promise<void> {
    const live = liveOf(run);
    if (live) live.abort.abort();
    else await p.store.requestCancel(run.record.run_id);
  }

  /**
   * With `on_disconnect: "cancel"` (the SDK's `useStream` sends it unless its stream is
   * resumable), a client that leaves before the run has ended cancels it, as on LangGraph's
   * server: its Stop button stops the run, and the thread is free for the next.
   */
  function cancelWhenLeft(run: RunView, left: AbortSignal): void {
    if (!run.cancelOnDisconnect) return;
    left.addEventListener(
      "abort",
      () => {
        if (liveOf(run)?.finished) return;
        cancel(run).catch(() => {
          // A record store gone (the server stopping): the run ends with the server.
        });
      },
      { once: true },
    );
  }

  /**
   * A background run into the queue: refused at once if the thread is busy, or its tenant has
   * as many queued as it may (429). `held`: its context, kept here, and the run pinned here.
   */
  async function queue(
    runId: string,
    stored: string,
    client: string,
    graph: { assistantId: string },
    request: QueuedRequest,
    metadata: Record<string, unknown>,
    held: HeldContext | undefined,
  ): Promise<RunRecord> {
    try {
      const record = await enqueue(runId, stored, client, graph, request, metadata, !!held);
      held?.queued();
      return record;
    } catch (e) {
      held?.drop();
      throw e;
    }
  }

  async function enqueue(
    runId: string,
    stored: string,
    client: string,
    graph: { assistantId: string },
    request: QueuedRequest,
    metadata: Record<string, unknown>,
    pinned: boolean,
  ): Promise<RunRecord> {
    if (request.multitaskStrategy !== "enqueue" && (await p.runs.active(stored)))
      throw new ApiError(
        409,
        "thread-busy",
        `thread \`${client}\` is busy: a run is in progress on it`,
        {
          hint: "wait for it (`runs.join`), cancel it, or start this run on another thread; multitask_strategy `reject` is the default",
        },
      );
    const now = new Date().toISOString();
    const record: RunRecord = {
      run_id: runId,
      thread_id: client,
      assistant_id: graph.assistantId,
      created_at: now,
      updated_at: now,
      status: "pending",
      metadata,
      multitask_strategy: request.multitaskStrategy ?? "reject",
    };
    const queued = await p.store.queueRun(
      {
        record,
        storedThreadId: stored,
        tenant: tenantKey(request.tenant),
        pinned: pinned ? p.runs.replica : undefined,
        owner: undefined,
        request,
        cancelRequested: false,
        error: undefined,
      },
      p.caps.maxQueued,
    );
    if (!queued) throw tooManyQueued(p.caps.maxQueued);
    p.queue?.kick();
    return record;
  }

  /** The thread's values once the run has ended, as `runs.wait` and `runs.join` answer. */
  async function finalValues(run: RunView, signal?: AbortSignal): Promise<unknown> {
    let error: RunFailure | undefined;
    let failed = false;
    // Not driven here (yet): queued, or driven by another replica. A queued run this replica
    // takes is followed here from its start, not polled for in the records.
    const ended = run.live ? { live: run.live } : await remoteEnd(p, run.record.run_id, signal);
    const live = "live" in ended ? ended.live : undefined;
    if (live) {
      await live.done;
      const e = live.result?.error ?? live.thrown;
      failed = !live.result || (e !== undefined && e.code !== "cancelled");
      if (e)
        error = clientFailure(
          runFailure(e),
          threadClientView(p, run.storedThreadId, live.record.thread_id),
        );
    } else if ("stored" in ended) {
      // Driven by another replica: its record in the store tells when it has ended.
      failed = ended.stored?.record.status === "error";
      error = ended.stored?.error;
    }
    if (failed) return { __error__: error ?? { error: "error", message: "the run failed" } };
    // A run driven here ran its graph on the thread: read with it, the thread's stored graph is
    // not looked up and checked again (a query and a real path per probe, on every run).
    const s = await p.exec.state(run.storedThreadId, live?.graphPath);
    const values = toPlain(s?.values ?? {}) as Record<string, unknown>;
    const interrupts = s?.tasks.flatMap((t) => t.interrupts) ?? [];
    return interrupts.length ? { ...values, __interrupt__: interrupts } : values;
  }

  /** A queued run once this replica drives it; undefined once another does, or it has ended. */
  async function takenHere(runId: string, signal: AbortSignal): Promise<LiveRun | undefined> {
    for (;;) {
      const live = p.runs.get(runId);
      if (live || signal.aborted) return live;
      if ((await p.store.getRun(runId))?.record.status !== "pending") return p.runs.get(runId);
      await p.runs.startedHere(runId, REMOTE_POLL_MS, signal);
    }
  }

  const sse = (c: C, run: RunView, from: number) =>
    streamSSE(c, async (stream) => {
      const gone = new AbortController();
      // The client left: stop following; the run goes on and can be joined — unless it was to be
      // cancelled then.
      stream.onAbort(() => gone.abort());
      cancelWhenLeft(run, gone.signal);
      // Queued: followed live once this replica takes it (all its events, from the first).
      const live = run.live ?? (await takenHere(run.record.run_id, gone.signal));
      if (!live) {
        const stored = await p.store.getRun(run.record.run_id);
        let i = 0;
        if (stored)
          for await (const e of followRemote(p, stored, gone.signal))
            await stream.writeSSE({
              id: String(i++),
              event: e.event,
              data: JSON.stringify(e.data ?? null),
            });
        return;
      }
      for await (const [i, e] of p.runs.follow(live, from, gone.signal)) {
        await stream.writeSSE({
          id: String(i),
          event: e.event,
          data: JSON.stringify(e.data ?? null),
        });
      }
    });

  /**
   * A run of this caller's thread, or 404: another tenant's run, or one on a thread whose
   * metadata the Auth handler's filters for `action` do not match, is not found.
   */
  const runOf = async (c: C, action: "read" | "update" | "delete" = "read") => {
    const client = c.req.param("thread_id")!;
    const stored = c.get("tenancy").stored(client);
    const runId = c.req.param("run_id")!;
    const filters = await allow(c, "threads", action, { thread_id: client, run_id: runId });
    const live = p.runs.get(runId);
    const run: RunView | undefined = live
      ? { record: live.record, storedThreadId: live.storedThreadId, live }
      : await p.store
          .getRun(runId)
          .then(
            (r) => r && { record: r.record, storedThreadId: r.storedThreadId, live: undefined },
          );
    if (!run || run.storedThreadId !== stored) throw notFound("run", runId);
    if (filters && !matchesFilters((await p.store.getThread(stored))?.metadata ?? {}, filters))
      throw notFound("run", runId);
    return run;
  };

  for (const prefix of ["/threads/:thread_id", ""]) {
    const threadOf = (c: C) => (prefix ? c.req.param("thread_id") : undefined);
    api.post(`${prefix}/runs/stream`, async (c) => sse(c, await start(c, threadOf(c)), 0));
    api.post(`${prefix}/runs/wait`, async (c) => {
      const run = await start(c, threadOf(c), false, true);
      cancelWhenLeft(run, c.req.raw.signal);
      try {
        return c.json(await finalValues(run));
      } finally {
        await run.forget?.();
      }
    });
    api.post(`${prefix}/runs`, async (c) => c.json((await start(c, threadOf(c), true)).record));
  }

  api.get("/threads/:thread_id/runs", async (c) => {
    const client = c.req.param("thread_id");
    const stored = c.get("tenancy").stored(client);
    const filters = await allow(c, "threads", "read", { thread_id: client });
    const thread = await threadView(p, stored, client);
    if (!thread || !matchesFilters(thread.metadata, filters)) throw notFound("thread", client);
    const limit = Number(c.req.query("limit") ?? 10);
    const offset = Number(c.req.query("offset") ?? 0);
    const runs = (await p.store.runsOfThread(stored)).map(
      (r) => p.runs.get(r.record.run_id)?.record ?? r.record,
    );
    return c.json(runs.slice(offset, offset + limit));
  });
  api.get("/threads/:thread_id/runs/:run_id", async (c) => c.json((await runOf(c)).record));
  api.get("/threads/:thread_id/runs/:run_id/join", async (c) =>
    c.json(await finalValues(await runOf(c), c.req.raw.signal)),
  );
  api.get("/threads/:thread_id/runs/:run_id/stream", async (c) => {
    // `joinStream(…, { cancelOnDisconnect })`: leaving cancels the run, so the caller must be
    // one who may cancel it (the Auth handler's `update`), not only follow it.
    const cancelOnDisconnect = truthy(c.req.query("cancel_on_disconnect"));
    const run = { ...(await runOf(c, cancelOnDisconnect ? "update" : "read")), cancelOnDisconnect };
    const last = Number(c.req.header("last-event-id"));
    const from = Number.isInteger(last) && last >= 0 ? last + 1 : 0;
    // Events past the retention bounds are gone (event-retention.ts): said now, not mid-stream.
    if (run.live && from < run.live.events.first) throw eventsNotKept(run.live, from);
    return sse(c, run, from);
  });
  api.post("/threads/:thread_id/runs/:run_id/cancel", async (c) => {
    const run = await runOf(c, "update");
    await cancel(run);
    if (truthy(c.req.query("wait"))) await finalValues(run, c.req.raw.signal);
    return c.body(null, 202);
  });
  api.delete("/threads/:thread_id/runs/:run_id", async (c) => {
    const run = await runOf(c, "delete");
    if (run.live ? !run.live.finished : ["pending", "running"].includes(run.record.status))
      throw new ApiError(409, "run-in-progress", "the run is still in progress", {
        hint: "cancel it first",
      });
    return c.body(null, 204);
  });
  return api;
}

/** A query flag as the SDK sends it ("1"/"0"), or as a person types it ("true"). */
const truthy = (v: string | undefined) => v === "1" || v === "true";
