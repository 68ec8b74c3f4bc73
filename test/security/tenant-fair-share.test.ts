/**
 * One tenant's flood of background runs (issue 23, item 8). Tenant A's 300 queued runs kept
 * tenant B's one-step run pending 36.6 s: the queue took the oldest run of anyone, and a run with
 * a context and no records key skipped the queue altogether. Through the official SDK (and raw
 * requests for the headers) against the server on SQLite, PostgreSQL and in memory: B's run ends
 * while A's flood is still queued (an order, not a time), A is held to its running cap, and past
 * its queued cap `runs.create` is a 429 with `retry-after` that the SDK does not retry — with and
 * without a context (held in the accepting replica's memory); a queued run whose context is in a
 * stopping replica's memory ends `replica-stopped`, not left queued for ever.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createExecutor,
  folderCatalog,
  type RunningServer,
  type ServeOptions,
  serverAuth,
  startServer,
} from "../../src/index.js";
import { freshDatabase, serverUrl } from "../support/postgres.js";

const GRAPHS = join(import.meta.dirname, "../fixtures/tenant-share/graphs");
const BIN = join(import.meta.dirname, "../../bin/graphspec.js");
const spawned: ChildProcess[] = [];
const KEY_A = "tenant-a-key-0123456789";
const KEY_B = "tenant-b-key-0123456789";

interface Gates {
  open: boolean;
  waiting: (() => void)[];
}
const gates = (): Gates =>
  ((globalThis as { __tenantShareGates?: Gates }).__tenantShareGates ??= {
    open: false,
    waiting: [],
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let dir: string;
let server: RunningServer | undefined;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "graphspec-tenant-share-"));
});
afterEach(async () => {
  // Every held run passes, so the server can close.
  const g = gates();
  g.open = true;
  for (const go of g.waiting.splice(0)) go();
  await server?.close(5000);
  server = undefined;
  g.open = false;
});
afterAll(() => {
  for (const p of spawned) if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

type Store = "sqlite" | "postgres" | "memory";
const STORES: Store[] = ["sqlite", "postgres", "memory"];
let n = 0;

async function serve(
  store: Store,
  o: { tenants?: boolean } & Pick<ServeOptions, "maxQueuedPerTenant" | "maxRunningPerTenant"> = {},
): Promise<string> {
  const name = `share_${store}_${++n}`;
  const sqlitePath = join(dir, `${name}.db`);
  const databaseUrl = store === "postgres" ? await freshDatabase(name) : "";
  const exec =
    store === "postgres"
      ? createExecutor({ dir: GRAPHS, checkpointer: "postgres", databaseUrl })
      : createExecutor({ dir: GRAPHS, checkpointer: store, sqlitePath });
  const keys = join(dir, `${name}.json`);
  writeFileSync(keys, JSON.stringify({ [KEY_A]: "tenant-a", [KEY_B]: "tenant-b" }));
  const { tenants = true, ...caps } = o;
  server = await startServer({
    exec,
    graphs: await folderCatalog(GRAPHS),
    auth: tenants ? await serverAuth({ apiKeys: keys }) : undefined,
    records:
      store === "postgres"
        ? { postgres: databaseUrl }
        : store === "sqlite"
          ? { sqlite: sqlitePath }
          : "memory",
    ...caps,
  });
  return server.url;
}

/** The SDK as a user has it: its default retries on. */
const sdk = (url: string, apiKey?: string) => new Client({ apiUrl: url, apiKey: apiKey ?? null });

/** Starts `count` background runs of `held` (stateless), with a context or not. */
async function flood(client: Client, count: number, context: boolean) {
  const runs: { thread_id: string; run_id: string }[] = [];
  for (let i = 0; i < count; i++)
    runs.push(
      await client.runs.create(null, "held", {
        input: {},
        ...(context ? { context: { user: "a" } } : {}),
      }),
    );
  return runs;
}

async function statuses(client: Client, runs: { thread_id: string; run_id: string }[]) {
  const count: Record<string, number> = {};
  for (const r of runs) {
    const { status } = await client.runs.get(r.thread_id, r.run_id);
    count[status] = (count[status] ?? 0) + 1;
  }
  return count;
}

/**
 * Waits for B's run to succeed, letting A's held runs go one at a time while B's is still queued
 * behind `full` of them running (without fair share it waits for A's whole flood to be taken).
 */
async function untilDone(b: Client, run: { thread_id: string; run_id: string }, full: number) {
  for (;;) {
    const { status } = await b.runs.get(run.thread_id, run.run_id);
    if (status === "success") return;
    const go = status === "pending" && gates().waiting.length >= full && gates().waiting.shift();
    if (go) go();
    else await sleep(10);
  }
}

/** A 429 the SDK threw: its status and JSON body. */
async function refusal(p: Promise<unknown>) {
  const e = (await p.then(
    () => undefined,
    (e) => e,
  )) as { status?: number; text?: string } | undefined;
  expect(e, "the request was accepted").toBeDefined();
  return { status: e!.status, body: JSON.parse(e!.text ?? "{}") as Record<string, string> };
}

for (const store of STORES)
  describe.skipIf(store === "postgres" && !serverUrl())(`on ${store}`, () => {
    for (const context of [false, true])
      it(`B's one-step run ends while A's flood${context ? " (with a context, no records key)" : ""} is still queued`, async () => {
        const url = await serve(store);
        const a = sdk(url, KEY_A);
        const b = sdk(url, KEY_B);
        const flooded = await flood(a, 60, context);
        const thread = await b.threads.create();
        const mine = await b.runs.create(thread.thread_id, "one-step", { input: {} });
        await untilDone(b, mine, 8);
        const a_ = await statuses(a, flooded);
        // Held to its running cap (8), the rest of A's flood still queued behind itself.
        expect(a_.running ?? 0).toBeLessThanOrEqual(8);
        expect(a_.pending).toBeGreaterThanOrEqual(40);
        expect(await b.runs.join(thread.thread_id, mine.run_id)).toMatchObject({ n: 1 });
      });

    it("with A under its running cap, the next free slot goes to B: the least busy tenant first", async () => {
      // A may fill the replica's 16 slots: B's run gets the first one A's runs free.
      const url = await serve(store, { maxRunningPerTenant: 100 });
      const a = sdk(url, KEY_A);
      const b = sdk(url, KEY_B);
      const flooded = await flood(a, 60, false);
      while (gates().waiting.length < 16) await sleep(10);
      const thread = await b.threads.create();
      const mine = await b.runs.create(thread.thread_id, "one-step", { input: {} });
      await untilDone(b, mine, 16);
      // One of A's let go, its slot taken by B's run (and given back to A's once B's ended).
      expect((await statuses(a, flooded)).pending).toBeGreaterThanOrEqual(60 - 16 - 2);
    });

    for (const context of [false, true])
      it(`A past its caps${context ? " (with a context, no records key)" : ""}: 429 with retry-after, B unaffected`, async () => {
        const url = await serve(store, { maxQueuedPerTenant: 20, maxRunningPerTenant: 4 });
        const a = sdk(url, KEY_A);
        const b = sdk(url, KEY_B);
        // A's first 4 run (held), and stay running: the queue takes no more of A's.
        const first = await flood(a, 4, context);
        while (gates().waiting.length < 4) await sleep(10);
        let accepted = 0;
        let refused: Awaited<ReturnType<typeof refusal>> | undefined;
        while (!refused && accepted < 40) {
          const create = a.runs.create(null, "held", {
            input: {},
            ...(context ? { context: { user: "a" } } : {}),
          });
          const answer = await create.then(
            () => undefined,
            () => refusal(create),
          );
          if (answer) refused = answer;
          else accepted++;
        }
        expect(accepted).toBe(20);
        expect(await statuses(a, first)).toEqual({ running: 4 });
        expect(refused?.status).toBe(429);
        expect(refused?.body).toMatchObject({
          error: "too-many-queued-runs",
          message: expect.stringContaining("20 background runs queued"),
          hint: expect.stringContaining("--max-queued-per-tenant"),
        });
        // The SDK, its retries on, sends the refused request once: a 429 on a POST is not retried.
        let sent = 0;
        const counted = new Client({
          apiUrl: url,
          apiKey: KEY_A,
          callerOptions: {
            fetch: (...args: Parameters<typeof fetch>) => {
              sent++;
              return fetch(...args);
            },
          },
        });
        expect((await refusal(counted.runs.create(null, "held", { input: {} }))).status).toBe(429);
        expect(sent).toBe(1);
        // The header, as a raw client sees it.
        const raw = await fetch(`${url}/runs`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": KEY_A },
          body: JSON.stringify({ assistant_id: "held", input: {} }),
        });
        expect(raw.status).toBe(429);
        expect(raw.headers.get("retry-after")).toBe("5");
        // A has 4 running: a streamed run is over its running cap, at once.
        const waited = await refusal(a.runs.wait(null, "one-step", { input: {} }));
        expect(waited.status).toBe(429);
        expect(waited.body).toMatchObject({
          error: "too-many-running-runs",
          hint: expect.stringContaining("--max-running-per-tenant"),
        });
        // Refused before its body is read: a body that would be refused (not JSON, past the body
        // bound) is not what A is told — its cap is, so a flood at the cap costs no body parsing.
        for (const body of ["{not json", `{"input":"${"x".repeat(5 * 1024 * 1024)}"}`]) {
          const early = await fetch(`${url}/runs/wait`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-api-key": KEY_A },
            body,
          });
          expect(early.status).toBe(429);
          expect(await early.json()).toMatchObject({ error: "too-many-running-runs" });
        }
        // B has its own share.
        expect(await b.runs.wait(null, "one-step", { input: {} })).toMatchObject({ n: 1 });
        const thread = await b.threads.create();
        const queued = await b.runs.create(thread.thread_id, "one-step", { input: {} });
        expect(await b.runs.join(thread.thread_id, queued.run_id)).toMatchObject({ n: 1 });
      });
  });

describe("a queued run whose context is in the replica's memory", () => {
  it("ends replica-stopped when that replica stops before taking it (no other replica can run it)", async () => {
    const sqlitePath = join(dir, "pinned-stop.db");
    const start = async () =>
      startServer({
        exec: createExecutor({ dir: GRAPHS, checkpointer: "sqlite", sqlitePath }),
        graphs: await folderCatalog(GRAPHS),
        auth: undefined,
        records: { sqlite: sqlitePath },
        maxRunningPerTenant: 1,
      });
    const first = await start();
    const client = sdk(first.url);
    const [running, queued] = await flood(client, 2, true);
    while (gates().waiting.length < 1) await sleep(10);
    // Once asked to close, the replica takes no more runs: the held one may finish then.
    const closing = first.close(5000);
    for (const go of gates().waiting.splice(0)) go();
    await closing;
    server = await start();
    const again = sdk(server.url);
    expect((await again.runs.get(running!.thread_id, running!.run_id)).status).toBe("success");
    expect((await again.runs.get(queued!.thread_id, queued!.run_id)).status).toBe("error");
    expect(await again.runs.join(queued!.thread_id, queued!.run_id)).toMatchObject({
      __error__: {
        error: "replica-stopped",
        hint: expect.stringContaining("GRAPHSPEC_RECORDS_KEY"),
      },
    });
  });
});

/** `graphspec serve` (the built CLI) on a SQLite file in `cwd`; resolves once it prints its URL. */
async function serveProcess(cwd: string, ...extra: string[]) {
  const proc = spawn(
    process.execPath,
    [BIN, "serve", GRAPHS, "--no-auth", "--port", "0", "--host", "127.0.0.1", ...extra],
    { cwd, stdio: ["ignore", "pipe", "pipe"] },
  );
  spawned.push(proc);
  const exited = new Promise<void>((r) => proc.once("exit", () => r()));
  let out = "";
  const url = await new Promise<string>((resolve, reject) => {
    proc.stdout!.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(out.split("\n")[0]!);
    });
    exited.then(() => reject(new Error("serve exited before it was ready")));
  });
  return { proc, url, exited };
}

describe("runs pinned to a replica that is killed", () => {
  it("end replica-lost, the queued one as the running one, once its heartbeat is stale", async () => {
    const cwd = mkdtempSync(join(dir, "killed-"));
    const args = ["--heartbeat", "100", "--max-running-per-tenant", "1"];
    const doomed = await serveProcess(cwd, ...args);
    const client = sdk(doomed.url);
    // Held for ever in that process: one running, one queued behind it (its tenant's cap).
    const runs = await flood(client, 2, true);
    while ((await statuses(client, runs)).running !== 1) await sleep(20);
    doomed.proc.kill("SIGKILL");
    await doomed.exited;
    const survivor = await serveProcess(cwd, ...args);
    const again = sdk(survivor.url);
    for (const r of runs) {
      while (["pending", "running"].includes((await again.runs.get(r.thread_id, r.run_id)).status))
        await sleep(20);
      expect(await again.runs.join(r.thread_id, r.run_id)).toMatchObject({
        __error__: {
          error: "replica-lost",
          hint: expect.stringContaining("GRAPHSPEC_RECORDS_KEY"),
        },
      });
    }
    survivor.proc.kill("SIGTERM");
    await survivor.exited;
  });
});

describe("without authentication, every caller is one tenant", () => {
  it("its queued runs are capped, and past its running cap new ones wait their turn", async () => {
    const url = await serve("sqlite", {
      tenants: false,
      maxQueuedPerTenant: 3,
      maxRunningPerTenant: 2,
    });
    const client = sdk(url);
    const runs = await flood(client, 3, false);
    // Two taken to run, one queued: two more may queue, the next is refused.
    while (gates().waiting.length < 2) await sleep(10);
    runs.push(...(await flood(client, 2, false)));
    const over = await refusal(client.runs.create(null, "held", { input: {} }));
    expect(over.status).toBe(429);
    expect(await statuses(client, runs)).toEqual({ running: 2, pending: 3 });
  });
});
