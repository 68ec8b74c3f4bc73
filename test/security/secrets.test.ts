/**
 * Secrets never reach storage or output. A function, a tool and a model provider fail with errors
 * that quote an API key, a database password and a bearer token; nodes copy secrets into state;
 * an interrupt asks with one. None of them may show in the RunResult, the events, the CLI's
 * output — JSON, pretty, progress, `threads show` — or any byte of the SQLite file or the
 * PostgreSQL tables. The secrets come from every source graphspec knows: an environment variable
 * a spec reads (under a name that does not look secret), a URL's password, a context key declared
 * `secret: true`, and keys whose names look secret (`auth`, `pass`, `creds.token`).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createExecutor,
  type ExecutorOptions,
  type RunEvent,
  type RunResult,
} from "../../src/index.js";
import { startOpenAIStub } from "../support/openai-stub.js";
import { freshDatabase, serverUrl } from "../support/postgres.js";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphspec.js");

const API_KEY = "sk-live-4f3e2d1c0b9a8877";
const DB_PASSWORD = "Hunter2-pg-Passw0rd";
const BEARER = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LTEifQ.c2lnbmF0dXJl";
const AUTH = "auth-value-7731";
const PASS = "pass-value-9902";
const CREDS_TOKEN = "creds-token-5561";
const CREDS_USER = "creds-user-4410";
/** Every value that must never be shown or stored. */
const SECRETS = [API_KEY, DB_PASSWORD, BEARER, AUTH, PASS, CREDS_TOKEN, CREDS_USER];

/** What the functions and the CLI see: the key under a name that does not look secret. */
const SECRET_ENV = {
  MY_OPENAI_KEY: API_KEY,
  APP_DATABASE_URL: `postgresql://app:${DB_PASSWORD}@db.internal:5432/app`,
};
const CONTEXT = {
  upstream: BEARER,
  auth: AUTH,
  pass: PASS,
  creds: { token: CREDS_TOKEN, user: CREDS_USER },
  user_id: "u-1",
};

const dir = mkdtempSync(join(tmpdir(), "graphspec-secrets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
const graph = (name: string, text: string) =>
  writeFileSync(join(dir, "graphs", `${name}.yaml`), `version: 1\nname: ${name}\n${text}`);

// A tool that fails the way real clients do: quoting what it was given, and where it ran.
writeFileSync(
  join(dir, "leak.mjs"),
  `const db = () => new URL(process.env.APP_DATABASE_URL).password;
const all = (ctx) =>
  \`key \${process.env.MY_OPENAI_KEY}, db password \${db()}, Authorization: Bearer \${ctx.upstream}, \` +
  \`auth \${ctx.auth}, pass \${ctx.pass}, creds \${ctx.creds.token}/\${ctx.creds.user}\`;
export const copy = (state, runtime) => ({ note: "copied " + all(runtime.context) });
export const fail = (state, runtime) => {
  throw new Error("upstream refused: " + all(runtime.context) + ", in " + process.cwd());
};
`,
);

const CONTEXT_DECL = `context:
  upstream: { type: string, secret: true }
  auth: { type: string }
  pass: { type: string }
  creds: { type: object, additionalProperties: true }
  user_id: { type: string }
`;
const MODELS = `models:
  default: { model: "openai:gpt-4o-mini", api_key: "\${{ env.MY_OPENAI_KEY }}", base_url: "\${{ env.STUB_URL }}", max_retries: 0 }
`;

// copy (secrets into state) → ask (an interrupt quoting one) → fail (an error quoting them all)
graph(
  "leak",
  `state:
  note: { type: string, default: "" }
  answer: { type: string, default: "" }
${CONTEXT_DECL}${MODELS}nodes:
  copy: { kind: function, module: ../leak.mjs, export: copy, writes: [note] }
  ask:
    kind: interrupt
    payload: { question: "Send with \${{ context.upstream }}?" }
    schema: { type: string }
    write: answer
  fail: { kind: function, module: ../leak.mjs, export: fail, writes: [note] }
edges:
  - { from: START, to: copy }
  - { from: copy, to: ask }
  - { from: ask, to: fail }
  - { from: fail, to: END }
`,
);

// A model that says the key back (streamed in pieces of four characters), then a provider error quoting it.
graph(
  "chat",
  `state:
  messages: { type: messages }
${MODELS}nodes:
  talk: { kind: llm, prompt: "hi" }
  again: { kind: llm, prompt: "again" }
edges:
  - { from: START, to: talk }
  - { from: talk, to: again }
  - { from: again, to: END }
`,
);

// A subgraph whose own `models:` read a variable, and which fails quoting it.
writeFileSync(
  join(dir, "child-fail.mjs"),
  `export default () => { throw new Error("child refused " + process.env.CHILD_KEY); };\n`,
);
graph(
  "child",
  `state:
  note: { type: string, default: "" }
models:
  default: { model: "openai:gpt-4o-mini", api_key: "\${{ env.CHILD_KEY }}" }
nodes:
  copy: { kind: set, values: { note: "\${{ state.note }} (child)" } }
  fail: { kind: function, module: ../child-fail.mjs, writes: [note] }
edges:
  - { from: START, to: copy }
  - { from: copy, to: fail }
  - { from: fail, to: END }
`,
);
graph(
  "parent",
  `state:
  note: { type: string, default: "" }
nodes:
  inner: { kind: subgraph, graph: ./child.yaml }
edges:
  - { from: START, to: inner }
  - { from: inner, to: END }
`,
);
const CHILD_KEY = "child-key-31415926";

/** The secrets of `text` (JSON, output, file bytes as text). */
const found = (text: string) => SECRETS.filter((s) => text.includes(s));

/** Every byte of the SQLite database (and its journal files), as text. */
function sqliteBytes(path: string): string {
  const folder = join(path, "..");
  const base = path.split("/").pop()!;
  // Files and folders beside it too (WAL journals, the claim holders' folder).
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile() && join(f.parentPath, f.name).startsWith(join(folder, base)))
    .map((f) => readFileSync(join(f.parentPath, f.name)).toString("latin1"))
    .join("\n");
}

/** Every row of every table of the database, bytea decoded, as text. */
async function postgresRows(url: string): Promise<string> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    const out: string[] = [];
    for (const { table_name } of tables.rows) {
      const rows = await client.query(`SELECT * FROM "${table_name}"`);
      for (const row of rows.rows)
        for (const v of Object.values(row))
          out.push(Buffer.isBuffer(v) ? v.toString("latin1") : JSON.stringify(v));
    }
    return out.join("\n");
  } finally {
    await client.end();
  }
}

let stub: Awaited<ReturnType<typeof startOpenAIStub>>;
const savedEnv = { ...process.env };
beforeAll(async () => {
  stub = await startOpenAIStub([
    `Your key is ${API_KEY}, keep it safe.`,
    { status: 401, text: `Incorrect API key provided: ${API_KEY}.` },
  ]);
  // The functions read their credentials from the environment, like real tools.
  Object.assign(process.env, SECRET_ENV, { STUB_URL: stub.url, CHILD_KEY });
});
afterAll(async () => {
  process.env = savedEnv;
  await stub?.close();
});

const executor = (options: ExecutorOptions) =>
  createExecutor({ dir: join(dir, "graphs"), ...options });

/** Runs `leak` to its interrupt, resumes it with an answer quoting the token, and collects all. */
async function leakRun(options: ExecutorOptions, threadId: string) {
  const exec = executor(options);
  try {
    const events: RunEvent[] = [];
    for await (const e of exec.stream("leak", { threadId, context: CONTEXT })) events.push(e);
    const paused = (events.at(-1) as { result: RunResult }).result;
    // The secrets are not stored with the thread: they are given again.
    const failed = await exec.resume("leak", {
      threadId,
      value: `yes, with ${BEARER}`,
      context: { upstream: BEARER, auth: AUTH, pass: PASS, creds: CONTEXT.creds },
    });
    const stored = await exec.contextOf(threadId);
    const history = await exec.history(threadId);
    return { events, paused, failed, stored, history };
  } finally {
    await exec.close();
  }
}

function expectMasked(run: Awaited<ReturnType<typeof leakRun>>) {
  const { events, paused, failed, stored, history } = run;
  // The run did what it was meant to, so there was something to leak.
  expect(paused).toMatchObject({
    status: "interrupted",
    interrupts: [{ node: "ask", value: { question: "Send with ***?" } }],
  });
  expect(paused.output.note).toBe(
    "copied key ***, db password ***, Authorization: Bearer ***, auth ***, pass ***, creds ***/***",
  );
  expect(failed).toMatchObject({ status: "failed", error: { code: "node-error", node: "fail" } });
  expect(failed.error!.message).toMatch(/^upstream refused: key \*\*\*, db password \*\*\*,/);
  expect(failed.output.answer).toBe("yes, with ***");
  expect(stored).toEqual({ user_id: "u-1" });
  for (const what of [events, paused, failed, stored, history])
    expect(found(JSON.stringify(what))).toEqual([]);
}

describe("secrets never reach output or storage", () => {
  it("SQLite: the RunResult, the events, the stored context and every byte of the file", async () => {
    const sqlitePath = join(dir, "db", "state.db");
    const run = await leakRun({ checkpointer: "sqlite", sqlitePath }, "sqlite-1");
    expectMasked(run);
    const bytes = sqliteBytes(sqlitePath);
    // The failed node's error and the interrupt were stored, masked.
    expect(bytes).toContain("upstream refused: key ***");
    expect(bytes).toContain("Send with ***?");
    expect(found(bytes)).toEqual([]);
  });

  it.skipIf(!serverUrl())(
    "PostgreSQL: the RunResult, the events and every row of every table",
    async () => {
      const databaseUrl = await freshDatabase("secrets");
      const run = await leakRun({ checkpointer: "postgres", databaseUrl }, "pg-1");
      expectMasked(run);
      const rows = await postgresRows(databaseUrl);
      expect(rows).toContain("upstream refused: key ***");
      expect(rows).toContain("Send with ***?");
      expect(found(rows)).toEqual([]);
    },
  );

  it("a model's answer streamed in pieces and a provider's error, both quoting the key", async () => {
    const sqlitePath = join(dir, "chat", "state.db");
    const exec = executor({ checkpointer: "sqlite", sqlitePath });
    const events: RunEvent[] = [];
    try {
      for await (const e of exec.stream("chat")) events.push(e);
    } finally {
      await exec.close();
    }
    const tokens = events.flatMap((e) => (e.type === "token" ? [e.text] : [])).join("");
    // The key arrived split over several tokens, and is masked all the same.
    expect(tokens).toBe("Your key is ***, keep it safe.");
    const result = (events.at(-1) as { result: RunResult }).result;
    expect(result.status).toBe("failed");
    expect(result.error!.message).toContain("Incorrect API key provided: ***");
    expect(JSON.stringify(result.output)).toContain("Your key is ***, keep it safe.");
    expect(found(JSON.stringify(events))).toEqual([]);
    const bytes = sqliteBytes(sqlitePath);
    expect(bytes).toContain("Incorrect API key provided: ***");
    expect(found(bytes)).toEqual([]);
  });

  it("a subgraph's checkpoints, and the variables its own `models:` read", async () => {
    const sqlitePath = join(dir, "sub", "state.db");
    const exec = executor({ checkpointer: "sqlite", sqlitePath });
    let result: RunResult;
    try {
      result = await exec.run("parent", { input: { note: `hello ${CHILD_KEY}` } });
    } finally {
      await exec.close();
    }
    expect(result.status).toBe("failed");
    expect(result.error!.message).toContain("child refused ***");
    const bytes = sqliteBytes(sqlitePath);
    expect(bytes).toContain("hello *** (child)");
    expect(bytes).not.toContain(CHILD_KEY);
    expect(JSON.stringify(result)).not.toContain(CHILD_KEY);
  });
});

describe("the CLI", () => {
  // A shell sets PWD to where the command runs.
  const env = { ...process.env, ...SECRET_ENV, PWD: dir, NO_COLOR: "1" };
  const graphspec = (...args: string[]) => {
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: "utf8", env });
    return { status: r.status, out: r.stdout + r.stderr, stdout: r.stdout };
  };
  const context = ["--context", JSON.stringify(CONTEXT)];

  it("run --json, pretty, --progress, resume and threads show: no secret, and paths shown", () => {
    const runs = [
      graphspec("run", "leak", "--thread", "cli-1", ...context, "--json"),
      graphspec("run", "leak", "--thread", "cli-2", ...context),
      graphspec("run", "leak", "--thread", "cli-3", ...context, "--progress"),
    ];
    expect(JSON.parse(runs[0]!.stdout)).toMatchObject({
      status: "interrupted",
      output: { note: expect.stringContaining("copied key ***") },
    });
    expect(runs[1]!.out).toContain("Send with ***?");
    expect(runs[2]!.out).toContain("▶ copy");
    const answer = ["--value", JSON.stringify(`yes, with ${BEARER}`)];
    const resumed = [
      graphspec("resume", "--thread", "cli-1", ...answer, ...context, "--json"),
      graphspec("resume", "--thread", "cli-2", ...answer, ...context),
      graphspec("resume", "--thread", "cli-3", ...answer, ...context, "--progress"),
    ];
    const failed = JSON.parse(resumed[0]!.stdout) as RunResult;
    // The working directory (PWD) is not a secret: the message says where the tool ran.
    expect(failed.error!.message).toBe(
      `upstream refused: key ***, db password ***, Authorization: Bearer ***, auth ***, pass ***, creds ***/***, in ${dir}`,
    );
    expect(resumed[1]!.out).toContain(`in ${dir}`);
    const shown = [
      graphspec("threads", "show", "cli-1"),
      graphspec("threads", "show", "cli-1", "--json", "--history"),
      graphspec("threads", "list", "--json"),
    ];
    expect(JSON.parse(shown[1]!.stdout)).toMatchObject({
      context: { user_id: "u-1" },
      output: { answer: "yes, with ***" },
    });
    expect(JSON.parse(shown[1]!.stdout).context).not.toHaveProperty("upstream");
    for (const r of [...runs, ...resumed, ...shown]) {
      expect(r.status).not.toBe(2);
      expect(found(r.out)).toEqual([]);
    }
    const bytes = sqliteBytes(join(dir, ".graphspec", "state.db"));
    expect(bytes).toContain("upstream refused: key ***");
    expect(found(bytes)).toEqual([]);
  });

  it.skipIf(!serverUrl())(
    "on PostgreSQL: run --json, resume, threads show, and the tables",
    async () => {
      const databaseUrl = await freshDatabase("secrets_cli");
      const pg = (...args: string[]) => {
        const r = spawnSync(process.execPath, [BIN, ...args, "--checkpointer", "postgres"], {
          cwd: dir,
          encoding: "utf8",
          env: { ...env, DATABASE_URL: databaseUrl },
        });
        return r.stdout + r.stderr;
      };
      const outs = [
        pg("run", "leak", "--thread", "pg-cli", ...context, "--json"),
        pg("resume", "--thread", "pg-cli", "--value", JSON.stringify(BEARER), ...context, "--json"),
        pg("threads", "show", "pg-cli", "--json", "--history"),
      ];
      expect(JSON.parse(outs[1]!).error.message).toMatch(/^upstream refused: key \*\*\*/);
      for (const out of outs) expect(found(out)).toEqual([]);
      const rows = await postgresRows(databaseUrl);
      expect(rows).toContain("upstream refused: key ***");
      expect(found(rows)).toEqual([]);
    },
  );
});

/** Names whose values are masked (true) or shown (false); each value is unique. */
const CONTEXT_NAMES: [string, boolean][] = [
  ["api_key", true],
  ["apiKey", true],
  ["OPENAI_API_KEY", true],
  ["x-api-key", true],
  ["authToken", true],
  ["access_token", true],
  ["auth", true],
  ["oauth", true],
  ["pass", true],
  ["password", true],
  ["db_password", true],
  ["DBPassword", true],
  ["passwd", true],
  ["DB_PWD", true],
  ["secret", true],
  ["client_secret", true],
  ["credentials", true],
  ["cookie", true],
  ["SENTRY_DSN", true],
  ["DATABASE_URL", true],
  ["connection_string", true],
  ["bearer", true],
  ["private_key", true],
  ["jwt", true],
  ["PWD", false],
  ["OLDPWD", false],
  ["max_tokens", false],
  ["tokens_used", false],
  ["tokenUsage", false],
  ["token_count", false],
  ["author", false],
  ["passenger", false],
  ["user_id", false],
  ["key", false],
  ["sort_key", false],
  ["MY_OPENAI_KEY", false],
  ["path", false],
];
const ENV_NAMES: [string, boolean][] = [
  ["GITHUB_TOKEN", true],
  ["AWS_SECRET_ACCESS_KEY", true],
  ["MYSQL_PWD", true],
  ["NPM_AUTH", true],
  ["PWD", false],
  ["OLDPWD", false],
  ["HOME", false],
  ["MAX_TOKENS", false],
  ["MY_OPENAI_KEY", false],
];

writeFileSync(
  join(dir, "echo.mjs"),
  `export default (state, runtime) => {
  throw new Error(JSON.stringify({ context: runtime.context, note: state.note }));
};\n`,
);
graph(
  "names",
  `state:
  note: { type: string, default: "" }
nodes:
  echo: { kind: function, module: ../echo.mjs, writes: [note] }
edges:
  - { from: START, to: echo }
  - { from: echo, to: END }
`,
);

describe("which names look secret", () => {
  const value = (i: number) => `/srv/val-${String(i).padStart(2, "0")}-end`;
  it("context keys and environment variables, by name; nested under a secret name; not shorter than 4", async () => {
    const context: Record<string, unknown> = Object.fromEntries(
      CONTEXT_NAMES.map(([name], i) => [name, value(i)]),
    );
    context.creds = { token: "val-creds-token", user: "val-creds-user" };
    context.api_token = "abc";
    const env = Object.fromEntries(ENV_NAMES.map(([name], i) => [name, value(100 + i)]));
    const exec = executor({ checkpointer: "memory", env });
    let result: RunResult;
    let stored: Record<string, unknown> | undefined;
    try {
      result = await exec.run("names", {
        threadId: "names",
        context,
        input: { note: Object.values(env).join(" ") },
      });
      stored = await exec.contextOf("names");
    } finally {
      await exec.close();
    }
    const message = result.error!.message;
    const shown = (v: string) => message.includes(v);
    const wrong = [
      ...CONTEXT_NAMES.filter(([, masked], i) => shown(value(i)) === masked).map(
        ([name, masked]) => `context ${name}: ${masked ? "shown" : "masked"}`,
      ),
      ...ENV_NAMES.filter(([, masked], i) => shown(value(100 + i)) === masked).map(
        ([name, masked]) => `env ${name}: ${masked ? "shown" : "masked"}`,
      ),
      ...(shown("val-creds-token") || shown("val-creds-user") ? ["creds.*: shown"] : []),
      // A secret shorter than four characters is not worth masking everywhere.
      ...(shown('"api_token":"abc"') ? [] : ["api_token abc: masked"]),
    ];
    expect(wrong).toEqual([]);
    // The stored context keeps exactly the keys whose values are shown.
    expect(Object.keys(stored ?? {}).sort()).toEqual(
      CONTEXT_NAMES.filter(([, masked]) => !masked)
        .map(([name]) => name)
        .sort(),
    );
  });
});
