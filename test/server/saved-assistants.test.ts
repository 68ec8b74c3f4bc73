/**
 * Saved assistants (issue 27, item 6) through the official SDK against the server, on SQLite and
 * PostgreSQL records: create, update (versions), setLatest, search, get, graph and schemas, delete;
 * a run with a saved assistant's id runs with its configuration under the run's own; a graph's own
 * assistant is read-only; one tenant never sees nor runs another's; bounded; a context's secrets
 * never in the database in plaintext.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, type Config } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createExecutor,
  folderCatalog,
  type RunningServer,
  type ServeOptions,
  serverAuth,
  startServer,
} from "../../src/index.js";
import { freshDatabase, serverUrl } from "../support/postgres.js";

const FIXTURES = join(import.meta.dirname, "../fixtures");
const API_KEY = "sk-live-3c9e1a7b5d2f8046";
const VAULT = "vault-9d2b7e4a1c6f3058";
const RECORDS_KEY = "5c".repeat(32);

let dir: string;
let graphs: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "graphspec-saved-assistants-"));
  // chooser (models from `allow`, tools) and keyed (a `secret: true` context), with their modules.
  graphs = join(dir, "project", "graphs");
  cpSync(join(FIXTURES, "server/graphs"), graphs, { recursive: true });
  cpSync(join(FIXTURES, "server-records/graphs/keyed.yaml"), join(graphs, "keyed.yaml"));
  cpSync(join(FIXTURES, "server/nodes"), join(dir, "project", "nodes"), { recursive: true });
  cpSync(join(FIXTURES, "server-records/nodes"), join(dir, "project", "nodes"), {
    recursive: true,
  });
  writeFileSync(join(dir, "project", "package.json"), '{ "type": "module" }\n');
  writeFileSync(join(dir, "open-gate"), "");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const addThenAnswer = (answer: string) => [
  { tool_calls: [{ name: "add", args: { a: 2, b: 3 } }] },
  { text: answer },
];
const SCRIPTS = { small: addThenAnswer("small says 5"), large: addThenAnswer("large says 5") };

interface Records {
  name: string;
  exec: () => ServeOptions["exec"];
  records: ServeOptions["records"];
  /** Everything the database holds, as text. */
  text(): Promise<string>;
}

function sqliteRecords(name: string): Records {
  const sqlitePath = join(dir, name, "state.db");
  return {
    name,
    exec: () =>
      createExecutor({
        dir: graphs,
        checkpointer: "sqlite",
        sqlitePath,
        scripts: SCRIPTS as never,
      }),
    records: { sqlite: sqlitePath },
    async text() {
      const folder = join(dir, name);
      return readdirSync(folder, { withFileTypes: true })
        .filter((f) => f.isFile() && f.name.startsWith("state.db"))
        .map((f) => readFileSync(join(folder, f.name)).toString("latin1"))
        .join("\n");
    },
  };
}

async function postgresRecords(name: string): Promise<Records> {
  const databaseUrl = await freshDatabase(name);
  const { default: pg } = await import("pg");
  return {
    name,
    exec: () =>
      createExecutor({
        dir: graphs,
        checkpointer: "postgres",
        databaseUrl,
        scripts: SCRIPTS as never,
      }),
    records: { postgres: databaseUrl },
    async text() {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        const tables = await client.query(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
        );
        const out: string[] = [];
        for (const { table_name } of tables.rows)
          for (const row of (await client.query(`SELECT * FROM "${table_name}"`)).rows)
            for (const v of Object.values(row))
              out.push(Buffer.isBuffer(v) ? v.toString("latin1") : JSON.stringify(v));
        return out.join("\n");
      } finally {
        await client.end();
      }
    },
  };
}

async function serve(
  r: Records,
  o: Partial<ServeOptions> & { keys?: Record<string, string> } = {},
): Promise<RunningServer> {
  const { keys, ...rest } = o;
  let auth: ServeOptions["auth"];
  if (keys) {
    const file = join(dir, `${r.name}-keys.json`);
    writeFileSync(file, JSON.stringify(keys));
    auth = await serverAuth({ apiKeys: file });
  }
  return startServer({
    exec: r.exec(),
    graphs: await folderCatalog(graphs),
    auth,
    records: r.records,
    ...rest,
  });
}

const clientOf = (s: RunningServer, apiKey?: string) =>
  new Client({ apiUrl: s.url, apiKey: apiKey ?? null, callerOptions: { maxRetries: 0 } });

const input = { messages: [{ role: "user", content: "2 + 3?" }] };
type Message = { type: string; content: unknown; artifact?: unknown };
const messagesOf = (values: unknown) => (values as { messages: Message[] }).messages;

/** The status and JSON body of a request the SDK would throw on. */
async function answer(s: RunningServer, method: string, path: string, body?: unknown) {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const stores: [string, () => Promise<Records> | Records][] = [
  ["SQLite", () => sqliteRecords("sqlite")],
  ...(serverUrl()
    ? [
        ["PostgreSQL", () => postgresRecords("saved_assistants")] as [
          string,
          () => Promise<Records>,
        ],
      ]
    : []),
];

describe.each(stores)("saved assistants on %s records", (_name, records) => {
  let r: Records;
  let s: RunningServer;
  beforeAll(async () => {
    r = await records();
    s = await serve(r, { recordsKey: RECORDS_KEY });
  });
  afterAll(() => s.close(1000));

  it("creates, gets, searches, versions, sets the latest and deletes, as the SDK expects", async () => {
    const client = clientOf(s);
    const made = await client.assistants.create({
      graphId: "chooser",
      name: "Large and shouting",
      description: "chooses the large model",
      config: { configurable: { model: "large" } },
      metadata: { team: "blue" },
    });
    expect(made).toMatchObject({
      graph_id: "chooser",
      name: "Large and shouting",
      description: "chooses the large model",
      config: { configurable: { model: "large" } },
      context: {},
      metadata: { team: "blue" },
      version: 1,
    });
    expect(made.assistant_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await client.assistants.get(made.assistant_id)).toEqual(made);

    const mine = await client.assistants.search({ graphId: "chooser" });
    expect(mine.map((a) => a.assistant_id)).toContain(made.assistant_id);
    expect(mine.map((a) => a.name)).toContain("chooser");
    expect(await client.assistants.search({ name: "SHOUTING" })).toEqual([made]);
    expect(await client.assistants.search({ metadata: { team: "blue" } })).toEqual([made]);
    expect(await client.assistants.search({ metadata: { team: "red" } })).toEqual([]);
    expect(await client.assistants.count({ graphId: "chooser" })).toBe(2);
    const byName = await client.assistants.search({ sortBy: "name", sortOrder: "asc" });
    const names = byName.map((a) => a.name);
    expect(names).toEqual([...names].sort((x, y) => x.localeCompare(y)));

    const updated = await client.assistants.update(made.assistant_id, {
      config: { configurable: { model: "default" }, recursion_limit: 12 },
      metadata: { stage: "two" },
    });
    expect(updated).toMatchObject({
      version: 2,
      config: { configurable: { model: "default" }, recursion_limit: 12 },
      metadata: { team: "blue", stage: "two" },
      name: "Large and shouting",
    });
    const versions = await client.assistants.getVersions(made.assistant_id);
    expect(versions.map((v) => v.version)).toEqual([2, 1]);
    expect(versions[1]).toMatchObject({ config: { configurable: { model: "large" } } });
    const back = await client.assistants.setLatest(made.assistant_id, 1);
    expect(back).toMatchObject({ version: 1, config: { configurable: { model: "large" } } });
    // Numbered past the newest, not the latest.
    const third = await client.assistants.update(made.assistant_id, { name: "third" });
    expect(third.version).toBe(3);

    // The same graph: its drawing and schemas.
    expect(await client.assistants.getGraph(made.assistant_id)).toEqual(
      await client.assistants.getGraph("chooser"),
    );
    expect(await client.assistants.getSchemas(made.assistant_id)).toEqual(
      await client.assistants.getSchemas("chooser"),
    );

    await client.assistants.delete(made.assistant_id);
    const gone = await answer(s, "GET", `/assistants/${made.assistant_id}`);
    expect(gone).toMatchObject({ status: 404, body: { error: "assistant-not-found" } });
    expect(await client.assistants.count({ graphId: "chooser" })).toBe(1);
  });

  it("a run with a saved assistant runs with its config, under the run's own", async () => {
    const client = clientOf(s);
    const large = await client.assistants.create({
      graphId: "chooser",
      config: { configurable: { model: "large", toolIds: ["shout"] } },
    });
    const thread = await client.threads.create();
    const values = await client.runs.wait(thread.thread_id, large.assistant_id, { input });
    const messages = messagesOf(values);
    expect(messages.at(-1)?.content).toBe("large says 5");
    // Its tool allowlist: `add` was denied.
    expect(messages.find((m) => m.type === "tool")).toMatchObject({
      artifact: { errorCode: "policy_denied", tool: "add", allowedTools: ["shout"] },
    });
    const [run] = await client.runs.list(thread.thread_id);
    expect(run?.assistant_id).toBe(large.assistant_id);

    // The run's own choice wins; the assistant's other keys stay.
    const other = await client.threads.create();
    const chosen = await client.runs.wait(other.thread_id, large.assistant_id, {
      input,
      config: { configurable: { model: "default" } },
    });
    expect(messagesOf(chosen).at(-1)?.content).toBe("small says 5");

    // Its breakpoints, in the background too.
    // graphspec's key beside the SDK's `Config` (it has none for breakpoints): docs/server.md.
    const breakpoints = { interrupt_before: ["two"] } as Config;
    const paused = await client.assistants.create({ graphId: "three-steps", config: breakpoints });
    const third = await client.threads.create();
    const bg = await client.runs.create(third.thread_id, paused.assistant_id, { input: {} });
    expect(bg.assistant_id).toBe(paused.assistant_id);
    await client.runs.join(third.thread_id, bg.run_id);
    expect((await client.threads.getState(third.thread_id)).next).toEqual(["two"]);
  });

  it("refuses a config or context the spec does not allow, naming the field (422)", async () => {
    for (const [body, field, error] of [
      [
        { config: { configurable: { model: "gpt-5" } } },
        "config.configurable.model",
        "model-not-allowed",
      ],
      [{ config: { configurable: { model: 7 } } }, "config.configurable.model", "invalid-request"],
      [{ config: { recursion_limit: 0 } }, "config.recursion_limit", "invalid-run-option"],
      [{ config: { interrupt_before: ["nope"] } }, "config.interrupt_before", "invalid-run-option"],
      [{ config: { interrupt_after: "all" } }, "config.interrupt_after", "invalid-request"],
      [
        { config: { configurable: { toolIds: "add" } } },
        "config.configurable.toolIds",
        "invalid-request",
      ],
      // A stand-in is graphspec dev's: serve refuses it, as for a run.
      [
        { config: { configurable: { graphspec_stand_in: "x" } } },
        "config.configurable.graphspec_stand_in",
        "invalid-request",
      ],
    ] as const) {
      const res = await answer(s, "POST", "/assistants", { graph_id: "chooser", ...body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ field, error });
      expect(res.body.hint).toBeTruthy();
    }
    const context = await answer(s, "POST", "/assistants", {
      graph_id: "keyed",
      context: { user: 42 },
    });
    expect(context).toMatchObject({
      status: 422,
      body: { error: "invalid-context", field: "context.user" },
    });
    const graph = await answer(s, "POST", "/assistants", { graph_id: "nope" });
    expect(graph).toMatchObject({
      status: 422,
      body: { error: "graph-not-found", field: "graph_id" },
    });
    // An update as bad changes nothing.
    const client = clientOf(s);
    const a = await client.assistants.create({ graphId: "chooser" });
    const bad = await answer(s, "PATCH", `/assistants/${a.assistant_id}`, {
      config: { configurable: { model: "gpt-5" } },
    });
    expect(bad.status).toBe(422);
    expect((await client.assistants.get(a.assistant_id)).version).toBe(1);
  });

  it("a graph's own assistant is read-only (409)", async () => {
    for (const [method, path, body] of [
      ["PATCH", "/assistants/chooser", { name: "mine" }],
      ["DELETE", "/assistants/chooser", undefined],
      ["POST", "/assistants/chooser/latest", { version: 1 }],
    ] as const) {
      const res = await answer(s, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(409);
      expect(res.body).toMatchObject({ error: "assistant-read-only" });
      expect(String(res.body.hint)).toContain("assistants.create");
    }
    const own = await clientOf(s).assistants.get("chooser");
    const taken = await answer(s, "POST", "/assistants", {
      graph_id: "chooser",
      assistant_id: own.assistant_id,
    });
    expect(taken).toMatchObject({ status: 409, body: { error: "assistant-exists" } });
    const kept = await clientOf(s).assistants.create({
      graphId: "chooser",
      assistantId: own.assistant_id,
      ifExists: "do_nothing",
    });
    expect(kept).toEqual(own);
  });

  it("concurrent creates past the cap never overshoot it, on two servers of one database", async () => {
    const client = clientOf(s);
    const before = (await client.assistants.search({ limit: 1000 })).filter(
      (a) => a.metadata?.created_by !== "system",
    ).length;
    const other = await serve(r, { recordsKey: RECORDS_KEY, maxAssistantsPerTenant: before + 3 });
    const capped = await serve(r, { recordsKey: RECORDS_KEY, maxAssistantsPerTenant: before + 3 });
    try {
      const tries = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          answer(i % 2 ? other : capped, "POST", "/assistants", { graph_id: "chooser" }),
        ),
      );
      const statuses = tries.map((t) => t.status).sort();
      expect(statuses).toEqual([200, 200, 200, 403, 403, 403, 403, 403, 403, 403]);
      expect(await client.assistants.count()).toBe(before + 3 + 5);
    } finally {
      await other.close(1000);
      await capped.close(1000);
    }
  });

  it("a context's secrets are sealed in the database, shown as ***, and given to runs", async () => {
    const client = clientOf(s);
    const a = await client.assistants.create({
      graphId: "keyed",
      name: `keyed ${VAULT}`,
      context: { api_key: API_KEY, vault: VAULT, user: "ada" },
    });
    expect(a.context).toEqual({ api_key: "***", vault: "***", user: "ada" });
    // Masked by value wherever else it was written.
    expect(a.name).toBe("keyed ***");
    const stored = await r.text();
    expect(stored).toContain("gs1:");
    expect(stored).not.toContain(API_KEY);
    expect(stored).not.toContain(VAULT);
    // An update that gives `***` back keeps the secret it stands for.
    const renamed = await client.assistants.update(a.assistant_id, {
      context: { api_key: "***", vault: "***", user: "grace" },
    });
    expect(renamed.context).toEqual({ api_key: "***", vault: "***", user: "grace" });
    const thread = await client.threads.create();
    const values = await client.runs.wait(thread.thread_id, a.assistant_id, {
      input: { gate: join(dir, "open-gate") },
    });
    expect(values).toMatchObject({ done: true, key_length: API_KEY.length, vault_ok: true });
    const after = await r.text();
    expect(after).not.toContain(API_KEY);
    expect(after).not.toContain(VAULT);
  });
});

describe("saved assistants, bounded and per tenant", () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await serve(sqliteRecords("tenants"), {
      keys: { "key-a-0123456789abcdef": "tenant-a", "key-b-0123456789abcdef": "tenant-b" },
      maxAssistantsPerTenant: 2,
      maxAssistantBytes: 2048,
    });
  });
  afterAll(() => s.close(1000));

  it("one tenant never sees, runs, changes nor deletes another's", async () => {
    const a = clientOf(s, "key-a-0123456789abcdef");
    const b = clientOf(s, "key-b-0123456789abcdef");
    const mine = await a.assistants.create({
      graphId: "chooser",
      name: "a's",
      config: { configurable: { model: "large" } },
    });
    const id = mine.assistant_id;
    expect((await b.assistants.search()).map((x) => x.assistant_id)).not.toContain(id);
    expect(await b.assistants.count()).toBe(5);
    const thread = await b.threads.create();
    for (const attempt of [
      () => b.assistants.get(id),
      () => b.assistants.getGraph(id),
      () => b.assistants.getSchemas(id),
      () => b.assistants.getVersions(id),
      () => b.assistants.update(id, { name: "b's now" }),
      () => b.assistants.setLatest(id, 1),
      () => b.assistants.delete(id),
      () => b.runs.wait(thread.thread_id, id, { input, raiseError: true }),
    ])
      await expect(attempt()).rejects.toThrow(/404|no assistant/);
    // The same id is free in b's tenant: b's own, a's untouched.
    const theirs = await b.assistants.create({ graphId: "chooser", assistantId: id, name: "b's" });
    expect(theirs.name).toBe("b's");
    expect((await a.assistants.get(id)).name).toBe("a's");
    await b.assistants.delete(id);
    expect((await a.assistants.get(id)).name).toBe("a's");
  });

  it("refuses a tenant's assistant past the count (403) or the size (413), with a code", async () => {
    const a = clientOf(s, "key-a-0123456789abcdef");
    const b = clientOf(s, "key-b-0123456789abcdef");
    for (const x of await b.assistants.search({ limit: 100 }))
      if (x.metadata?.created_by !== "system") await b.assistants.delete(x.assistant_id);
    await b.assistants.create({ graphId: "chooser" });
    await b.assistants.create({ graphId: "chooser" });
    const over = await fetch(`${s.url}/assistants`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "key-b-0123456789abcdef" },
      body: JSON.stringify({ graph_id: "chooser" }),
    });
    expect(over.status).toBe(403);
    expect(await over.json()).toMatchObject({ error: "too-many-assistants" });
    // Another tenant's count is its own.
    const big = await fetch(`${s.url}/assistants`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "key-a-0123456789abcdef" },
      body: JSON.stringify({ graph_id: "chooser", context: { notes: "x".repeat(4000) } }),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: "assistant-too-large" });
    expect((await a.assistants.create({ graphId: "chooser" })).version).toBe(1);
  });

  it("without a records key, a context's secrets are refused, not stored in plaintext", async () => {
    const res = await fetch(`${s.url}/assistants`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "key-a-0123456789abcdef" },
      body: JSON.stringify({ graph_id: "keyed", context: { vault: VAULT } }),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      error: "secret-not-kept",
      field: "context.vault",
      hint: expect.stringContaining("GRAPHSPEC_RECORDS_KEY"),
    });
  });
});
