#!/usr/bin/env node
/**
 * `npm run demo`: the main job, offline and with no API key. Validates the example graphs and
 * the catalog in tools/, runs graphs/support-triage.yaml on a scripted model until it pauses for
 * a person's approval, then resumes it with the approval, runs graphs/mcp-notes.yaml (an agent using
 * an MCP server's tools) — each step a real `graphspec` command, printed as it runs.
 * Checkpoints go to .graphspec/state.db, so the paused run survives between the two commands.
 */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const thread = `demo-${randomUUID().slice(0, 8)}`;
const context = JSON.stringify({ user_id: "u-42" });
// What the scripted model answers: the classifier finds the ticket urgent.
const scripts = JSON.stringify({
  "support-triage": [{ structured: { priority: "urgent", reason: "the customer is locked out" } }],
});

function graphspec(...args) {
  const shown = args.map((a) => (/[\s"{}]/.test(a) ? `'${a}'` : a)).join(" ");
  console.log(`\n$ graphspec ${shown}`);
  const r = spawnSync(process.execPath, [join(ROOT, "bin", "graphspec.js"), ...args], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// tools/ holds the catalog the helpdesk and ticket-summary examples share: checked as a catalog.
graphspec("validate", "graphs/", "tools/");
graphspec(
  "run",
  "support-triage",
  "--thread",
  thread,
  "--input",
  '{"ticket":"T-1001: I cannot log in"}',
  "--context",
  context,
  "--scripts",
  scripts,
);
graphspec("resume", "support-triage", "--thread", thread, "--value", "true", "--scripts", scripts);
// An agent whose tools come from an MCP server (tools/notes-mcp-server.mjs, started over stdio by
// the run and ended with it), its model scripted to look a note up.
graphspec(
  "run",
  "mcp-notes",
  "--input",
  '{"messages":[{"role":"user","content":"Who is on call for login incidents?"}]}',
  "--context",
  context,
  "--scripts",
  JSON.stringify({
    "mcp-notes": [
      { tool_calls: [{ name: "find_notes", args: { query: "on-call" } }] },
      { text: "Ada is on call for login incidents this month." },
    ],
  }),
);
// The examples' fixtures: each graph run offline against what it must do — the catalog examples'
// real models (openai, anthropic) stood in for by scripts, so no request leaves.
graphspec("test");
