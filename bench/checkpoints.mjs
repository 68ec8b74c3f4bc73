#!/usr/bin/env node
/**
 * What do graphspec's checkpoint wrappers cost per step? Run with `npm run bench:checkpoints`
 * (after `npm run build`). See bench/README.md.
 *
 * One step as LangGraph stores it — `put` of a checkpoint, then `putWrites` of two writes — on
 * LangGraph's MemorySaver and SqliteSaver (a database in memory), bare and wrapped by
 * `boundCheckpoints` (src/run/checkpoint-bounds.ts: the state bound's count, the plain serializer,
 * serializing once, CPU turns, the thread's bytes), for two states: `small` (a number and a short
 * list) and `big` (a ~100 KB list of plain records). The sides alternate in rounds in one process;
 * it prints the CPU time per step (µs) of each. It never fails on them.
 *
 * Options: --steps N (small-state steps per side, default 2000; big: a tenth), --rounds N (default
 * 10), --compare DIR (also the wrapper of the graphspec build in DIR — a checkout of another
 * commit, built, its node_modules a link to this one's — as a side of its own: before and after
 * in one run).
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { emptyCheckpoint, MemorySaver } from "@langchain/langgraph-checkpoint";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { benchOptions } from "./options.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values: opts } = benchOptions(import.meta.url, {
  steps: { type: "string", default: "2000" },
  rounds: { type: "string", default: "10" },
  compare: { type: "string" },
});
const STEPS = Number(opts.steps);
const ROUNDS = Number(opts.rounds);
const MiB = 1024 * 1024;
const limits = {
  maxStateBytes: 64 * MiB,
  maxThreadBytes: 1024 * MiB,
  maxInputBytes: MiB,
  maxResumeBytes: MiB,
};
const DOC = Array.from({ length: 800 }, (_, i) => ({
  id: i,
  title: `record ${i} of the state carried through every step`,
  tags: ["alpha", "beta", `t${i % 7}`],
  score: i / 7,
  open: i % 2 === 0,
}));
const STATES = { small: () => ({ n: 1, path: ["a", "b"] }), big: () => ({ n: 1, doc: DOC }) };

const builds = [
  ["bare", undefined],
  ["this build", ROOT],
  ...(opts.compare ? [["compare", resolve(opts.compare)]] : []),
];
const sides = [];
for (const [name, build] of builds)
  for (const saverKind of ["memory", "sqlite"]) {
    const saver =
      saverKind === "memory" ? new MemorySaver() : SqliteSaver.fromConnString(":memory:");
    if (build) {
      const url = pathToFileURL(join(build, "dist", "run", "checkpoint-bounds.js")).href;
      (await import(url)).boundCheckpoints(saver, limits);
    }
    sides.push({ name, saverKind, saver });
  }

let n = 0;
async function step(saver, values) {
  const checkpoint = {
    ...emptyCheckpoint(),
    id: String(1e12 + n),
    channel_values: values,
    channel_versions: { n: 2, doc: 2 },
  };
  // 50 threads in turn, as a server's runs.
  const config = { configurable: { thread_id: `t${n++ % 50}`, checkpoint_ns: "" } };
  const stored = await saver.put(config, checkpoint, { source: "loop", step: 1, parents: {} }, {});
  await saver.putWrites(
    stored,
    [
      ["n", { v: 2 }],
      ["path", ["c"]],
    ],
    "task",
  );
  // The memory saver keeps everything: forget a thread's history now and then.
  if (saver instanceof MemorySaver && n % 1000 === 0) saver.storage = {};
}

console.log(`checkpoint wrappers: CPU µs per step (put + putWrites), ${ROUNDS} rounds`);
console.log(`\nstate  saver   ${builds.map(([b]) => b.padStart(12)).join("")}`);
for (const state of ["small", "big"])
  for (const saverKind of ["memory", "sqlite"]) {
    const group = sides.filter((s) => s.saverKind === saverKind);
    const steps = state === "small" ? STEPS : Math.max(ROUNDS, Math.round(STEPS / 10));
    for (const s of group) for (let i = 0; i < 100; i++) await step(s.saver, STATES[state]());
    const cpu = group.map(() => 0);
    for (let r = 0; r < ROUNDS; r++)
      for (let k = 0; k < group.length; k++) {
        const j = (r + k) % group.length;
        const c0 = process.cpuUsage();
        for (let i = 0; i < steps / ROUNDS; i++) await step(group[j].saver, STATES[state]());
        const c = process.cpuUsage(c0);
        cpu[j] += (c.user + c.system) / steps;
      }
    console.log(
      `${state.padEnd(6)} ${saverKind.padEnd(7)} ${cpu.map((c) => `${c.toFixed(1)}`.padStart(12)).join("")}`,
    );
  }
