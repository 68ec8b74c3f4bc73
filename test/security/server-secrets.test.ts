/**
 * Secrets behind the server, through the official SDK Client: a model's answer that quotes a
 * secret streams it in pieces of four characters, so no single chunk holds it — the client, which
 * joins the chunks (`messages-tuple`, `events`) or reads the server's joined message
 * (`messages/partial`), must still see `***`; and a value written with `threads.updateState` is
 * stored masked like a run's writes.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, folderCatalog, type RunningServer, startServer } from "../../src/index.js";
import { collect } from "../server/harness.js";

const GRAPHS = join(import.meta.dirname, "../fixtures/server-secrets/graphs");
// Twelve characters before it: the model's 4-character pieces split it as tok- / 0123 / … .
const SECRET = "tok-0123456789abcdef";
const ANSWER = `Your key is ${SECRET}, keep it safe.`;

let dir: string;
let server: RunningServer;
let client: Client;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "graphspec-server-secrets-"));
  const exec = createExecutor({
    dir: GRAPHS,
    checkpointer: "sqlite",
    sqlitePath: join(dir, "state.db"),
    env: { SERVICE_TOKEN: SECRET },
    scripts: { chat: Array.from({ length: 20 }, () => ANSWER) },
  });
  server = await startServer({ exec, graphs: await folderCatalog(GRAPHS), auth: undefined });
  client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
});
afterAll(async () => {
  await server?.close(1000);
  rmSync(dir, { recursive: true, force: true });
});

type Ev = { event: string; data: unknown };
const text = (m: unknown) => String((m as { content?: unknown })?.content ?? "");

async function streamed(mode: "messages-tuple" | "messages" | "events"): Promise<Ev[]> {
  const thread = await client.threads.create();
  return (await collect(
    client.runs.stream(thread.thread_id, "chat", { input: {}, streamMode: mode }),
  )) as Ev[];
}

describe("a secret split over a model's chunks, behind the server", () => {
  it("messages-tuple: the chunks the client joins never spell it", async () => {
    const events = await streamed("messages-tuple");
    const joined = events
      .filter((e) => e.event === "messages")
      .map((e) => text((e.data as unknown[])[0]))
      .join("");
    expect(joined).toBe("Your key is ***, keep it safe.");
    expect(JSON.stringify(events)).not.toContain(SECRET);
  });

  it("messages: the message the server joins (messages/partial) never spells it", async () => {
    const events = await streamed("messages");
    const partials = events
      .filter((e) => e.event === "messages/partial")
      .map((e) => text((e.data as unknown[])[0]));
    expect(partials.at(-1)).toBe("Your key is ***, keep it safe.");
    for (const p of partials) expect(p).not.toContain(SECRET.slice(0, 8));
    expect(JSON.stringify(events)).not.toContain(SECRET);
  });

  it("events: the on_chat_model_stream chunks the client joins never spell it", async () => {
    const events = await streamed("events");
    const joined = events
      .map((e) => e.data as { event?: string; data?: { chunk?: unknown } })
      .filter((d) => d?.event === "on_chat_model_stream")
      .map((d) => text(d.data?.chunk))
      .join("");
    expect(joined).toBe("Your key is ***, keep it safe.");
    expect(JSON.stringify(events)).not.toContain(SECRET);
  });
});

describe("threads.updateState", () => {
  it("stores a secret it is given masked, and reads back ***", async () => {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "chat", { input: {} });
    await client.threads.updateState(thread.thread_id, {
      values: { note: `pasted ${SECRET} here` },
      asNode: "answer",
    });
    expect((await client.threads.getState(thread.thread_id)).values).toMatchObject({
      note: "pasted *** here",
    });
    const bytes = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((f) => f.isFile())
      .map((f) => readFileSync(join(f.parentPath, f.name)).toString("latin1"))
      .join("\n");
    expect(bytes).toContain("pasted *** here");
    expect(bytes).not.toContain(SECRET);
  });
});
