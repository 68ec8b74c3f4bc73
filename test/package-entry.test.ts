/**
 * The package as users import it (`import … from "graphspec"`, resolved through package.json's
 * `exports` to the build): its executor offers every member of the one in src/run/, each member
 * works, and creating one loads no LangChain until it is used. Runs the build (`npm run build`
 * first; `npm test` does).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const tmp = mkdtempSync(join(tmpdir(), "graphspec-entry-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs an ES module script in the project, where `graphspec` resolves to the package itself. */
function script(source: string): unknown {
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", source], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, GRAPHSPEC_TMP: tmp },
  });
  expect(r.stderr, r.stderr).toBe("");
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout);
}

it("createExecutor from the package forwards every member of the executor", () => {
  const out = script(`
    import { createExecutor } from "graphspec";
    const real = await import("./dist/run/executor.js");
    const entry = createExecutor({ checkpointer: "memory" });
    const inner = real.createExecutor({ checkpointer: "memory" });
    const members = (e) => Object.keys(e).filter((k) => typeof e[k] === "function").sort();
    console.log(JSON.stringify({ entry: members(entry), inner: members(inner) }));
    await entry.close();
    await inner.close();
  `) as { entry: string[]; inner: string[] };
  expect(out.inner.length).toBeGreaterThan(5);
  expect(out.entry).toEqual(out.inner);
});

it("each member works through the package entry (the docs/executor.md walk-through)", () => {
  const out = script(`
    import { join } from "node:path";
    import { createExecutor, RUN_ERRORS } from "graphspec";
    const scripts = {
      "support-triage": [{ structured: { priority: "urgent", reason: "locked out" } }],
    };
    const exec = createExecutor({
      dir: "graphs",
      sqlitePath: join(process.env.GRAPHSPEC_TMP, "state.db"),
      scripts,
    });
    const context = { user_id: "u-42", api_token: "sk-secret" };
    const paused = await exec.run("support-triage", {
      input: { ticket: "T-1001: I cannot log in" }, threadId: "acct-1:t1", context,
    });
    const inspected = await exec.inspect("acct-1:t1");
    const graph = await exec.graphOf("acct-1:t1");
    const stored = await exec.contextOf("acct-1:t1");
    const events = [];
    for await (const e of exec.stream("support-triage", { threadId: "acct-1:t1", resume: true })) {
      events.push(e.type);
    }
    const history = await exec.history("acct-1:t1");
    const again = await exec.resume("support-triage", { threadId: "acct-1:t1", value: true });
    await exec.run("support-triage", { input: { ticket: "T-2" }, threadId: "acct-1:t2", context });
    await exec.run("support-triage", { input: { ticket: "T-3" }, threadId: "acct-2:t3", context });
    const listed = (await exec.threads()).map((t) => t.threadId).sort();
    const deleted = (await exec.deleteThreads("acct-1:")).sort();
    await exec.deleteThread("acct-2:t3");
    const left = await exec.threads();
    await exec.close();
    console.log(JSON.stringify({
      paused: { status: paused.status, node: paused.interrupts[0]?.node },
      inspected: inspected?.status,
      graph,
      stored,
      events,
      history: history?.length,
      again: again.error?.code,
      againPhase: RUN_ERRORS[again.error?.code]?.phase,
      listed,
      deleted,
      left: left.length,
    }));
  `) as Record<string, unknown>;
  expect(out).toMatchObject({
    paused: { status: "interrupted", node: "approval" },
    inspected: "interrupted",
    stored: { user_id: "u-42" },
    history: expect.any(Number),
    again: "nothing-to-resume",
    againPhase: "input",
    listed: ["acct-1:t1", "acct-1:t2", "acct-2:t3"],
    deleted: ["acct-1:t1", "acct-1:t2"],
    left: 0,
  });
  expect(out.graph).toMatch(/graphs\/support-triage\.yaml$/);
  expect(out.stored).not.toHaveProperty("api_token");
  // The resumed stream: events in order, ending with exactly one final event.
  const events = out.events as string[];
  expect(events[0]).toBe("run_start");
  expect(events).toContain("node_start");
  expect(events.filter((e) => ["completed", "interrupted", "failed"].includes(e))).toEqual([
    "completed",
  ]);
  expect(events.at(-1)).toBe("completed");
  expect(out.history as number).toBeGreaterThan(2);
});
