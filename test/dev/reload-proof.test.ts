/**
 * The reload proof of issue 12: 50 concurrent runs while the spec is rewritten 20 times, valid and
 * invalid versions alternating. No run fails because of the reload, and each completes on one
 * consistent version: every node of a run writes its version's mark, so a run that saw two
 * versions would show two marks.
 */
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { createDevExecutor } from "../../src/dev/dev-executor.js";
import type { RunResult } from "../../src/run/result.js";
import { markingSpec, project, recorder, until } from "./project.js";

const p = project("proof");
afterAll(() => p.remove());

it("50 concurrent runs while the spec is rewritten 20 times (valid and invalid alternating)", async () => {
  // The middle node takes a few milliseconds, so runs are in flight while versions change.
  p.write(
    "graphs/slow.mjs",
    "export default async () => {\n  await new Promise((r) => setTimeout(r, 15));\n  return { marks: ['slow'] };\n};\n",
  );
  p.write("graphs/marking.yaml", markingSpec("v0"));
  const r = recorder();
  const dev = createDevExecutor({
    dir: p.graphs,
    sqlitePath: join(p.root, "state.db"),
    onReload: r.onReload,
  });
  await dev.ready;
  const runs: Promise<RunResult>[] = [];
  const start = (n: number) => {
    for (let i = 0; i < n; i++) runs.push(dev.executor.run("marking"));
  };
  start(5);
  for (let edit = 1; edit <= 20; edit++) {
    const valid = edit % 2 === 0;
    const events = r.events.length;
    // An invalid version names a node that does not exist; a valid one marks its runs `v<edit>`.
    p.write("graphs/marking.yaml", markingSpec(`v${edit}`, valid ? "" : "lats"));
    start(edit <= 5 ? 3 : 2);
    await until(() =>
      r.events.slice(events).some((e) => e.type === (valid ? "reloaded" : "rejected")),
    ).catch((e) => {
      throw new Error(
        `edit ${edit}: no ${valid ? "reload" : "refusal"}; events: ${JSON.stringify(r.events.slice(events))}`,
        { cause: e },
      );
    });
  }
  expect(runs).toHaveLength(50);
  const results = await Promise.all(runs);
  const failed = results.filter((x) => x.status !== "completed");
  expect(failed.map((x) => x.error)).toEqual([]);
  const seen = new Set<string>();
  for (const result of results) {
    const [first, middle, last] = result.output.marks as string[];
    expect(middle).toBe("slow");
    expect(last).toBe(first);
    seen.add(first!);
  }
  // Only valid versions ran (v0, v2, v4, …), and the runs spread over several of them.
  for (const mark of seen) expect(Number(mark.slice(1)) % 2).toBe(0);
  expect(seen.size).toBeGreaterThan(3);
  expect(r.count("rejected")).toBe(10);
  expect(dev.versionOf("marking")).toBe(11);
  await dev.close();
}, 120_000);
