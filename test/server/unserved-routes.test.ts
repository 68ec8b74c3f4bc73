/**
 * Every route LangGraph Studio or the SDK may call (issue 30): each route of the installed
 * LangGraph server (`@langchain/langgraph-api`, read from its files) is served here or answered as
 * docs/server.md's "What is not served" says — a 501 (or 404) naming the route and why, never the
 * bare 404 of a path nobody knows. An upgrade of LangGraph's server that adds a route fails here
 * until it is served or listed; so does a path the installed SDK calls that answers nothing but the
 * bare 404 by any method. The routes served since issue 30 are checked with the SDK.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, type Harness, startHarness } from "./harness.js";

const ROOT = join(import.meta.dirname, "../..");
const LANGGRAPH_API = join(
  ROOT,
  "node_modules/@langchain/langgraph-cli/node_modules/@langchain/langgraph-api/dist",
);

interface Route {
  method: string;
  /** With `{name}` for a path parameter, as docs/server.md writes it. */
  path: string;
}

/** The rows of docs/server.md's "What is not served" table. */
function documented(): (Route & { status: number })[] {
  const text = readFileSync(join(ROOT, "docs/server.md"), "utf8");
  const section = text.slice(text.indexOf("### What is not served"));
  const table = section.slice(0, section.indexOf("\n### "));
  return [...table.matchAll(/^\| `(GET|POST|PUT|PATCH|DELETE) ([^`]+)` \| (\d{3}) \|/gm)].map(
    (m) => ({ method: m[1]!, path: m[2]!, status: Number(m[3]) }),
  );
}

/** The routes LangGraph's server declares (`api.post("/threads/:thread_id/copy", …)`). */
function upstream(): Route[] {
  const files = [
    ...readdirSync(join(LANGGRAPH_API, "api")).map((f) => join(LANGGRAPH_API, "api", f)),
    join(LANGGRAPH_API, "ui/load.mjs"),
  ].filter((f) => f.endsWith(".mjs"));
  const routes: Route[] = [];
  for (const f of files)
    for (const m of readFileSync(f, "utf8").matchAll(
      /\bapi\.(get|post|put|patch|delete)\(\s*"([^"]+)"/g,
    )) {
      const path = m[2]!.replace(/:(\w+)/g, "{$1}");
      // `/subgraphs/:namespace?`: both forms.
      for (const p of path.includes("?")
        ? [path.replace(/\/\{\w+\}\?$/, ""), path.replace("?", "")]
        : [path])
        routes.push({ method: m[1]!.toUpperCase(), path: p });
    }
  return routes;
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

/** A request to `route` with made-up ids: its status and JSON body. */
async function call(route: Route): Promise<{ status: number; body: Record<string, unknown> }> {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === "assistant_id" || name === "agent"
      ? "approval"
      : "00000000-0000-4000-8000-000000000000",
  );
  const r = await fetch(`${h.url}${path}`, {
    method: route.method,
    ...(route.method === "GET" || route.method === "DELETE"
      ? {}
      : { headers: { "content-type": "application/json" }, body: "{}" }),
  });
  const text = await r.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text);
  } catch {
    body = { text };
  }
  return { status: r.status, body };
}

describe("routes graphspec does not serve", () => {
  it("docs/server.md lists them, and each answers as it says, naming the route and why", async () => {
    const rows = documented();
    expect(rows.length).toBeGreaterThan(15);
    for (const row of rows) {
      const { status, body } = await call(row);
      expect({ row, status }).toEqual({ row, status: row.status });
      expect(body).toMatchObject({
        error: row.status === 501 ? "not-implemented" : "not-found",
      });
      const named = row.path.replace(/\{(\w+)\}/g, ":$1");
      expect(String(body.message)).toContain(`${row.method} ${named}: `);
      expect(String(body.hint)).toContain("docs/server.md");
    }
  });

  it("every route of LangGraph's installed server is served or listed there", async () => {
    const listed = new Set(documented().map((r) => `${r.method} ${r.path}`));
    const routes = upstream();
    // The files were read: a layout change of the package must not pass as "no routes".
    expect(routes.length).toBeGreaterThan(40);
    const bare: string[] = [];
    for (const route of routes) {
      // LangGraph's own test hook (it empties the server's storage), not an API a client calls.
      if (route.path.startsWith("/internal/")) continue;
      if (listed.has(`${route.method} ${route.path}`)) continue;
      const { body } = await call(route);
      // Served: any answer but the generic "no endpoint" (a 404 naming a thread is served).
      if (body.error === "not-found" && String(body.message).startsWith("no endpoint"))
        bare.push(`${route.method} ${route.path}`);
    }
    expect(bare).toEqual([]);
  });

  it("every path the installed SDK's Client calls is served or listed, by some method", async () => {
    const dir = join(ROOT, "node_modules/@langchain/langgraph-sdk/dist/client");
    const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) =>
      f.endsWith(".js"),
    );
    const paths = new Set<string>();
    for (const f of files)
      for (const m of readFileSync(join(dir, f), "utf8").matchAll(
        /[`"](\/(?:assistants|threads|runs|store|ui|info)[^`"]*)[`"]/g,
      ))
        paths.add(m[1]!.replace(/\$\{[^}]*\}/g, "{id}"));
    expect(paths.size).toBeGreaterThan(30);
    const bare: string[] = [];
    for (const path of paths) {
      let known = false;
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        const { body } = await call({ method, path });
        if (!(body.error === "not-found" && String(body.message).startsWith("no endpoint")))
          known = true;
      }
      if (!known) bare.push(path);
    }
    expect(bare).toEqual([]);
  });

  it("the SDK surfaces the reason: crons, the store and thread copies", async () => {
    const client = h.client();
    await expect(client.crons.search()).rejects.toThrow(/501.*crons/s);
    await expect(client.store.listNamespaces()).rejects.toThrow(/501.*store/s);
    const t = await client.threads.create();
    await expect(client.threads.copy(t.thread_id)).rejects.toThrow(/501.*fork it/s);
  });
});

describe("routes served since LangGraph Studio connects (issue 30)", () => {
  it("/info is shaped as LangGraph's JS server's", async () => {
    expect(await (await fetch(`${h.url}/info`)).json()).toMatchObject({
      context: "js",
      flags: { assistants: true, crons: false, langsmith: false },
    });
  });

  it("assistants.search gives its next page; threads.count counts what search finds", async () => {
    const client = h.client();
    const first = await client.assistants.search({ limit: 3, includePagination: true });
    expect(first.assistants).toHaveLength(3);
    expect(first.next).toBe("3");
    const last = await client.assistants.search({
      limit: 3,
      offset: 3,
      includePagination: true,
    });
    expect(last.assistants).toHaveLength(1);
    expect(last.next).toBeNull();

    const tag = { purpose: `count-${Date.now()}` };
    for (let i = 0; i < 3; i++) await client.threads.create({ metadata: tag });
    expect(await client.threads.count({ metadata: tag })).toBe(3);
    const ran = await client.threads.create({ metadata: tag });
    await client.runs.wait(ran.thread_id, "approval", { input: { draft: "hi" } });
    expect(await client.threads.count({ metadata: tag, status: "interrupted" })).toBe(1);
    // `values` (which the SDK's count sends) filters by the state's top-level keys, search too.
    expect(await client.threads.count({ metadata: tag, values: { draft: "hi" } })).toBe(1);
    expect(await client.threads.count({ metadata: tag, values: { draft: "other" } })).toBe(0);
    const byValues = await client.threads.search({ metadata: tag, values: { draft: "hi" } });
    expect(byValues.map((t) => t.thread_id)).toEqual([ran.thread_id]);
  });

  it("state at a checkpoint by object, history by GET, and a subgraph namespace", async () => {
    const client = h.client();
    const t = await client.threads.create();
    await collect(client.runs.stream(t.thread_id, "approval", { input: { draft: "hi" } }));
    const history = await client.threads.getHistory(t.thread_id, { limit: 10 });
    const oldest = history.at(-1)!;
    const byObject = await client.threads.getState(t.thread_id, oldest.checkpoint);
    expect(byObject.checkpoint.checkpoint_id).toBe(oldest.checkpoint.checkpoint_id);
    expect(byObject.values).toEqual(oldest.values);
    await expect(
      client.threads.getState(t.thread_id, {
        ...oldest.checkpoint,
        checkpoint_id: "no-such-checkpoint",
      }),
    ).rejects.toThrow(/404/);

    const got = await fetch(`${h.url}/threads/${t.thread_id}/history?limit=2`);
    const viaGet = (await got.json()) as { checkpoint: unknown }[];
    expect(viaGet.map((s) => s.checkpoint)).toEqual(history.slice(0, 2).map((s) => s.checkpoint));
    expect(await client.assistants.getSubgraphs("approval", { namespace: "ask" })).toEqual({});
  });
});
