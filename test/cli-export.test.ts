/**
 * `graphspec export langgraph`, through the built CLI: what it writes, that running it again is
 * idempotent, that it leaves files it did not write alone, that an invalid spec exports nothing —
 * and the proof: the official dev server (`@langchain/langgraph-cli dev`, offline on 127.0.0.1)
 * serves the export, and the official SDK runs a graph to its interrupt, resumes it with a
 * Command, chooses another model for a run through its config, and streams an agent's tokens
 * (never its system prompt) on `messages-tuple`.
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentSpec } from "./support/agent-spec.js";
import { type LanggraphDev, startLanggraphDev } from "./support/langgraph-dev.js";

const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, "bin/graphspec.js");

/** A graph named with a reserved word, whose default model lets a run choose `second`. */
const CHOOSER = `version: 1
name: default
state:
  messages: { type: messages }
models:
  default: { model: "scripted:first", allow: [second] }
  second: { model: "scripted:second" }
nodes:
  answer: { kind: llm, prompt: Answer the question. }
edges:
  - { from: START, to: answer }
  - { from: answer, to: END }
`;

/** Ten steps, and a spec limit of three. */
const LOOPER = `version: 1
name: looper
state:
  n: { type: integer, reducer: sum, default: 0 }
nodes:
  step: { kind: set, values: { n: 1 } }
edges:
  - { from: START, to: step }
  - from: step
    route:
      - { when: "state.n < 10", to: step }
      - { default: END }
limits: { recursion: 3 }
`;

/** An agent with a system prompt that must never reach a client, and a tool. */
const DESK = agentSpec({
  name: "desk",
  node: "desk",
  model: '{ model: "scripted:desk" }',
  system: "INTERNAL-ONLY-INSTRUCTIONS",
  toolsModule: "../tools.mjs",
});

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "graphspec-export-"));
  writeFileSync(join(dir, "package.json"), "{}\n");
  mkdirSync(join(dir, "graphs"));
  writeFileSync(join(dir, "graphs/default.yaml"), CHOOSER);
  writeFileSync(join(dir, "graphs/looper.yaml"), LOOPER);
  writeFileSync(join(dir, "graphs/desk.yaml"), DESK);
  writeFileSync(
    join(dir, "tools.mjs"),
    "export const lookup = async ({ order }) => `${order}: shipped`;\n",
  );
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The built CLI, from the repository (its graphs/ and tools/ are the ones exported). */
const cli = (...args: string[]) => cliIn(ROOT, ...args);
const cliIn = (cwd: string, ...args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: "utf8" });

const filesIn = (d: string) => (existsSync(d) ? readdirSync(d).sort() : []);

describe("graphspec export langgraph", () => {
  it("writes langgraph.json, the entry module and package.json; the graph id stays the spec's name", () => {
    const out = join(dir, "written");
    const r = cli("export", "langgraph", "graphs/support-triage.yaml", "--out", out);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(filesIn(out)).toEqual([
      ".graphspec-export.json",
      "graphs.mjs",
      "langgraph.json",
      "package.json",
    ]);
    const config = JSON.parse(readFileSync(join(out, "langgraph.json"), "utf8"));
    expect(config).toEqual({
      node_version: "24",
      dependencies: ["."],
      graphs: { "support-triage": "./graphs.mjs:support_triage" },
    });
    const entry = readFileSync(join(out, "graphs.mjs"), "utf8");
    const spec = join(ROOT, "graphs/support-triage.yaml");
    // The spec path is relative to the module, and resolves to the spec.
    const url = /new URL\(("[^"]+"), import\.meta\.url\)/.exec(entry)?.[1];
    expect(url && new URL(JSON.parse(url), `file://${out}/graphs.mjs`).pathname).toBe(spec);
    expect(entry).toContain('import { platformGraph } from "graphspec";');
    const pkg = JSON.parse(readFileSync(join(out, "package.json"), "utf8"));
    expect(Object.keys(pkg.dependencies)).toEqual(["@langchain/langgraph", "graphspec"]);
  });

  it("running it again rewrites the same files; a file it did not write is refused, unless --force", () => {
    const out = join(dir, "again");
    expect(cli("export", "langgraph", "graphs/support-triage.yaml", "--out", out).status).toBe(0);
    const first = filesIn(out).map((f) => readFileSync(join(out, f), "utf8"));
    expect(cli("export", "langgraph", "graphs/support-triage.yaml", "--out", out).status).toBe(0);
    expect(filesIn(out).map((f) => readFileSync(join(out, f), "utf8"))).toEqual(first);

    // Someone edits the entry module: export no longer owns it.
    writeFileSync(join(out, "graphs.mjs"), "// mine\n");
    const refused = cli("export", "langgraph", "graphs/ticket-summary.yaml", "--out", out);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("graphs.mjs");
    expect(refused.stderr).toContain("--force");
    expect(readFileSync(join(out, "graphs.mjs"), "utf8")).toBe("// mine\n");
    // Nothing else was written either.
    expect(readFileSync(join(out, "langgraph.json"), "utf8")).toBe(first[2]);

    const forced = cli(
      "export",
      "langgraph",
      "graphs/ticket-summary.yaml",
      "--out",
      out,
      "--force",
    );
    expect(forced.status).toBe(0);
    expect(readFileSync(join(out, "graphs.mjs"), "utf8")).toContain("ticket_summary");
  });

  it("leaves a langgraph.json it did not write alone in a fresh folder", () => {
    const out = join(dir, "foreign");
    mkdirSync(out);
    writeFileSync(join(out, "langgraph.json"), '{"graphs":{}}\n');
    const r = cli("export", "langgraph", "graphs/support-triage.yaml", "--out", out);
    expect(r.status).toBe(2);
    expect(filesIn(out)).toEqual(["langgraph.json"]);
    expect(readFileSync(join(out, "langgraph.json"), "utf8")).toBe('{"graphs":{}}\n');
  });

  it("a spec that does not validate: its diagnostics as validate prints them, exit 1, nothing written", () => {
    const bad = join(dir, "bad.yaml");
    writeFileSync(
      bad,
      CHOOSER.replace("name: default", "name: bad").replace("to: answer }", "to: answr }"),
    );
    const out = join(dir, "bad-export");
    const r = cli("export", "langgraph", bad, "--out", out);
    expect(r.status).toBe(1);
    const validated = cli("validate", bad);
    expect(validated.status).toBe(1);
    expect(validated.stdout).toContain("[unknown-node]");
    expect(r.stderr).toContain(validated.stdout.trim());
    expect(r.stderr).toContain("nothing exported");
    expect(existsSync(out)).toBe(false);
  });

  it("names the project's .env in langgraph.json (the server reads it); its values are not copied", () => {
    writeFileSync(join(dir, ".env"), "OPENAI_API_KEY=sk-do-not-copy\n");
    try {
      const r = cliIn(dir, "export", "langgraph");
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      const out = join(dir, "langgraph-export");
      expect(JSON.parse(readFileSync(join(out, "langgraph.json"), "utf8")).env).toBe("../.env");
      for (const f of filesIn(out))
        expect(readFileSync(join(out, f), "utf8")).not.toContain("sk-do-not-copy");
    } finally {
      rmSync(join(dir, ".env"));
    }
  });

  it("keeps a package.json it did not write, and says what it lacks", () => {
    const out = join(dir, "own-package");
    mkdirSync(out);
    writeFileSync(join(out, "package.json"), '{"dependencies":{"graphspec":"^0.1.0"}}\n');
    const r = cli("export", "langgraph", "graphs/support-triage.yaml", "--out", out);
    expect(r.status).toBe(0);
    expect(readFileSync(join(out, "package.json"), "utf8")).toBe(
      '{"dependencies":{"graphspec":"^0.1.0"}}\n',
    );
    expect(r.stderr).toContain("does not depend on @langchain/langgraph");
    expect(r.stderr).not.toContain("on graphspec");
    expect(existsSync(join(out, "langgraph.json"))).toBe(true);
  });

  it("--auth names the Auth module in langgraph.json, relative to it", () => {
    const out = join(dir, "with-auth");
    writeFileSync(join(dir, "auth.ts"), "export const auth = {};\n");
    const r = cliIn(dir, "export", "langgraph", "--out", out, "--auth", "auth.ts");
    expect(r.status).toBe(0);
    expect(JSON.parse(readFileSync(join(out, "langgraph.json"), "utf8")).auth).toEqual({
      path: "../auth.ts:auth",
    });
    const missing = cliIn(dir, "export", "langgraph", "--out", out, "--auth", "nope.ts:auth");
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('"nope.ts" does not exist');
  });

  it("a file name that would break out of a string, and names that meet as identifiers, load as the graphs they name", () => {
    const project = join(dir, "odd");
    mkdirSync(join(project, "graphs"), { recursive: true });
    writeFileSync(join(project, "package.json"), "{}\n");
    const spec = (name: string) => CHOOSER.replace("name: default", `name: ${name}`);
    writeFileSync(join(project, "graphs", 'x"); process.exit(3); ("${1}.yaml'), spec("a-b"));
    writeFileSync(join(project, "graphs", "a_b.yaml"), spec("a_b"));
    const r = cliIn(project, "export", "langgraph");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const out = join(project, "langgraph-export");
    const { graphs } = JSON.parse(readFileSync(join(out, "langgraph.json"), "utf8"));
    expect(graphs).toEqual({ a_b: "./graphs.mjs:a_b", "a-b": "./graphs.mjs:a_b_2" });
    mkdirSync(join(out, "node_modules/@langchain"), { recursive: true });
    symlinkSync(ROOT, join(out, "node_modules/graphspec"));
    symlinkSync(
      join(ROOT, "node_modules/@langchain/langgraph"),
      join(out, "node_modules/@langchain/langgraph"),
    );
    const load = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        'const m = await import("./graphs.mjs"); console.log(JSON.stringify(Object.fromEntries(Object.entries(m).map(([k, f]) => [k, f().name]))));',
      ],
      { cwd: out, encoding: "utf8", env: { ...process.env, GRAPHSPEC_SCRIPTS: '{"first": []}' } },
    );
    expect(load.stderr).toBe("");
    expect(load.status).toBe(0);
    expect(JSON.parse(load.stdout)).toEqual({ a_b: "a_b", a_b_2: "a-b" });
  });

  it("refuses an unknown target with a usage error", () => {
    const r = cli("export", "docker");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("`langgraph`");
  });
});

describe("the export served by the official LangGraph dev server", () => {
  let server: LanggraphDev | undefined;
  let client: Client;
  const log = () => server?.log() ?? "";

  beforeAll(async () => {
    const out = join(dir, "served");
    const r = cli(
      "export",
      "langgraph",
      "graphs/support-triage.yaml",
      join(dir, "graphs"),
      "--out",
      out,
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    // As `npm install` in the export would: graphspec (this repository) and LangGraph.
    mkdirSync(join(out, "node_modules/@langchain"), { recursive: true });
    symlinkSync(ROOT, join(out, "node_modules/graphspec"));
    symlinkSync(
      join(ROOT, "node_modules/@langchain/langgraph"),
      join(out, "node_modules/@langchain/langgraph"),
    );
    server = await startLanggraphDev(out, {
      GRAPHSPEC_SCRIPTS: JSON.stringify({
        "support-triage": [{ structured: { priority: "urgent", reason: "the site is down" } }],
        first: ["first answer", "first again"],
        second: ["second answer"],
        desk: [
          { tool_calls: [{ name: "lookup", args: { order: "O-1" } }] },
          "Order O-1 has shipped.",
        ],
      }),
    });
    client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
  }, 150_000);

  afterAll(async () => {
    await server?.stop();
  });

  it("runs support-triage to its interrupt and resumes it with a Command to the end", async () => {
    const thread = await client.threads.create();
    expect(thread.thread_id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    const paused = (await client.runs.wait(thread.thread_id, "support-triage", {
      input: { ticket: "T-1" },
      context: { user_id: "u-7" },
    })) as Record<string, unknown>;
    expect(paused.__interrupt__).toEqual([
      expect.objectContaining({ value: { question: "Escalate T-1?" } }),
    ]);
    const state = await client.threads.getState(thread.thread_id);
    expect(state.next).toEqual(["approval"]);
    expect(state.values).toMatchObject({ priority: "urgent", notes: ["the site is down"] });

    const done = await client.runs.wait(thread.thread_id, "support-triage", {
      command: { resume: true },
      context: { user_id: "u-7" },
    });
    expect(done).toMatchObject({
      ticket: "T-1",
      priority: "urgent",
      approved: true,
      notes: ["the site is down", "sent to u-7: Your ticket is urgent."],
    });
    expect((await client.threads.getState(thread.thread_id)).next).toEqual([]);
  });

  it("a run without the context the spec requires fails before any node runs", async () => {
    const thread = await client.threads.create();
    await expect(
      client.runs.wait(thread.thread_id, "support-triage", { input: { ticket: "T-2" } }),
    ).rejects.toThrow(/missing `user_id`/);
    const { values, next } = await client.threads.getState(thread.thread_id);
    // The input is written; classify, the first node, did not run.
    expect(values).toMatchObject({ ticket: "T-2", notes: [] });
    expect(next).toEqual(["classify"]);
  });

  it("a run chooses another model through its config; the next run takes the default again", async () => {
    const answer = async (config?: { configurable: Record<string, unknown> }) => {
      const thread = await client.threads.create();
      const values = (await client.runs.wait(thread.thread_id, "default", {
        input: { messages: [{ role: "user", content: "hi" }] },
        ...(config ? { config } : {}),
      })) as { messages: { content: string }[] };
      return values.messages.at(-1)?.content;
    };
    expect(await answer({ configurable: { model: "second" } })).toBe("second answer");
    expect(await answer()).toBe("first answer");
  });

  it("a later run on a thread takes the script's next turn (the platform's checkpointer keeps the place)", async () => {
    const thread = await client.threads.create();
    const ask = async () =>
      (
        (await client.runs.wait(thread.thread_id, "default", {
          input: { messages: [{ role: "user", content: "hi" }] },
        })) as { messages: { content: string }[] }
      ).messages.at(-1)?.content;
    expect(await ask()).toBe("first answer");
    expect(await ask()).toBe("first again");
  });

  it("the spec's limits.recursion holds for a run that chooses none", async () => {
    const thread = await client.threads.create();
    await expect(client.runs.wait(thread.thread_id, "looper", { input: {} })).rejects.toThrow(
      /Recursion limit of 3 reached/,
    );
  });

  it("/schemas of an exported graph: the upstream failure docs/deploy.md records (500)", async () => {
    // The state is an Annotation in a .mjs module, so the server asks its TypeScript parser,
    // which fails (test/langgraph-api-upstream.test.ts: the same with a hand-written graph).
    await expect(client.assistants.getSchemas("support-triage")).rejects.toThrow(/500/);
    expect(log()).toContain('Failed to extract schema for "support-triage"');
  });

  it("an agent streams its answer token by token on messages-tuple, never its system prompt", async () => {
    const thread = await client.threads.create();
    const events: { event: string; data: unknown }[] = [];
    for await (const e of client.runs.stream(thread.thread_id, "desk", {
      input: { messages: [{ role: "user", content: "Where is O-1?" }] },
      streamMode: "messages-tuple",
    }))
      events.push(e);
    const messages = events
      .filter((e) => e.event === "messages")
      .map((e) => (e.data as [{ type: string; content: unknown }])[0]);
    expect(JSON.stringify(events)).not.toContain("INTERNAL-ONLY");
    expect(messages.some((m) => m.type === "system")).toBe(false);
    const answer = messages.filter((m) => m.type !== "tool" && m.content !== "");
    // The script's answer, in its pieces of four characters.
    expect(answer.length).toBeGreaterThan(1);
    expect(answer.map((m) => m.content).join("")).toBe("Order O-1 has shipped.");
  });

  it("a model no `allow` names is refused", async () => {
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "default", {
      input: { messages: [{ role: "user", content: "hi" }] },
      config: { configurable: { model: "openai:gpt-4o" } },
    });
    await client.runs.join(thread.thread_id, run.run_id);
    const finished = await client.runs.get(thread.thread_id, run.run_id);
    expect(finished.status).toBe("error");
    expect(log()).toContain("model-not-allowed");
  });
});
