/**
 * Issue 23's soak (long mode only: GRAPHSPEC_LONG=1, docs/testing.md): one `graphspec serve` on
 * SQLite, two tenants. The normal one runs a small graph over and over through the official SDK
 * (`runs.wait` on its thread, a stateless `runs.stream`, and a background run on a new thread —
 * `threads.create`, `runs.create`, `runs.join` — in turn), alone first (its baseline), then while
 * the hostile one attacks (hostile-tenant.ts: CPU-heavy expressions, a state that doubles each
 * step, huge declared and chunked bodies, bodies that are not JSON, input over the limit, and a
 * flood of background runs bounded in count). Baseline and attack phases
 * alternate, so a machine shared with other work loads both alike.
 *
 * It holds the server to the issue's bounds: the normal tenant's p99 under attack within 2× its
 * baseline (its requests, and its background runs against their own baseline), the server's
 * memory bounded — what its heap holds after a full collection within a bound of its start and
 * levelling off, its resident size (its own process's VmRSS) not growing round after round —
 * every hostile request answered with its bound (never a 5xx or a hang), the server alive at the
 * end. The figures are printed and written to test/artifacts/soak/.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, describe, expect, it } from "vitest";
import { counts, mib, ms, percentile, tally } from "./figures.js";
import {
  ATTACKS,
  FLOOD_EXPECTED_ENDS,
  type Flooded,
  failed,
  flood,
  floodEnds,
} from "./hostile-tenant.js";
import { type Served, startServe } from "./serve-process.js";

const LONG = Boolean(process.env.GRAPHSPEC_LONG);
const GRAPHS = join(import.meta.dirname, "..", "fixtures", "soak", "graphs");
const ARTIFACTS = join(import.meta.dirname, "..", "artifacts", "soak");
const MiB = 1024 * 1024;

/** GRAPHSPEC_SOAK_ROUNDS: more rounds, to see where the resident size levels off. */
const ROUNDS = Number(process.env.GRAPHSPEC_SOAK_ROUNDS ?? 3);
const BASELINE_MS = 8_000;
const ATTACK_MS = 30_000;
/**
 * How long after its attack the flooded runs may take to end: a run still queued then is a
 * broken bound (the soak must end in 5 minutes, and a run that never ends is one that hangs).
 */
const DRAIN_MS = 45_000;
/** Hostile requests in flight at once, cycling through the attacks. */
const HOSTILE_WORKERS = 3;
/** Background runs the hostile tenant queues per round (a few hundred in all). */
const FLOOD_PER_ROUND = 100;
/**
 * The baseline p99 the 2× bound is taken against is at least this. A three-node graph answers in
 * a few milliseconds, and on a shared 2-core machine one scheduler time slice lost to another
 * process (or a GC pause of the test's own process) moves a p99 of 5 ms by more than 2× with no
 * attack at all: below this floor the ratio measures the machine, not the server.
 */
const BASELINE_FLOOR_MS = 50;
/**
 * The normal tenant starts a request at most this often (20 a second), as a tenant that "runs
 * normally" does. Back to back, its one client kept the server's CPU full on its own (8.2 s of
 * server CPU in an 8 s baseline, 2026-11-27), so any other tenant's work — however fairly
 * shared — doubled its latency, and the 2× bound measured CPU sharing, not interference.
 */
const NORMAL_PACE_MS = 50;
/**
 * What the server's heap may hold after a full collection at a round's end over what it held
 * after warm-up: what it keeps by design within bounds — runs' events (64 MiB, --max-event-bytes),
 * the last 1,000 finished runs, compiled graphs and code — and no more. Measured: 32 MiB after
 * warm-up, 41–46 MiB at the rounds' ends (soaks of three and six rounds); heap snapshots at the
 * ends of rounds 1, 3 and 6 held 42.0, 44.6 and 45.1 MiB — what grew from round 1 to 3 is the
 * 1,000 finished runs filling up (404 → 1,001 AbortControllers), from 3 to 6 compiled code.
 *
 * The resident size is not bounded by a number over its start, on purpose: it is that heap plus
 * the garbage an attack makes between collections (bodies of up to 4 MiB read and parsed, states
 * of up to 4 MiB serialized, dozens of hostile requests a second: 150–190 MiB of heap in use
 * mid-attack) plus the pages V8 and the allocator keep once they have them (a heap of 130–150 MiB
 * after a full collection at 45 MiB used). How high that goes depends on how fast the machine
 * lets the attack allocate: +104 MiB over the start at load 21, +414 MiB with the machine quiet,
 * the same code. That it is bounded shows in its levelling off — in six rounds of this attack
 * (4 s baselines, no snapshots) its peak (VmHWM) reached 350 MiB in round 3 and stayed there — so
 * the test holds the
 * last round's peak to the earlier rounds' (below), and the heap after collection to this.
 */
const RETAINED_HEADROOM = 64 * MiB + 32 * MiB;
/**
 * How much more the heap after a collection may hold at the last round's end than at the earlier
 * rounds' most: what the server keeps by design has filled up by then (+1 MiB a round, measured).
 * A parsed request body kept by mistake (injected to see these bounds fail) added 12–24 MiB a
 * round (33, 56, 72, 96 MiB; 32, 44, 58, 71 MiB): within RETAINED_HEADROOM for three rounds, not
 * within this.
 */
const RETAINED_GROWTH = 8 * MiB;
/**
 * Fair share between tenants in the background queue is merged: the normal tenant's background
 * runs must not wait behind the hostile flood (switched off, their times are recorded, not bounded).
 */
const GATE_NORMAL_BACKGROUND = true;

const NORMAL_KEY = "soak-normal-tenant-key-0123456789";
const HOSTILE_KEY = "soak-hostile-tenant-key-0123456789";

let server: Served | undefined;
afterAll(async () => {
  await server?.stop();
});

describe.skipIf(!LONG)("soak: one tenant attacks, the other runs as usual", () => {
  it(
    "the normal tenant's p99 stays within 2× its baseline, memory stays bounded, every attack gets its bounded answer",
    async () => {
      server = await startServe({
        graphs: GRAPHS,
        keys: { [NORMAL_KEY]: "normal", [HOSTILE_KEY]: "hostile" },
      });
      const s = server;
      const normal = new Client({
        apiUrl: s.url,
        apiKey: NORMAL_KEY,
        callerOptions: { maxRetries: 0 },
      });
      const thread = (await normal.threads.create()).thread_id;
      const normalErrors: string[] = [];
      let runsOnThread = 0;

      /**
       * One sample: `runs.wait` on the tenant's thread, a stateless `runs.stream`, or a
       * background run on a new thread (its kind says which, `background` being three requests
       * and a queued run: held to its own baseline, not to the others').
       */
      let turn = 0;
      const sample = async (): Promise<{ ms: number; background: boolean }> => {
        const t0 = performance.now();
        const kind = turn++ % 3;
        try {
          if (kind === 2) {
            const bgThread = (await normal.threads.create()).thread_id;
            const run = await normal.runs.create(bgThread, "small", { input: {} });
            const v = (await normal.runs.join(bgThread, run.run_id, {
              signal: AbortSignal.timeout(ATTACK_MS + DRAIN_MS),
            })) as { n?: number };
            if (v.n !== 3) normalErrors.push(`background run ended with ${JSON.stringify(v)}`);
          } else if (kind === 0) {
            const v = (await normal.runs.wait(thread, "small", { input: {} })) as { n?: number };
            runsOnThread++;
            if (v.n !== runsOnThread * 3)
              normalErrors.push(`runs.wait gave n=${v.n}, not ${runsOnThread * 3}`);
          } else {
            let last: unknown;
            for await (const e of normal.runs.stream(null, "small", {
              input: {},
              streamMode: "values",
            }))
              if (e.event === "values") last = e.data;
            if ((last as { n?: number })?.n !== 3)
              normalErrors.push(`runs.stream ended with ${JSON.stringify(last)}`);
          }
        } catch (e) {
          normalErrors.push((e as Error).message);
        }
        return { ms: performance.now() - t0, background: kind === 2 };
      };
      const sampleWhile = async (
        going: () => boolean,
        into: { requests: number[]; background: number[] },
      ) => {
        while (going()) {
          const started = Date.now();
          const s = await sample();
          (s.background ? into.background : into.requests).push(s.ms);
          const rest = NORMAL_PACE_MS - (Date.now() - started);
          if (rest > 0) await new Promise((r) => setTimeout(r, rest));
        }
      };

      // Memory, every 250 ms, by phase.
      let phase = "warm-up";
      const rss: { phase: string; bytes: number }[] = [];
      const sampler = setInterval(() => {
        if (s.alive()) rss.push({ phase, bytes: s.rss() });
      }, 250);
      // The test process's own event-loop delay: a client that lags inflates what it measures.
      const clientLag = monitorEventLoopDelay({ resolution: 10 });
      clientLag.enable();

      for (let i = 0; i < 30; i++) await sample();
      const rssStart = s.rss();
      const heapStart = await s.heapAfterGc();

      const baseline = { requests: [] as number[], background: [] as number[] };
      const attacked = { requests: [] as number[], background: [] as number[] };
      const answers = new Map<string, Map<string, number>>(ATTACKS.map((a) => [a.name, new Map()]));
      const created = new Map<string, number>();
      const ends = new Map<string, number>();
      const roundPeaks: number[] = [];
      const roundEnds: number[] = [];
      const heapEnds: NodeJS.MemoryUsage[] = [];
      const okDuringAttack = new Map<string, number>();
      const okMs: number[] = [];
      const phaseMs: { baseline: number; attack: number }[] = [];
      const phaseCpuMs: { baseline: number; attack: number }[] = [];

      for (let round = 1; round <= ROUNDS; round++) {
        phase = `baseline ${round}`;
        const b0 = Date.now();
        const bCpu = s.cpuMs();
        await sampleWhile(() => Date.now() - b0 < BASELINE_MS, baseline);

        phase = `attack ${round}`;
        const a0 = Date.now();
        const aCpu = s.cpuMs();
        let attacking = true;
        const flooding: Promise<Flooded> = flood(s.url, HOSTILE_KEY, FLOOD_PER_ROUND);
        let next = 0;
        const hostile = Promise.all(
          Array.from({ length: HOSTILE_WORKERS }, async () => {
            while (Date.now() - a0 < ATTACK_MS) {
              const attack = ATTACKS[next++ % ATTACKS.length]!;
              tally(answers.get(attack.name)!, await attack.send(s.url, HOSTILE_KEY));
            }
          }),
        );
        // `/ok` once a second: how long the server, not a run, takes to answer at all.
        const ok = (async () => {
          while (attacking) {
            const t0 = performance.now();
            const r = await fetch(`${s.url}/ok`).then(
              (x) => `${x.status}`,
              (e) => failed(e),
            );
            okMs.push(performance.now() - t0);
            tally(okDuringAttack, r);
            await new Promise((r) => setTimeout(r, 1000));
          }
        })();
        // The attack lasts until the hostile requests stop and every flooded run has ended.
        const attackOver = (async () => {
          await hostile;
          const f = await flooding;
          for (const [k, n] of f.created) tally(created, k, n);
          for (const [k, n] of await floodEnds(s.url, HOSTILE_KEY, f, DRAIN_MS)) tally(ends, k, n);
        })().finally(() => {
          attacking = false;
        });
        await sampleWhile(() => attacking, attacked);
        await attackOver;
        await ok;
        phaseMs.push({ baseline: a0 - b0, attack: Date.now() - a0 });
        phaseCpuMs.push({ baseline: aCpu - bCpu, attack: s.cpuMs() - aCpu });
        const inRound = rss.filter((r) => r.phase.endsWith(` ${round}`)).map((r) => r.bytes);
        roundPeaks.push(Math.max(...inRound));
        roundEnds.push(s.rss());
        heapEnds.push(await s.heapAfterGc());
        await s.snapshot();
      }
      clearInterval(sampler);
      clientLag.disable();

      phase = "end";
      const okAtEnd = await fetch(`${s.url}/ok`).then(
        (r) => r.status,
        () => 0,
      );
      const aliveAtEnd = s.alive();
      const rssEnd = s.rss();
      const peak = s.peakRss();
      const exit = await s.stop();

      const p5099 = (xs: number[]) => ({ p50: percentile(xs, 50), p99: percentile(xs, 99) });
      const base = p5099(baseline.requests);
      const att = p5099(attacked.requests);
      const reference = Math.max(base.p99, BASELINE_FLOOR_MS);
      const bgBase = p5099(baseline.background);
      const bgAtt = p5099(attacked.background);
      const bgReference = Math.max(bgBase.p99, BASELINE_FLOOR_MS);
      const heapUsed = (u: NodeJS.MemoryUsage) => mib(u.heapUsed);
      const heapTotal = (u: NodeJS.MemoryUsage) => mib(u.heapTotal);
      const hostileTotal = [...answers.values()].reduce(
        (n, m) => n + [...m.values()].reduce((a, b) => a + b, 0),
        0,
      );
      const note = [
        `Soak (test/soak/two-tenants.test.ts), ${new Date().toISOString()}, ${ROUNDS} rounds of ${BASELINE_MS / 1000} s baseline + ${ATTACK_MS / 1000} s attack (until its flood ended)`,
        `phases (ms): ${phaseMs.map((p) => `${p.baseline}+${p.attack}`).join(", ")}`,
        `server CPU in them (ms): ${phaseCpuMs.map((p) => `${p.baseline}+${p.attack}`).join(", ")}`,
        `normal tenant (runs.wait on its thread / stateless runs.stream / a background run, in turn):`,
        `  baseline: ${baseline.requests.length} requests, p50 ${ms(base.p50)}, p99 ${ms(base.p99)}`,
        `  under attack: ${attacked.requests.length} requests, p50 ${ms(att.p50)}, p99 ${ms(att.p99)}`,
        `  p99 ratio: ${(att.p99 / base.p99).toFixed(2)}× the baseline's, ${(att.p99 / reference).toFixed(2)}× max(baseline p99, ${BASELINE_FLOOR_MS} ms floor) (bound 2×)`,
        `  max under attack: ${ms(Math.max(...attacked.requests))}; errors: ${normalErrors.length}`,
        `  its background runs (threads.create, runs.create, runs.join): baseline ${baseline.background.length}, p50 ${ms(bgBase.p50)}, p99 ${ms(bgBase.p99)}; under attack ${attacked.background.length}, p50 ${ms(bgAtt.p50)}, p99 ${ms(bgAtt.p99)}, max ${ms(Math.max(...attacked.background))}; ${(bgAtt.p99 / bgReference).toFixed(2)}× max(baseline p99, floor) ${GATE_NORMAL_BACKGROUND ? "(bound 2×)" : "(not gated)"}`,
        `server RSS: start ${mib(rssStart)}, peak ${mib(peak)} (VmHWM), end ${mib(rssEnd)}; per round peak ${roundPeaks.map(mib).join(", ")}; at round end ${roundEnds.map(mib).join(", ")}`,
        `server heap after a full collection, used (of total): start ${heapUsed(heapStart)} (${heapTotal(heapStart)}), at round end ${heapEnds.map((u) => `${heapUsed(u)} (${heapTotal(u)})`).join(", ")} (bound +${mib(RETAINED_HEADROOM)} over the start, +${mib(RETAINED_GROWTH)} over the earlier rounds')`,
        `hostile tenant: ${hostileTotal} requests by ${HOSTILE_WORKERS} workers, answers:`,
        ...[...answers.entries()].map(([name, m]) => `  ${name}:\n${counts(m, "    ")}`),
        `  background flood, ${FLOOD_PER_ROUND} a round: created\n${counts(created, "    ")}`,
        `  ended\n${counts(ends, "    ")}`,
        `/ok during attacks: ${[...okDuringAttack.entries()].map(([k, n]) => `${k}×${n}`).join(", ")}, p50 ${ms(percentile(okMs, 50))}, max ${ms(Math.max(...okMs))}; at the end ${okAtEnd}; alive ${aliveAtEnd}; exit on SIGTERM ${exit}`,
        `test process event-loop delay p99: ${ms(clientLag.percentile(99) / 1e6)}`,
      ].join("\n");
      console.log(note);
      mkdirSync(ARTIFACTS, { recursive: true });
      writeFileSync(join(ARTIFACTS, `two-tenants-${Date.now()}.txt`), `${note}\n`);

      // Soft: a run reports every bound it broke, not only the first (the note is printed above).
      // Every hostile request got its bound: no 5xx, no hang, no dropped connection.
      for (const attack of ATTACKS)
        for (const got of answers.get(attack.name)!.keys())
          expect.soft(attack.expected, `${attack.name} answered ${got}`).toContain(got);
      for (const got of created.keys())
        expect.soft(["queued", "429"], `flood creation answered ${got}`).toContain(got);
      for (const got of ends.keys())
        expect.soft(FLOOD_EXPECTED_ENDS, `a flooded run ended ${got}`).toContain(got);
      // The normal tenant was served, right, throughout; the server is up and stops cleanly.
      expect.soft(normalErrors).toEqual([]);
      expect.soft([...okDuringAttack.keys()]).toEqual(["200"]);
      expect.soft(okAtEnd).toBe(200);
      expect.soft(aliveAtEnd).toBe(true);
      expect.soft(exit).toBe(0);
      // The issue's latency bound.
      expect
        .soft(att.p99, "p99 under attack (ms), at most 2× max(baseline p99, floor)")
        .toBeLessThanOrEqual(2 * reference);
      // Memory: what the server retains (its heap after a full collection) within its bounds,
      // and its resident size levelling off, not growing round after round (a leak would).
      for (const [i, u] of heapEnds.entries())
        expect
          .soft(u.heapUsed - heapStart.heapUsed, `server's heap after collection, round ${i + 1}`)
          .toBeLessThanOrEqual(RETAINED_HEADROOM);
      if (ROUNDS > 1)
        expect
          .soft(
            heapEnds.at(-1)!.heapUsed - Math.max(...heapEnds.slice(0, -1).map((u) => u.heapUsed)),
            "server's heap after collection, last round over the earlier rounds' most (bytes)",
          )
          .toBeLessThanOrEqual(RETAINED_GROWTH);
      if (ROUNDS > 1)
        expect
          .soft(roundPeaks.at(-1)!, "server's RSS peak in the last round (bytes)")
          .toBeLessThanOrEqual(Math.max(...roundPeaks.slice(0, -1)) * 1.1 + 32 * MiB);
      if (GATE_NORMAL_BACKGROUND)
        expect
          .soft(bgAtt.p99, "the normal tenant's background runs' p99 under attack (ms)")
          .toBeLessThanOrEqual(2 * bgReference);
    },
    ROUNDS * 2 * 60_000,
  );
});
