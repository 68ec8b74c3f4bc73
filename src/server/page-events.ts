/**
 * What graphspec dev's page is told as it happens, so it asks the API again only when something
 * changed (it used to ask for the graph list twice a second): `graphs` when a graph was loaded,
 * reloaded or refused, and `thread` (with its id) when a thread was created, updated or deleted,
 * or a run on it started, moved or ended. The events are nudges, not data: the page reads what
 * changed through the SDK, under the caller's authorization, as before.
 *
 * Each event has an id, `<boot>-<n>`: a page that reconnects with the id of the last event it saw
 * is told whether it missed any (`hello` with `resync`), and reads everything again only then.
 */
import { randomUUID } from "node:crypto";
import type { Tenancy } from "./tenancy.js";

/** One open stream (page-event-route.ts). */
export interface PageSubscriber {
  /** Whose threads it may hear of. */
  tenancy: Tenancy;
  send(event: "graphs" | "thread", data: Record<string, unknown>, id: string): void;
  /** The server stops: the stream ends (its page reconnects, and learns the server is gone). */
  end(): void;
}

/**
 * A thread is nudged at most once a second (the first change at once, the rest gathered to the
 * end of that second): a streaming run writes a checkpoint per step, and the page would otherwise
 * read the thread as often.
 */
const THREAD_NUDGE_MS = 1000;

export class PageEvents {
  /** Another process, another count: a page's last id from before a restart means "read again". */
  private readonly boot = randomUUID().slice(0, 8);
  private seq = 0;
  private readonly subscribers = new Set<PageSubscriber>();
  private readonly held = new Map<string, { timer: NodeJS.Timeout; again: boolean }>();

  /** The id of the newest event. */
  get lastId(): string {
    return `${this.boot}-${this.seq}`;
  }

  subscribe(s: PageSubscriber): () => void {
    this.subscribers.add(s);
    return () => this.subscribers.delete(s);
  }

  graphsChanged(): void {
    this.seq += 1;
    for (const s of this.subscribers) s.send("graphs", {}, this.lastId);
  }

  /** A thread's record, runs or checkpoints changed (its stored id: tenant-scoped). */
  threadChanged(storedId: string): void {
    const held = this.held.get(storedId);
    if (held) {
      held.again = true;
      return;
    }
    this.sendThread(storedId);
    const hold = {
      again: false,
      timer: setTimeout(() => {
        this.held.delete(storedId);
        if (hold.again) this.threadChanged(storedId);
      }, THREAD_NUDGE_MS),
    };
    hold.timer.unref();
    this.held.set(storedId, hold);
  }

  private sendThread(storedId: string): void {
    this.seq += 1;
    for (const s of this.subscribers) {
      // Another tenant's thread is not heard of at all.
      const client = s.tenancy.client(storedId);
      if (client !== undefined) s.send("thread", { thread_id: client }, this.lastId);
    }
  }

  /** Ends every open stream: a stop waits for the answers under way, and these never end. */
  close(): void {
    for (const h of this.held.values()) clearTimeout(h.timer);
    this.held.clear();
    for (const s of [...this.subscribers]) s.end();
    this.subscribers.clear();
  }
}
