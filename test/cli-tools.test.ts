/** `graphspec run` with the run's tools: `--allow-tools`, as a user runs it (the built CLI). */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const BIN = join(import.meta.dirname, "..", "bin", "graphspec.js");
const root = join(import.meta.dirname, "..");
const graphspec = (...args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { cwd: root, encoding: "utf8" });

describe("graphspec run --allow-tools", () => {
  it("a call of a tool outside the list does not run, and the progress says so", () => {
    const scripts = JSON.stringify({
      policy: [{ tool_calls: [{ name: "notify_customer", args: { message: "hi" } }] }, "Sorry."],
    });
    const r = graphspec(
      "run",
      "test/fixtures/tool-policy/loop.yaml",
      "--progress",
      "--checkpointer",
      "memory",
      "--allow-tools",
      " lookup_ticket, ",
      "--input",
      '{"messages":[{"role":"user","content":"hi"}]}',
      "--scripts",
      scripts,
    );
    expect(r.stderr).toContain("⊘ notify_customer denied: this run may use lookup_ticket");
    expect(r.stderr).not.toContain("↳ notify_customer");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^✔ completed on thread /);
    expect(r.stdout).toContain('"errorCode": "policy_denied"');
  });
});
