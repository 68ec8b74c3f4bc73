/**
 * How soon does `graphspec lsp` show the findings of a change? Run with `npm run bench:lsp`
 * (after `npm run build`). See bench/README.md.
 *
 * Drives the built server (`graphspec lsp --stdio`, a process of its own) over a real JSON-RPC
 * connection, as an editor does, on a 60-node spec that mounts a 10-node subgraph. After the
 * first check of the opened text it makes N edits (default 40), one at a time, each a keystroke's
 * worth: a value changed, an edge broken to an unknown node, the edge fixed again. For each, the
 * time from sending `didChange` to receiving the `publishDiagnostics` of that version. Prints the
 * median and p95, the server's CPU per check (from /proc, less noisy than wall time on a shared
 * machine), and the load average beside them.
 *
 * Options: --edits N (default 40), --pause MS between edits (default 150), --compare DIR (another
 * built checkout, e.g. main's: its server gets the same edits, interleaved with this one's).
 * It never fails on the numbers.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";
import { benchOptions } from "./options.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = join(ROOT, "bin", "graphspec.js");
const { values: opts } = benchOptions(import.meta.url, {
  edits: { type: "string", default: "40" },
  pause: { type: "string", default: "150" },
  compare: { type: "string" },
});
const EDITS = Number(opts.edits);
const PAUSE = Number(opts.pause);

/** A spec of `count` nodes in a chain of sets, llm calls and routes; `sub` mounts the child. */
function bigSpec(count, mark) {
  const lines = [
    "version: 1",
    "name: big",
    "state:",
    "  messages: { type: messages }",
    '  ticket: { type: string, default: "" }',
    "  notes: { type: array, items: { type: string }, reducer: append, default: [] }",
    "  attempts: { type: integer, reducer: sum, default: 0 }",
    '  summary: { type: string, default: "" }',
    "context:",
    "  user_id: { type: string }",
    "models:",
    '  default: { model: "openai:gpt-4o-mini", temperature: 0 }',
    "nodes:",
  ];
  const edges = ["edges:", "  - { from: START, to: n0 }"];
  for (let i = 0; i < count; i++) {
    const next = i + 1 < count ? `n${i + 1}` : "END";
    if (i === Math.floor(count / 2)) {
      lines.push(
        `  n${i}:`,
        "    kind: subgraph",
        "    graph: ./child.yaml",
        '    input: { ticket: "${{ state.ticket }}" }',
        '    output: { summary: "${{ output.summary }}" }',
      );
      edges.push(`  - { from: n${i}, to: ${next} }`);
    } else if (i % 3 === 0) {
      lines.push(
        `  n${i}:`,
        "    kind: llm",
        `    prompt: "Step ${i} of \${{ state.ticket }} with \${{ size(state.notes) }} notes for \${{ context.user_id }}"`,
        `    write: { summary: "\${{ output.text }}" }`,
      );
      edges.push(`  - { from: n${i}, to: ${next} }`);
    } else if (i % 3 === 1) {
      lines.push(
        `  n${i}: { kind: set, values: { notes: ["${mark}-${i}"], attempts: 1, ticket: "\${{ state.ticket + '${i}' }}" } }`,
      );
      edges.push(`  - { from: n${i}, to: ${next} }`);
    } else {
      lines.push(`  n${i}: { kind: set, values: { summary: "\${{ state.summary }} ${i}" } }`);
      edges.push(
        `  - from: n${i}`,
        "    route:",
        `      - { when: "state.attempts > ${i} && size(state.notes) > 0", to: ${next} }`,
        `      - { default: ${next} }`,
      );
    }
  }
  return [...lines, ...edges, ""].join("\n");
}

const CHILD = [
  "version: 1",
  "name: child",
  "state:",
  '  ticket: { type: string, default: "" }',
  '  summary: { type: string, default: "" }',
  "nodes:",
  ...Array.from(
    { length: 10 },
    (_, i) => `  c${i}: { kind: set, values: { summary: "\${{ state.ticket }} ${i}" } }`,
  ),
  "edges:",
  "  - { from: START, to: c0 }",
  ...Array.from(
    { length: 10 },
    (_, i) => `  - { from: c${i}, to: ${i < 9 ? `c${i + 1}` : "END"} }`,
  ),
  "",
].join("\n");

const project = mkdtempSync(join(tmpdir(), "graphspec-bench-lsp-"));
writeFileSync(join(project, "package.json"), "{}\n");
mkdirSync(join(project, "graphs"));
const specPath = join(project, "graphs", "big.yaml");
writeFileSync(specPath, bigSpec(60, "a"));
writeFileSync(join(project, "graphs", "child.yaml"), CHILD);
const uri = pathToFileURL(specPath).href;

/** A server started from `bin`, with the spec opened and checked once. */
async function session(bin) {
  const child = spawn(process.execPath, [bin, "lsp", "--stdio"], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const client = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const waiting = new Map();
  const found = new Map();
  client.onNotification(PublishDiagnosticsNotification.type, (p) => {
    if (p.uri !== uri || p.version === undefined) return;
    found.set(p.version, p.diagnostics);
    waiting.get(p.version)?.(p.diagnostics);
  });
  const published = (version) =>
    new Promise((resolve) => {
      if (found.has(version)) resolve(found.get(version));
      else waiting.set(version, resolve);
    });
  client.listen();
  await client.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: pathToFileURL(project).href,
    capabilities: {},
    workspaceFolders: null,
  });
  await client.sendNotification(InitializedNotification.type, {});
  let version = 1;
  const t = performance.now();
  await client.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: "yaml", version, text: bigSpec(60, "a") },
  });
  const first = await published(version);
  const opened = performance.now() - t;
  if (first.length)
    console.log(
      "the opened spec has findings:",
      first.map((d) => d.message),
    );
  return {
    opened,
    times: [],
    /** The server's CPU time so far, in ms (utime + stime of /proc/PID/stat; Linux only). */
    cpu() {
      try {
        const fields = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1].split(" ");
        return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
      } catch {
        return Number.NaN;
      }
    },
    /** Sends edit `i` and waits for its diagnostics; records the time between. */
    async edit(i) {
      // A value changed; an edge sent to an unknown node; that edge fixed.
      let text = bigSpec(60, `m${i}`);
      if (i % 3 === 1)
        text = text.replace("  - { from: n10, to: n11 }", "  - { from: n10, to: n1x }");
      version++;
      const start = performance.now();
      const done = published(version);
      await client.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version },
        contentChanges: [{ text }],
      });
      const diagnostics = await done;
      this.times.push(performance.now() - start);
      if ((i % 3 === 1) !== diagnostics.some((d) => d.code === "unknown-node"))
        console.log(
          `edit ${i}: unexpected findings`,
          diagnostics.map((d) => d.code),
        );
    },
    async close() {
      await client.sendRequest(ShutdownRequest.type);
      await client.sendNotification(ExitNotification.type);
    },
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const runs = [["this build", BIN]];
if (opts.compare) runs.push([opts.compare, join(opts.compare, "bin", "graphspec.js")]);
const sessions = [];
for (const [, bin] of runs) sessions.push(await session(bin));
const load = loadavg();
const cpuBefore = sessions.map((s) => s.cpu());
// Interleaved: each edit goes to every server in turn, so both see the same load.
for (let i = 0; i < EDITS; i++) {
  for (const s of sessions) {
    await sleep(PAUSE);
    await s.edit(i);
  }
}
const cpu = sessions.map((s, k) => (s.cpu() - cpuBefore[k]) / EDITS);
const loadAfter = loadavg();
for (const s of sessions) await s.close();
rmSync(project, { recursive: true, force: true });

const ms = (n) => `${n.toFixed(1)} ms`;
const loads = (l) => l.map((x) => x.toFixed(2)).join(" ");
console.log(
  `graphspec lsp, 60-node spec with a 10-node subgraph, ${EDITS} edits (Node ${process.versions.node})`,
);
sessions.forEach((s, k) => {
  const times = [...s.times].sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  console.log(`${runs[k][0]}:`);
  console.log(`  first check of the opened text: ${ms(s.opened)}`);
  console.log(
    `  didChange → publishDiagnostics: median ${ms(at(0.5))}, p95 ${ms(at(0.95))}, max ${ms(times.at(-1))}`,
  );
  console.log(`  server CPU per change: ${ms(cpu[k])}`);
});
console.log(
  `load average (1, 5, 15 min): ${loads(load)} before, ${loads(loadAfter)} after, on ${availableParallelism()} cores`,
);
