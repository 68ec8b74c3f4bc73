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

describe("graphspec run --store", () => {
  it("gives tools a store, and shows what they write with runtime.writer", () => {
    const scripts = JSON.stringify({
      notes: [{ tool_calls: [{ name: "record_note", args: { note: "refund sent" } }] }, "Noted."],
    });
    const r = graphspec(
      "run",
      "test/fixtures/tool-runtime/notes.yaml",
      "--progress",
      "--checkpointer",
      "memory",
      "--store",
      "memory",
      "--context",
      '{"account_id":"acc-5"}',
      "--input",
      '{"messages":[{"role":"user","content":"note it"}]}',
      "--scripts",
      scripts,
    );
    expect(r.stderr).toContain('  · {"noting":"refund sent"}');
    expect(r.stdout).toContain('\\"store\\":true');
    expect(r.status).toBe(0);
    expect(graphspec("run", "x", "--store", "redis").stderr).toContain(
      '--store must be memory or postgres, not "redis"',
    );
  });
});
