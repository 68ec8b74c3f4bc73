/**
 * A stand-in chosen per run through the package entry (docs/executor.md, `standIn` and
 * `standIns`): one executor, one compiled version of a real-model graph, and runs side by side —
 * one answered by scripts, one by the recording (streamed, as `graphspec run` recorded it), one
 * reaching the provider (no key: it fails) —
 * and a choice the executor does not offer refused before anything runs. The built package, in a
 * process with no provider key and the provider URL on a closed port.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support/cli.js";

function script(
  source: string,
): Record<string, { status: string; output: unknown; error?: { code: string; field?: string } }> {
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", source], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, OPENAI_API_KEY: "", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
  });
  expect(r.stderr, r.stderr).toBe("");
  return JSON.parse(r.stdout);
}

describe("createExecutor({ standIns }) and run({ standIn })", () => {
  it("answers each run from what it chose, and the run that chose nothing from the provider", () => {
    const out = script(`
      import { readFileSync } from "node:fs";
      import { createExecutor, ProviderRecording } from "graphspec";
      const recording = ProviderRecording.replay(
        readFileSync("graphs/ticket-summary.recording.json", "utf8"), "the recording", [], { reuse: true });
      const offered = {
        scripts: { scripts: { default: ["Scripted summary."] } },
        recorded: { recording },
      };
      const exec = createExecutor({
        dir: "graphs",
        checkpointer: "memory",
        standIns: {
          withoutOne: "provider",
          offers: async () => Object.keys(offered).map((id) => ({ id, kind: id === "recorded" ? "recording" : "scripts", file: id })),
          choose: async (_spec, id) => offered[id],
        },
      });
      const input = { ticket_id: "T-1001" };
      const streamed = async (events) => {
        for await (const e of events) if (e.result) return e.result;
      };
      const shown = (r) => ({ status: r.status, output: r.output, error: r.error && { code: r.error.code, field: r.error.field } });
      const out = {
        scripts: shown(await exec.run("ticket-summary", { input, standIn: "scripts" })),
        // Streamed, as it was recorded: a replay answers the requests the recording holds.
        recorded: shown(await streamed(exec.stream("ticket-summary", { input, standIn: "recorded" }))),
        none: shown(await exec.run("ticket-summary", { input })),
        unknown: shown(await exec.run("ticket-summary", { input, standIn: "../package.json" })),
      };
      await exec.close();
      const bare = createExecutor({ dir: "graphs", checkpointer: "memory" });
      out.bare = shown(await bare.run("ticket-summary", { input, standIn: "scripts" }));
      await bare.close();
      console.log(JSON.stringify(out));
    `);
    expect(out.scripts).toMatchObject({
      status: "completed",
      output: { summary: "Scripted summary." },
    });
    expect(out.recorded).toMatchObject({
      status: "completed",
      output: { summary: "Ada has been locked out since Monday." },
    });
    expect(out.none).toMatchObject({ status: "failed", error: { code: "unauthorized" } });
    for (const refused of [out.unknown, out.bare])
      expect(refused).toMatchObject({
        status: "failed",
        output: {},
        error: { code: "invalid-run-option", field: "standIn" },
      });
  });
});
