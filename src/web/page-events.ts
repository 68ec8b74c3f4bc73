/**
 * The page's one stream of server-sent events (`GET /ui/events`, docs/dev.md "How the page
 * stays current"): the server says when the graphs or a thread changed, and the views read them
 * again through the SDK — nothing is asked for on a timer, so an idle tab costs a heartbeat
 * comment every 25 s.
 *
 * Read with fetch rather than EventSource, which cannot send the `x-api-key` header a server with
 * `--api-keys` wants; the protocol is the same, and so is what EventSource would do: reconnect
 * after a drop (1 s, then doubling to 30 s, or the server's `retry-after`), sending `Last-Event-ID`,
 * to which the server answers whether anything was missed (`hello` with `resync`). A hidden tab
 * closes its stream (browsers allow six connections per server over HTTP/1.1: background tabs
 * must not hold them) and opens it again when shown.
 */
import { currentApiKey, onApiKey } from "./api.js";

export type PageEvent =
  | { type: "graphs" }
  | { type: "thread"; threadId: string }
  /** Events may have been missed (the first connection, or one after a drop): read everything. */
  | { type: "resync" };

/** Whether the stream is up; `problem` says why not. */
export interface StreamStatus {
  problem: string | undefined;
}

const listeners = new Set<(e: PageEvent) => void>();
const statusListeners = new Set<(s: StreamStatus) => void>();
let status: StreamStatus = { problem: undefined };
let lastId: string | undefined;
let connection: AbortController | undefined;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let failures = 0;
let started = false;

const MAX_RETRY_MS = 30_000;

function setStatus(next: StreamStatus): void {
  if (next.problem === status.problem) return;
  status = next;
  for (const l of statusListeners) l(status);
}

function dispatch(event: string, data: string): void {
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(data || "{}") as Record<string, unknown>;
  } catch {
    return;
  }
  const out: PageEvent | undefined =
    event === "graphs"
      ? { type: "graphs" }
      : event === "thread" && typeof parsed.thread_id === "string"
        ? { type: "thread", threadId: parsed.thread_id }
        : event === "hello" && parsed.resync !== false
          ? { type: "resync" }
          : undefined;
  if (out) for (const l of listeners) l(out);
}

/** Reads the stream's events until it ends (the text/event-stream format, as EventSource parses it). */
async function read(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let id: string | undefined;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop() ?? "";
    for (const line of lines) {
      if (line === "") {
        if (id !== undefined) lastId = id;
        if (data.length || event) dispatch(event || "message", data.join("\n"));
        event = "";
        data = [];
        id = undefined;
        continue;
      }
      if (line.startsWith(":")) continue; // a heartbeat
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
      else if (field === "id") id = value;
    }
  }
}

function retryLater(ms: number): void {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(connect, ms);
}

async function connect(): Promise<void> {
  connection?.abort();
  clearTimeout(retryTimer);
  if (globalThis.document?.visibilityState === "hidden") return;
  const current = new AbortController();
  connection = current;
  const headers: Record<string, string> = { accept: "text/event-stream" };
  const key = currentApiKey();
  if (key) headers["x-api-key"] = key;
  if (lastId) headers["last-event-id"] = lastId;
  let wait: number | undefined;
  try {
    const response = await fetch("/ui/events", {
      headers,
      signal: current.signal,
      cache: "no-store",
    });
    // The views' own requests get the 401 and ask for a key; the stream opens again with it.
    if (response.status === 401) return;
    if (!response.ok || !response.body) {
      const after = Number(response.headers.get("retry-after"));
      if (after > 0) wait = after * 1000;
      // The server's own words (a 429: too many open streams from this client), else the status.
      const said = (await response.json().catch(() => undefined)) as
        | { message?: unknown }
        | undefined;
      throw new Error(typeof said?.message === "string" ? said.message : `HTTP ${response.status}`);
    }
    failures = 0;
    setStatus({ problem: undefined });
    await read(response.body);
    throw new Error("the server closed the connection");
  } catch (e) {
    if (current.signal.aborted) return;
    failures += 1;
    setStatus({ problem: e instanceof TypeError ? "Failed to fetch" : (e as Error).message });
    retryLater(wait ?? Math.min(MAX_RETRY_MS, 1000 * 2 ** (failures - 1)));
  }
}

function start(): void {
  if (started) return;
  started = true;
  onApiKey(() => void connect());
  globalThis.document?.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") {
      connection?.abort();
      clearTimeout(retryTimer);
    } else void connect();
  });
  void connect();
}

/** Calls `listener` with each event; the stream opens with the first listener. */
export function onPageEvent(listener: (e: PageEvent) => void): () => void {
  listeners.add(listener);
  start();
  return () => listeners.delete(listener);
}

/** Calls `listener` when the stream goes down or comes back. */
export function onStreamStatus(listener: (s: StreamStatus) => void): () => void {
  statusListeners.add(listener);
  listener(status);
  return () => statusListeners.delete(listener);
}
