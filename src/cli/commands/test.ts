/**
 * `graphspec test [files|dirs]`: runs `*.test.yaml` fixtures (graphs/ by default) offline and
 * deterministically, and reports each failure at the fixture line it comes from, with a diff.
 */
import { relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { diffLines } from "diff";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { TestFailure, TestResult } from "../../run/fixtures/run.js";
import { diagnosticAtPath } from "../../spec/document.js";
import { ENV_FILE_OPTION, loadEnvFile } from "../env-file.js";
import { EXIT, type Io, UsageError } from "../io.js";

export const testHelp = `Usage: graphspec test [files or directories] [options]

Runs test fixtures (*.test.yaml, *.test.yml, *.test.json): for each test, a run of the graph with
the test's input, context, scripted model answers and run choices (model, allow_tools,
recursion_limit, interrupt_before, interrupt_after), then each resume of \`then\`, compared with
what the test expects (status, path of nodes, output, interrupts, next nodes, error, usage, denied).
Offline and deterministic: in-memory checkpoints, scripted models only — a script named like one
of the spec's models stands in for it; a model without one fails rather than call its provider.
Default: graphs/.

Options:
  -t, --test <text>   run only the tests whose name contains this text
      --json          print the results as one JSON object
      --env-file <path>  read variables from this file instead of the project's .env
                      (the environment's own values win; secrets are masked)
  -h, --help          show this help

Exit: 0 every test passed, 1 a test failed or a fixture has errors, 2 usage error.
Reference: docs/testing.md.`;

interface FileReport {
  file: string;
  problems: Diagnostic[];
  results: (TestResult & { location?: Diagnostic })[];
}

export async function testCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      test: { type: "string", short: "t" },
      json: { type: "boolean", default: false },
      ...ENV_FILE_OPTION,
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    io.out(testHelp);
    return EXIT.ok;
  }
  // Before anything reads the environment: the project's .env fills in what it lacks.
  const { secrets } = loadEnvFile(io, values["env-file"]);
  // Loaded here: `graphspec validate` must not load LangGraph.
  const { findFixtures, loadFixture } = await import("../../run/fixtures/load.js");
  const { runFixture } = await import("../../run/fixtures/run.js");
  const roots = (positionals.length ? positionals : ["graphs"]).map((p) => resolve(io.cwd, p));
  const files = findFixtures(roots);
  if (!files.length) {
    throw new UsageError(
      `no test fixtures (*.test.yaml) in ${positionals.length ? positionals.join(", ") : "graphs/"}`,
    );
  }
  const filter = values.test;
  const reports: FileReport[] = [];
  for (const path of files) {
    const file = relative(io.cwd, path) || path;
    const { fixture, problems } = await loadFixture(path, file);
    if (!fixture) {
      reports.push({ file, problems, results: [] });
      continue;
    }
    const results = await runFixture(
      fixture,
      secrets.length ? { secrets } : {},
      filter ? (t) => t.name.includes(filter) : undefined,
    );
    reports.push({
      file,
      problems: [],
      results: results.map((r) =>
        r.failure ? { ...r, location: locate(fixture.doc, r.failure) } : r,
      ),
    });
  }
  const counts = tally(reports);
  if (values.json) io.out(JSON.stringify({ ...counts, files: reports }));
  else print(io, reports, counts);
  if (filter && counts.passed + counts.failed === 0) {
    io.err(`no test's name contains "${filter}"`);
    return EXIT.findings;
  }
  return counts.failed || counts.fixtureErrors ? EXIT.findings : EXIT.ok;
}

function locate(doc: Parameters<typeof diagnosticAtPath>[0], failure: TestFailure): Diagnostic {
  return diagnosticAtPath(doc, failure.at, {
    rule: "test",
    severity: "error",
    message: failure.message,
  });
}

function tally(reports: FileReport[]) {
  const all = reports.flatMap((r) => r.results);
  return {
    passed: all.filter((r) => r.passed).length,
    failed: all.filter((r) => !r.passed).length,
    fixtureErrors: reports.reduce((n, r) => n + r.problems.length, 0),
  };
}

/** Expected and actual as a line diff of their JSON: `-` expected, `+` actual. */
function diff(expected: unknown, actual: unknown): string[] {
  const text = (v: unknown) => `${v === undefined ? "(nothing)" : JSON.stringify(v, null, 2)}\n`;
  return diffLines(text(expected), text(actual)).flatMap((part) => {
    const mark = part.added ? "+ " : part.removed ? "- " : "  ";
    return part.value
      .replace(/\n$/, "")
      .split("\n")
      .map((line) => mark + line);
  });
}

function print(io: Io, reports: FileReport[], counts: ReturnType<typeof tally>): void {
  for (const report of reports) {
    io.out(report.file);
    for (const p of report.problems) {
      io.out(`  ✖ ${p.file}:${p.line}:${p.column}: ${p.message} [${p.rule}]`);
      if (p.hint) io.out(`    hint: ${p.hint}`);
    }
    for (const r of report.results) {
      if (r.passed) {
        io.out(`  ✔ ${r.name} (${r.durationMs} ms)`);
        continue;
      }
      const f = r.failure!;
      const loc = r.location!;
      io.out(`  ✖ ${r.name}`);
      // A message of several lines (a spec's compile errors) stays under its test.
      const message = f.message.replace(/\n/g, "\n      ");
      io.out(`    ${loc.file}:${loc.line}:${loc.column}: ${message}`);
      if (f.expected !== undefined || f.actual !== undefined) {
        io.out("    - expected\n    + actual");
        for (const line of diff(f.expected, f.actual)) io.out(`    ${line}`);
      }
    }
  }
  const total = counts.passed + counts.failed;
  const errors = counts.fixtureErrors
    ? `, ${counts.fixtureErrors} fixture error${counts.fixtureErrors === 1 ? "" : "s"}`
    : "";
  io.out(
    `${total} test${total === 1 ? "" : "s"}: ${counts.passed} passed, ${counts.failed} failed${errors}`,
  );
}
