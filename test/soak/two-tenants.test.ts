/**
 * Issue 23's soak (long mode only: GRAPHSPEC_LONG=1, docs/testing.md): one `graphspec serve` on
 * SQLite, two tenants. The normal one runs a small graph over and over through the official SDK
 * (`runs.wait` on its thread and a stateless `runs.stream`, alternately), alone first (its
 * baseline), then while the hostile one attacks (hostile-tenant.ts: CPU-heavy expressions, a
 * state that doubles each step, huge declared and chunked bodies, bodies that are not JSON, input
 * over the limit, and a flood of background runs bounded in count). Baseline and attack phases
 * alternate, so a machine shared with other work loads both alike.
 *
 * It holds the server to the issue's bounds: the normal tenant's p99 under attack within 2× its
 * baseline, the server's resident memory (its own process's VmRSS) under a ceiling and not growing
 * round after round, every hostile request answered with its bound (never a 5xx or a hang), the
 * server alive at the end. The figures are printed and written to test/artifacts/soak/.
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

const ROUNDS = 3;
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
/** Memory the attack may add to the server's resident size after warm-up. */
const RSS_HEADROOM = 300 * MiB;
/**
 * Fair share between tenants in the background queue is merged: the normal tenant's background
 * run must not wait behind the hostile flood (switched off, its time is recorded, not bounded).
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

      /** One sample: `runs.wait` on the tenant's thread, or a stateless `runs.stream`. */
      let turn = 0;
      const sample = async (): Promise<number> => {
        const t0 = performance.now();
        try {
          if (turn++ % 2 === 0) {
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
        return performance.now() - t0;
      };
      const sampleWhile = async (going: () => boolean, into: number[]) => {
        while (going()) into.push(await sample());
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

      for (let i = 0; i < 20; i++) await sample();
      const rssStart = s.rss();

      const baseline: number[] = [];
      const attacked: number[] = [];
      const answers = new Map<string, Map<string, number>>(ATTACKS.map((a) => [a.name, new Map()]));
      const created = new Map<string, number>();
      const ends = new Map<string, number>();
      const backgroundMs: number[] = [];
      const roundPeaks: number[] = [];
      const roundEnds: number[] = [];
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
        // The normal tenant's own background run, queued behind (or beside) the flood.
        const background = (async () => {
          const t0 = performance.now();
          const bgThread = (await normal.threads.create()).thread_id;
          const run = await normal.runs.create(bgThread, "small", { input: {} });
          await normal.runs.join(bgThread, run.run_id, {
            signal: AbortSignal.timeout(ATTACK_MS + DRAIN_MS),
          });
          backgroundMs.push(performance.now() - t0);
        })().catch((e) => normalErrors.push(`background run: ${(e as Error).message}`));
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
          await background;
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

      const base = { p50: percentile(baseline, 50), p99: percentile(baseline, 99) };
      const att = { p50: percentile(attacked, 50), p99: percentile(attacked, 99) };
      const reference = Math.max(base.p99, BASELINE_FLOOR_MS);
      const hostileTotal = [...answers.values()].reduce(
        (n, m) => n + [...m.values()].reduce((a, b) => a + b, 0),
        0,
      );
      const note = [
        `Soak (test/soak/two-tenants.test.ts), ${new Date().toISOString()}, ${ROUNDS} rounds of ${BASELINE_MS / 1000} s baseline + ${ATTACK_MS / 1000} s attack (until its flood ended)`,
        `phases (ms): ${phaseMs.map((p) => `${p.baseline}+${p.attack}`).join(", ")}`,
        `server CPU in them (ms): ${phaseCpuMs.map((p) => `${p.baseline}+${p.attack}`).join(", ")}`,
        `normal tenant (runs.wait on its thread / stateless runs.stream, alternately):`,
        `  baseline: ${baseline.length} requests, p50 ${ms(base.p50)}, p99 ${ms(base.p99)}`,
        `  under attack: ${attacked.length} requests, p50 ${ms(att.p50)}, p99 ${ms(att.p99)}`,
        `  p99 ratio: ${(att.p99 / base.p99).toFixed(2)}× the baseline's, ${(att.p99 / reference).toFixed(2)}× max(baseline p99, ${BASELINE_FLOOR_MS} ms floor) (bound 2×)`,
        `  max under attack: ${ms(Math.max(...attacked))}; errors: ${normalErrors.length}`,
        `  its background run, start to end, per round: ${backgroundMs.map(ms).join(", ")} ${GATE_NORMAL_BACKGROUND ? "(bound 2×)" : "(not gated until fair share)"}`,
        `server RSS: start ${mib(rssStart)}, peak ${mib(peak)} (VmHWM), end ${mib(rssEnd)}; per round peak ${roundPeaks.map(mib).join(", ")}; at round end ${roundEnds.map(mib).join(", ")}`,
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
      // Memory: under the ceiling, and not growing round after round (a leak would).
      expect
        .soft(peak - rssStart, "server's peak RSS over its start (bytes)")
        .toBeLessThanOrEqual(RSS_HEADROOM);
      expect
        .soft(roundPeaks.at(-1)!, "server's RSS peak in the last round (bytes)")
        .toBeLessThanOrEqual(Math.max(...roundPeaks.slice(0, -1)) * 1.1 + 32 * MiB);
      if (GATE_NORMAL_BACKGROUND)
        expect
          .soft(Math.max(...backgroundMs), "the normal tenant's background run (ms)")
          .toBeLessThanOrEqual(2 * reference);
    },
    6 * 60_000,
  );
});
