/**
 * How many bytes of runs' server-sent events this process keeps, so a client can `joinStream` a
 * run from its start: at most `maxRunEventBytes` per run (past it, that run's oldest events go)
 * and `maxEventBytes` in all (past it, finished runs' events go, oldest run first, then the
 * oldest events of runs still going). Without a bound every finished run kept every event: runs
 * within every other limit took `serve` out of memory after ~694 runs of 37 MB of events each.
 * Sizes are the memory the events take, as value-memory.ts estimates it — not their JSON, which
 * for many small values is a tenth of it and less. A client asking for events no longer kept is
 * told so (run-routes.ts: 410 `run-events-not-kept`); the run's result stays (`join`, thread state).
 */
import type { SseEvent } from "./stream-modes.js";
import { valueMemory } from "./value-memory.js";

const MiB = 1024 * 1024;
export const DEFAULT_EVENT_RETENTION = {
  /** Bytes of one run's events kept. */
  maxRunEventBytes: 16 * MiB,
  /**
   * Bytes of all runs' events kept. 64 MiB, not 256: at 256 the soak's server kept more at the
   * end of each round (242, 316, 400 MiB resident) as its tenants' events filled the bound, most
   * of the 300 MiB an attack may add; at 64 its rounds ended level (343, 361, 340 MiB).
   */
  maxEventBytes: 64 * MiB,
};
export type EventRetention = typeof DEFAULT_EVENT_RETENTION;

/** A run's kept events: those from absolute index `first` on, and their bytes. */
export interface RetainedEvents {
  /** The absolute index of `list[0]`: how many of the run's events were dropped. */
  first: number;
  list: SseEvent[];
  /** The memory each event of `list` takes (value-memory.ts). */
  sizes: number[];
  bytes: number;
  finished: boolean;
}

export const noEvents = (): RetainedEvents => ({
  first: 0,
  list: [],
  sizes: [],
  bytes: 0,
  finished: false,
});

/** The events of every run, within the bounds. */
export class EventLedger {
  /** Runs with events kept, in the order they started (oldest first). */
  private readonly runs = new Set<RetainedEvents>();
  private total = 0;

  constructor(readonly limits: EventRetention = DEFAULT_EVENT_RETENTION) {}

  /** Bytes of events kept now, over every run. */
  get bytes(): number {
    return this.total;
  }

  add(run: RetainedEvents, event: SseEvent): void {
    const size = valueMemory(event.data) + valueMemory(event.event);
    run.list.push(event);
    run.sizes.push(size);
    run.bytes += size;
    this.total += size;
    this.runs.add(run);
    // Down to three quarters of a bound once it is passed, so dropping is not paid per event.
    if (run.bytes > this.limits.maxRunEventBytes)
      this.trim(run, (this.limits.maxRunEventBytes * 3) / 4);
    if (this.total > this.limits.maxEventBytes) this.makeRoom();
  }

  /** The run ended: its events are the first to go when all runs' events are over the bound. */
  finish(run: RetainedEvents): void {
    run.finished = true;
    if (this.total > this.limits.maxEventBytes) this.makeRoom();
  }

  /** The run is forgotten: its events too. */
  forget(run: RetainedEvents): void {
    this.trim(run, 0);
  }

  private makeRoom(): void {
    const target = (this.limits.maxEventBytes * 3) / 4;
    for (const r of this.runs) {
      if (this.total <= target) return;
      if (r.finished) this.trim(r, 0);
    }
    for (const r of this.runs) {
      if (this.total <= target) return;
      this.trim(r, Math.max(0, r.bytes - (this.total - target)));
    }
  }

  /** Drops the run's oldest events until it keeps at most `keep` bytes. */
  private trim(run: RetainedEvents, keep: number): void {
    let n = 0;
    let dropped = 0;
    while (n < run.list.length && run.bytes - dropped > keep) dropped += run.sizes[n++]!;
    if (!n) return;
    run.list.splice(0, n);
    run.sizes.splice(0, n);
    run.first += n;
    run.bytes -= dropped;
    this.total -= dropped;
    if (!run.list.length) this.runs.delete(run);
  }
}
