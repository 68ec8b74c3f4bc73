/**
 * MCP servers' tool contracts CI can check without starting a server: `graphspec lock` starts a
 * real stdio server (test/support/mcp-tickets-server.mjs, copied into the project) and reaches a
 * real streamable HTTP server on 127.0.0.1 (test/support/mcp-http-server.ts, behind a bearer
 * token), records their tools in graphspec.lock.json, and `graphspec validate` checks the specs'
 * tool names, bound arguments and tool nodes' `args` against that record, starting nothing.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSpec, validate as validateDoc } from "../src/index.js";
import { graphspecAsyncIn, ROOT, scratchDir } from "./support/cli.js";
import { type HttpMcpServer, startHttpMcpServer } from "./support/mcp-http-server.js";

const dir = scratchDir("mcp-lock");
const TOKEN = "orders-token-4711";
const MARKER = join(dir, "started.marker");
const LOCK = join(dir, "graphspec.lock.json");
const SCRIPT = join(dir, "servers", "tickets.mjs");
const env = { ORDERS_TOKEN: TOKEN };
/** Never blocking this process, which serves the HTTP MCP server. */
const graphspecAsync = graphspecAsyncIn(dir, env);
let orders: HttpMcpServer;

const support = (url: string) => `version: 1
name: support
state:
  question: { type: string, default: "refund" }
  order: { type: string, default: "A-1" }
  found: { type: string }
  closed: { type: string }
  status: { type: string }
mcp_servers:
  tickets:
    command: node
    args: [../servers/tickets.mjs, --marker, ../started.marker]
    tools: [search_tickets]
  orders:
    url: ${url}
    headers: { Authorization: "Bearer \${{ env.ORDERS_TOKEN }}" }
    tools: all
tools:
  close: { mcp: tickets, tool: close_ticket, bind: { reason: fixed } }
nodes:
  find:
    kind: tool
    tool: search_tickets
    args: { query: "\${{ state.question }}", limit: 5 }
    write: found
  shut:
    kind: tool
    tool: close
    args: { id: 7 }
    write: closed
  lookup:
    kind: tool
    tool: lookup_order
    args: { order_id: "\${{ state.order }}" }
    write: status
edges:
  - { from: START, to: find }
  - { from: find, to: shut }
  - { from: shut, to: lookup }
  - { from: lookup, to: END }
`;

/** Mistakes of every kind the record lets validate see. */
const typos = (url: string) => `version: 1
name: typos
state:
  n: { type: number, default: 1 }
  out: { type: string }
mcp_servers:
  tickets:
    command: node
    args: [../servers/tickets.mjs, --marker, ../started.marker]
    tools: [search_ticket]
  orders:
    url: ${url}
    tools: all
tools:
  close: { mcp: tickets, tool: close_tiket }
  search: { mcp: tickets, tool: search_tickets, bind: { limt: 3, query: "\${{ state.n }}" } }
nodes:
  a:
    kind: tool
    tool: search
    args: { limit: "five" }
    write: out
  b:
    kind: tool
    tool: lookup_ordr
    write: out
  c:
    kind: tool
    tool: lookup_order
    args: {}
    write: out
edges:
  - { from: START, to: a }
  - { from: a, to: b }
  - { from: b, to: c }
  - { from: c, to: END }
`;

interface Finding {
  file: string;
  line: number;
  column: number;
  rule: string;
  message: string;
  hint?: string;
}

const brief = (f: Finding) => `${f.file}:${f.line}:${f.column} ${f.rule}: ${f.message} (${f.hint})`;

/** `graphspec validate` as CI runs it, proving it started no server and reached none. */
async function validate(
  ...files: string[]
): Promise<{ status: number | null; findings: string[] }> {
  rmSync(MARKER, { force: true });
  const reached = orders.requests;
  // Without blocking this process, which serves the HTTP server: a request would be answered, and counted.
  const r = await graphspecAsync("validate", "--format", "json", ...files);
  expect(existsSync(MARKER), "validate started the MCP server").toBe(false);
  expect(orders.requests, "validate reached the HTTP MCP server").toBe(reached);
  expect(r.stderr).toBe("");
  return { status: r.status, findings: (JSON.parse(r.stdout) as Finding[]).map(brief) };
}

beforeAll(async () => {
  orders = await startHttpMcpServer(TOKEN);
  writeFileSync(join(dir, "package.json"), '{ "name": "app", "type": "module" }\n');
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  mkdirSync(join(dir, "graphs"));
  mkdirSync(join(dir, "servers"));
  copyFileSync(join(ROOT, "test", "support", "mcp-tickets-server.mjs"), SCRIPT);
  writeFileSync(join(dir, "graphs", "support.yaml"), support(orders.url));
});
afterAll(() => orders?.close());

describe("graphspec lock records the tools of every MCP server the specs declare", () => {
  it("starts the stdio server, reaches the HTTP one with its header from env, and writes the lock", async () => {
    const r = await graphspecAsync("lock");
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      "✔ wrote graphspec.lock.json (0 modules, 0 tools, 2 MCP servers with 3 tools)\n",
    );
    expect(r.status).toBe(0);
    expect(existsSync(MARKER), "lock started the stdio server").toBe(true);
    expect(orders.requests, "lock reached the HTTP server").toBeGreaterThan(0);
    const lock = JSON.parse(readFileSync(LOCK, "utf8"));
    expect(Object.keys(lock.mcp_servers)).toEqual(["orders", "tickets"]);
    expect(Object.keys(lock.mcp_servers.tickets.files)).toEqual(["servers/tickets.mjs"]);
    expect(Object.keys(lock.mcp_servers.orders.files)).toEqual([]);
    expect(Object.keys(lock.mcp_servers.tickets.tools)).toEqual(["close_ticket", "search_tickets"]);
    expect(lock.mcp_servers.tickets.tools.search_tickets).toEqual({
      description: "Search the support tickets.",
      inputSchema: {
        $schema: "http://json-schema.org/draft-07/schema#",
        properties: {
          limit: { maximum: 50, minimum: 1, type: "integer" },
          query: { type: "string" },
        },
        required: ["query"],
        type: "object",
      },
    });
    // Sorted at every depth: the server lists `type` first and `query` before `limit`.
    const search = readFileSync(LOCK, "utf8").split('"search_tickets": {')[1] as string;
    const at = (key: string) => search.indexOf(`"${key}":`);
    expect(at("$schema")).toBeLessThan(at("properties"));
    expect(at("limit")).toBeLessThan(at("query"));
    expect(at("required")).toBeLessThan(search.indexOf('"type": "object"'));
  });

  it("is byte-stable: locking again changes nothing, and --check agrees", async () => {
    const before = readFileSync(LOCK, "utf8");
    const again = await graphspecAsync("lock");
    expect(again.stdout).toBe(
      "✔ graphspec.lock.json is up to date (0 modules, 0 tools, 2 MCP servers with 3 tools)\n",
    );
    expect((await graphspecAsync("lock", "--check")).status).toBe(0);
    expect(readFileSync(LOCK, "utf8")).toBe(before);
  });
});

describe("graphspec validate checks MCP tools against the lock, starting nothing", () => {
  it("a spec whose MCP tools and arguments fit validates clean", async () => {
    expect(await validate("graphs/support.yaml")).toEqual({ status: 0, findings: [] });
  });

  it("wrong tool names, bound arguments and node arguments are findings at their YAML nodes", async () => {
    writeFileSync(join(dir, "graphs", "typos.yaml"), typos(orders.url));
    const r = await validate("graphs/typos.yaml");
    rmSync(join(dir, "graphs", "typos.yaml"));
    const f = "graphs/typos.yaml";
    expect(r.findings).toEqual([
      `${f}:10:13 unknown-tool: MCP server \`tickets\` has no tool \`search_ticket\` (graphspec.lock.json records what it lists) (did you mean \`search_tickets\`?)`,
      `${f}:15:32 unknown-tool: MCP server \`tickets\` has no tool \`close_tiket\` (graphspec.lock.json records what it lists) (did you mean \`close_ticket\`?)`,
      `${f}:16:57 tool-args: \`bind\` sets \`limt\`, which is not an argument of tool \`search\` (did you mean \`limit\`?)`,
      `${f}:16:73 tool-args: argument \`query\` takes a string, but this template gives a \`double\` (convert it with \`string(…)\`)`,
      `${f}:21:20 tool-args: argument \`limit\` must be an integer, not the string "five" (undefined)`,
      // \`tools: all\` gives the names the lock records.
      `${f}:25:11 unknown-tool: tool \`lookup_ordr\` is not declared in \`tools\` (did you mean \`lookup_order\`?)`,
      `${f}:30:11 tool-args: tool \`lookup_order\` needs argument \`order_id\` (add \`order_id\` to \`args\`)`,
    ]);
    expect(r.status).toBe(1);
  });
});

describe("a record that is stale or missing is an mcp-lock finding naming the command that refreshes it", () => {
  const refresh =
    "run `npx graphspec lock` where the server is trusted (it starts or reaches it and lists its tools) and commit graphspec.lock.json";

  it("editing the stdio server's script makes its record stale; its tools are then not checked", async () => {
    const script = readFileSync(SCRIPT, "utf8");
    writeFileSync(SCRIPT, `${script}// a new tool, soon\n`);
    try {
      expect(await validate("graphs/support.yaml")).toEqual({
        status: 1,
        findings: [
          `graphs/support.yaml:10:3 mcp-lock: MCP server \`tickets\` is recorded, but \`servers/tickets.mjs\`, which it runs, has changed since graphspec.lock.json was written, so its tools' names and arguments cannot be checked (${refresh})`,
        ],
      });
    } finally {
      writeFileSync(SCRIPT, script);
    }
    expect(await validate("graphs/support.yaml")).toEqual({ status: 0, findings: [] });
  });

  it("starting a server otherwise (its env) makes its record stale too", async () => {
    const file = join(dir, "graphs", "verbose.yaml");
    writeFileSync(
      file,
      support(orders.url)
        .replace("name: support", "name: verbose")
        .replace(
          "    tools: [search_tickets]\n",
          '    tools: [search_tickets]\n    env: { LOG: "debug" }\n',
        ),
    );
    try {
      expect((await validate("graphs/verbose.yaml")).findings).toEqual([
        `graphs/verbose.yaml:10:3 mcp-lock: MCP server \`tickets\` is recorded, but how it is started or reached (\`command\`, \`args\`, \`cwd\` or \`env\`) has changed since graphspec.lock.json was written, so its tools' names and arguments cannot be checked (${refresh})`,
      ]);
    } finally {
      rmSync(file);
    }
  });

  it("a server the lock does not record is a finding, and so is every server without a lock", async () => {
    const file = join(dir, "graphs", "notes.yaml");
    writeFileSync(
      file,
      support(orders.url)
        .replace("name: support", "name: notes")
        .replace(
          "  orders:\n",
          "  notes:\n    command: node\n    args: [../servers/notes.mjs]\n  orders:\n",
        ),
    );
    try {
      expect((await validate("graphs/notes.yaml")).findings).toEqual([
        `graphs/notes.yaml:14:3 mcp-lock: MCP server \`notes\` is not recorded (it is not in graphspec.lock.json), so its tools' names and arguments cannot be checked (${refresh})`,
      ]);
    } finally {
      rmSync(file);
    }
  });

  it("a record not of the shape lock writes counts as missing (the lock comes with the pull request)", async () => {
    const lock = readFileSync(LOCK, "utf8");
    const forged = JSON.parse(lock);
    forged.mcp_servers.tickets = { sha256: 42, tools: "everything" };
    // An own key `__proto__` (as JSON.parse makes one) must stay a tool's name, not a prototype.
    forged.mcp_servers.orders.tools = JSON.parse(
      '{ "__proto__": { "inputSchema": {} }, "lookup_order": "any" }',
    );
    writeFileSync(LOCK, JSON.stringify(forged));
    try {
      expect((await validate("graphs/support.yaml")).findings).toEqual([
        `graphs/support.yaml:10:3 mcp-lock: MCP server \`tickets\` is not recorded (it is not in graphspec.lock.json), so its tools' names and arguments cannot be checked (${refresh})`,
        // `orders` is recorded with one tool, `__proto__`: `tools: all` does not give lookup_order.
        "graphs/support.yaml:33:11 unknown-tool: tool `lookup_order` is not declared in `tools` (declare it under the top-level `tools:` with the `module` that exports it)",
      ]);
    } finally {
      writeFileSync(LOCK, lock);
    }
  });

  it("through the package entry: validate() reads the record; toolLock: false ignores it", async () => {
    const doc = await readSpec(join(dir, "graphs", "support.yaml"));
    expect(await validateDoc(doc)).toEqual([]);
    const lock = readFileSync(LOCK, "utf8");
    rmSync(LOCK);
    try {
      const found = await validateDoc(doc);
      expect(found.map((d) => `${d.line}:${d.column} ${d.rule}: ${d.message}`)).toEqual([
        "10:3 mcp-lock: MCP server `tickets` is not recorded (there is no graphspec.lock.json), so its tools' names and arguments cannot be checked",
        "14:3 mcp-lock: MCP server `orders` is not recorded (there is no graphspec.lock.json), so its tools' names and arguments cannot be checked",
      ]);
      expect(await validateDoc(doc, { toolLock: false })).toEqual([]);
    } finally {
      writeFileSync(LOCK, lock);
    }
    expect(existsSync(MARKER)).toBe(false);
  });
});

describe("a server whose tools changed after locking", () => {
  afterAll(async () => {
    orders.version = "v1";
    expect((await graphspecAsync("lock")).status).toBe(0);
  });

  it("lock --check names what changed, writes nothing and exits 1", async () => {
    const before = readFileSync(LOCK, "utf8");
    orders.version = "v2";
    const r = await graphspecAsync("lock", "--check");
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "✖ graphspec.lock.json is out of date: run `npx graphspec lock` and commit it\n" +
        "  MCP server `orders`: tool `refund_order` added; tool `lookup_order` changed (description or arguments)\n",
    );
    expect(r.status).toBe(1);
    expect(readFileSync(LOCK, "utf8")).toBe(before);
  });

  it("lock records the new tools, and validate checks the spec against them", async () => {
    const r = await graphspecAsync("lock");
    expect(r.stdout).toBe(
      "✔ wrote graphspec.lock.json (0 modules, 0 tools, 2 MCP servers with 4 tools)\n" +
        "  MCP server `orders`: tool `refund_order` added; tool `lookup_order` changed (description or arguments)\n",
    );
    expect((await validate("graphs/support.yaml")).findings).toEqual([
      "graphs/support.yaml:34:11 tool-args: tool `lookup_order` needs argument `include_items` (add `include_items` to `args`)",
    ]);
  });
});

describe("graphspec lock says clearly which server it could not list, and writes nothing", () => {
  const broken = (name: string, server: string) => {
    writeFileSync(
      join(dir, "graphs", `${name}.yaml`),
      `version: 1
name: ${name}
state:
  out: { type: string }
mcp_servers:
${server}
nodes:
  a: { kind: function, module: ../servers/noop.mjs, write: out }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`,
    );
    return `graphs/${name}.yaml`;
  };

  it("a server that does not start: its name, its command and what it printed", async () => {
    const before = readFileSync(LOCK, "utf8");
    const file = broken("gone", "  gone:\n    command: node\n    args: [../servers/missing.mjs]");
    const r = await graphspecAsync("lock", file);
    rmSync(join(dir, file));
    expect(r.stderr).toMatch(
      /^graphs\/gone\.yaml: MCP server `gone` could not be started \(`node \.\.\/servers\/missing\.mjs`\): .+; its stderr:\n(.|\n)*Cannot find module '.*missing\.mjs'/,
    );
    expect(r.stderr).toMatch(
      /\ngraphspec\.lock\.json was not written: fix the modules and MCP servers above first\n$/,
    );
    expect(r.status).toBe(1);
    expect(readFileSync(LOCK, "utf8")).toBe(before);
  });

  it("a server that never answers: stopped after --load-timeout", async () => {
    const file = broken(
      "mute",
      '  mute:\n    command: node\n    args: ["-e", "setInterval(() => {}, 1000)"]',
    );
    const r = await graphspecAsync("lock", "--load-timeout", "1s", file);
    rmSync(join(dir, file));
    expect(r.stderr).toBe(
      "graphs/mute.yaml: MCP server `mute` could not be started (`node -e setInterval(() => {}, 1000)`): it did not answer within 1s\n" +
        "graphspec.lock.json was not written: fix the modules and MCP servers above first\n",
    );
    expect(r.status).toBe(1);
  });

  it("a server whose cwd leaves the project is refused as a run refuses it, and not started", async () => {
    const marker = join(dir, "..", "escaped-mcp.marker");
    rmSync(marker, { force: true });
    const file = broken(
      "escape",
      `  escape:\n    command: node\n    args: ["-e", "require('fs').writeFileSync('escaped-mcp.marker', '')"]\n    cwd: ../..`,
    );
    const r = await graphspecAsync("lock", file);
    rmSync(join(dir, file));
    expect(r.stderr).toBe(
      "graphs/escape.yaml: `mcp_servers.escape.cwd` (../..) leaves the project root [path-escape]\n" +
        "graphspec.lock.json was not written: fix the modules and MCP servers above first\n",
    );
    expect(r.status).toBe(1);
    expect(existsSync(marker)).toBe(false);
  });

  it("one server name declared as two different servers in two specs", async () => {
    const a = broken("twin-a", "  twin:\n    command: node\n    args: [../servers/a.mjs]");
    const b = broken("twin-b", "  twin:\n    command: node\n    args: [../servers/b.mjs]");
    const r = await graphspecAsync("lock", a, b);
    rmSync(join(dir, a));
    rmSync(join(dir, b));
    expect(r.stderr).toMatch(
      /^MCP server `twin` is declared as two different servers, in graphs\/twin-a\.yaml and in graphs\/twin-b\.yaml: give them different names/,
    );
    expect(r.status).toBe(1);
  });

  it("a header from an unset variable, or refused by the server", async () => {
    const unset = broken(
      "unset",
      `  orders:\n    url: ${orders.url}\n    headers: { Authorization: "Bearer \${{ env.NO_SUCH_TOKEN }}" }`,
    );
    const r = await graphspecAsync("lock", unset);
    expect(r.stderr).toBe(
      "graphs/unset.yaml: `mcp_servers.orders.headers.Authorization` reads the environment variable `NO_SUCH_TOKEN`, which is not set (set it, or put it in the project's .env)\n" +
        "graphspec.lock.json was not written: fix the modules and MCP servers above first\n",
    );
    expect(r.status).toBe(1);
    const refused = await graphspecAsyncIn(dir, { NO_SUCH_TOKEN: "wrong" })("lock", unset);
    rmSync(join(dir, unset));
    expect(refused.stderr).toMatch(
      new RegExp(
        `^graphs/unset\\.yaml: MCP server \`orders\` could not be reached at ${orders.url.replace(/[.]/g, "\\.")}: HTTP 401: `,
      ),
    );
    expect(refused.status).toBe(1);
  });
});

describe("a header that reads the run's context", () => {
  const project = join(dir, "ctx");
  const inProject = graphspecAsyncIn(project);

  beforeAll(() => {
    mkdirSync(join(project, "graphs"), { recursive: true });
    writeFileSync(join(project, "package.json"), '{ "name": "ctx", "type": "module" }\n');
    writeFileSync(
      join(project, "graphs", "tenant.yaml"),
      `version: 1
name: tenant
context:
  orders_token: { type: string, secret: true }
state:
  status: { type: string }
mcp_servers:
  orders:
    url: ${orders.url}
    headers: { Authorization: "Bearer \${{ context.orders_token }}" }
    tools: [lookup_order]
nodes:
  lookup: { kind: tool, tool: lookup_order, args: { order_id: A-1 }, write: status }
edges:
  - { from: START, to: lookup }
  - { from: lookup, to: END }
`,
    );
  });

  it("is said to need --context, and locks with it", async () => {
    const without = await inProject("lock");
    expect(without.stderr).toBe(
      `graphs/tenant.yaml: \`mcp_servers.orders.headers.Authorization\` reads the run's \`context\`, which \`graphspec lock\` does not have: give the fields it reads with --context '{"field": "value"}' (or --context @file.json)\n` +
        "graphspec.lock.json was not written: fix the modules and MCP servers above first\n",
    );
    expect(without.status).toBe(1);
    const given = await inProject("lock", "--context", JSON.stringify({ orders_token: TOKEN }));
    expect(given.stderr).toBe("");
    expect(given.stdout).toBe(
      "✔ wrote graphspec.lock.json (0 modules, 0 tools, 1 MCP server with 1 tool)\n",
    );
    // The token is not in the lock: headers authenticate, they are not recorded.
    expect(readFileSync(join(project, "graphspec.lock.json"), "utf8")).not.toContain(TOKEN);
  });
});

describe("a published server (@modelcontextprotocol/server-everything), started from PATH", () => {
  const project = join(dir, "everything");
  const PATH = `${join(ROOT, "node_modules", ".bin")}${delimiter}${process.env.PATH}`;

  beforeAll(() => {
    mkdirSync(join(project, "graphs"), { recursive: true });
    writeFileSync(join(project, "package.json"), '{ "name": "everything", "type": "module" }\n');
    writeFileSync(
      join(project, "graphs", "sum.yaml"),
      `version: 1
name: sum
state:
  total: { type: string }
mcp_servers:
  everything:
    command: mcp-server-everything
    args: [stdio]
tools:
  add: { mcp: everything, tool: get-sum }
  say: { mcp: everything, tool: ech }
nodes:
  sum: { kind: tool, tool: add, args: { a: 1, b: "two" }, write: total }
edges:
  - { from: START, to: sum }
  - { from: sum, to: END }
`,
    );
  });

  it("is recorded by its command line alone, and its tools' names and arguments are checked", async () => {
    const locked = await graphspecAsyncIn(project, { PATH })("lock");
    expect(locked.stderr).toBe("");
    expect(locked.status).toBe(0);
    const record = JSON.parse(readFileSync(join(project, "graphspec.lock.json"), "utf8"))
      .mcp_servers.everything;
    // No file of the project starts it: nothing to hash but the command line.
    expect(record.files).toEqual({});
    expect(record.tools["get-sum"].inputSchema.required).toEqual(["a", "b"]);
    const r = await graphspecAsyncIn(project)("validate", "--format", "json", "graphs/sum.yaml");
    expect((JSON.parse(r.stdout) as Finding[]).map(brief)).toEqual([
      "graphs/sum.yaml:11:33 unknown-tool: MCP server `everything` has no tool `ech` (graphspec.lock.json records what it lists) (did you mean `echo`?)",
      'graphs/sum.yaml:13:50 tool-args: argument `b` must be a number, not the string "two" (undefined)',
    ]);
  });
});
