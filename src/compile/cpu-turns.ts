/**
 * Fair turns on the server's one thread. Every run of a server shares it, and LangGraph runs a
 * graph on promises alone: with many runs in flight, each of a run's steps waits behind every
 * other run's ready work (the event loop is first in, first out), so a tenant with ten heavy runs
 * slows another tenant's one small run tenfold and more, though each bound holds.
 *
 * So a run's synchronous CPU-heavy chunks — a node's body up to its first await, a checkpoint
 * stored or read (serialization and better-sqlite3 are synchronous) — each take a turn first. One
 * run holds the turn at a time. When it releases it, the next turn is granted on the event loop's
 * next check phase (`setImmediate`): the releasing run's own continuation (its write checks,
 * reducers, next request for a turn) and the server's pending I/O (other requests, `/ok`) run in
 * between, and then the turn goes to the waiting tenant that used the least CPU in turns recently
 * (exponentially decayed, half-life `HALF_LIFE_MS`), first come first served within a tenant.
 * A tenant with little work in flight therefore waits for at most the one chunk being run when it
 * asks, however many runs another tenant has queued for turns. The tenant granted a turn keeps
 * taking turns at once while it is the lightest, for a short slice (`inSlice`); a tenant back from
 * idle is owed only a little over the lightest active one (`arrive`).
 *
 * Runs get their scheduler and tenant from `withTurns` (the server wraps each run in it); without
 * one (the CLI, the package's executor) `inTurn` calls the chunk directly: no cost, no await.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** How fast a tenant's past CPU use is forgiven: halved each second. */
const HALF_LIFE_MS = 1000;
/**
 * How long a tenant granted a turn may go on taking turns at once, without waiting for the event
 * loop's next check phase, while it is the tenant that used the least (see `take`).
 */
const SLICE_MS = 10;
/** A tenant with no turn for this long has been idle (see `arrive`). */
const IDLE_MS = 500;
/** CPU in turns a tenant back from idle is owed over the lightest active tenant (see `arrive`). */
const IDLE_CREDIT_MS = 100;

interface Waiter {
  tenant: string;
  grant: () => void;
}

export class CpuTurns {
  private held = false;
  private granting = false;
  private holder = "";
  private since = 0;
  /** The tenant whose slice runs, and since when (`take`). */
  private slice = { tenant: "", since: Number.NEGATIVE_INFINITY };
  private readonly waiting = new Map<string, Waiter[]>();
  private readonly usage = new Map<string, { ms: number; at: number }>();

  /** Resolves once `tenant` holds the turn; it must `release()` it. */
  take(tenant: string): Promise<void> {
    this.arrive(tenant);
    if (!this.held && !this.granting && this.waiting.size === 0) {
      this.hold(tenant);
      this.slice = { tenant, since: this.since };
      return Promise.resolve();
    }
    if (!this.held && this.inSlice(tenant)) {
      this.hold(tenant);
      return Promise.resolve();
    }
    return new Promise<void>((grant) => {
      const queue = this.waiting.get(tenant) ?? [];
      queue.push({ tenant, grant });
      this.waiting.set(tenant, queue);
    });
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    this.charge(this.holder, performance.now() - this.since);
    if (this.waiting.size && !this.granting) {
      this.granting = true;
      setImmediate(() => this.grantNext());
    }
  }

  /** A tenant's decayed CPU time in turns, in ms. */
  used(tenant: string, now = performance.now()): number {
    const u = this.usage.get(tenant);
    return u ? u.ms * 2 ** (-(now - u.at) / HALF_LIFE_MS) : 0;
  }

  /**
   * A tenant back from idle is not owed all the time it was idle: its use is raised to that of
   * the lightest tenant active lately, less `IDLE_CREDIT_MS` (as CFS places a waking task). Else
   * a tenant that starts an attack after a quiet while used less, for a while, than a tenant that
   * had been running steadily all along — and was granted every turn, its long chunks one after
   * another, until its use caught up (in the soak, the normal tenant's requests at an attack's
   * start took 0.7 s).
   */
  private arrive(tenant: string): void {
    const now = performance.now();
    const own = this.usage.get(tenant);
    if (own && now - own.at < IDLE_MS) return;
    if (tenant === this.holder && this.held) return;
    let floor = Number.POSITIVE_INFINITY;
    for (const [t, u] of this.usage)
      if (t !== tenant && now - u.at < IDLE_MS) floor = Math.min(floor, this.used(t, now));
    if (floor === Number.POSITIVE_INFINITY) return;
    floor -= IDLE_CREDIT_MS;
    if (floor > this.used(tenant, now)) this.usage.set(tenant, { ms: floor, at: now });
  }

  /**
   * Whether `tenant`, asking for the turn just released, takes it now rather than on the next
   * check phase: it would be granted it then anyway — it has none of its own waiting, it used the
   * least — and its slice is not over. A run's chunks follow each other through promises, so its
   * next chunk asks for the turn before the next check phase; without this, under contention
   * each of a small run's ~40 chunks (node, writes, checkpoint measured, stored, read, events,
   * statements) waited for a whole turn of the event loop, and the loop's other work with it.
   */
  private inSlice(tenant: string): boolean {
    const now = performance.now();
    if (this.slice.tenant !== tenant || now - this.slice.since > SLICE_MS) return false;
    if (this.waiting.has(tenant)) return false;
    const mine = this.used(tenant, now);
    for (const queue of this.waiting.values())
      if (this.used(queue[0]!.tenant, now) < mine) return false;
    return true;
  }

  private hold(tenant: string): void {
    this.held = true;
    this.holder = tenant;
    this.since = performance.now();
  }

  private charge(tenant: string, ms: number): void {
    const now = performance.now();
    this.usage.set(tenant, { ms: this.used(tenant, now) + ms, at: now });
    // Forgotten once negligible: the map holds the tenants active lately, not every one seen.
    for (const t of this.usage.keys()) if (this.used(t, now) < 0.01) this.usage.delete(t);
  }

  private grantNext(): void {
    this.granting = false;
    if (this.held) return;
    const now = performance.now();
    let next: Waiter[] | undefined;
    let least = Number.POSITIVE_INFINITY;
    for (const queue of this.waiting.values()) {
      const used = this.used(queue[0]!.tenant, now);
      if (used < least) {
        least = used;
        next = queue;
      }
    }
    if (!next) return;
    const waiter = next.shift()!;
    if (!next.length) this.waiting.delete(waiter.tenant);
    this.hold(waiter.tenant);
    // Its slice starts: granted after a check phase.
    this.slice = { tenant: waiter.tenant, since: this.since };
    waiter.grant();
  }
}

const scope = new AsyncLocalStorage<{ turns: CpuTurns; tenant: string }>();

/** Runs `fn` (a run, with everything it awaits) with its chunks taking `tenant`'s turns. */
export function withTurns<T>(turns: CpuTurns, tenant: string, fn: () => T): T {
  return scope.run({ turns, tenant }, fn);
}

/**
 * Runs `chunk` in a turn: takes the turn, calls it, releases the turn when it returns (an async
 * chunk: at its first await) or, with `untilSettled`, when its promise settles (for chunks whose
 * awaits are synchronous work, such as a SQLite checkpointer's). Without a scheduler, calls it.
 */
export function inTurn<T>(chunk: () => T, untilSettled = false): T | Promise<Awaited<T>> {
  const s = scope.getStore();
  if (!s) return chunk();
  return s.turns.take(s.tenant).then(() => {
    let out: T;
    try {
      out = chunk();
    } catch (e) {
      s.turns.release();
      throw e;
    }
    if (untilSettled && out instanceof Promise) return out.finally(() => s.turns.release());
    s.turns.release();
    return out;
  }) as Promise<Awaited<T>>;
}

/**
 * Runs `fn` in no tenant's turns: for the server's own work (the queue of background runs), which
 * otherwise would take the turns of whichever tenant's request first woke it — and wait behind
 * every chunk that tenant has waiting, however little the tenant whose run it is about to start.
 */
export function outsideTurns<T>(fn: () => T): T {
  return scope.exit(fn);
}

/** Whether the current run takes turns (then it need not yield on its own). */
export const takesTurns = (): boolean => scope.getStore() !== undefined;
