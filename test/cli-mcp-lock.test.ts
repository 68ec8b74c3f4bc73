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
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSpec, validate as validateDoc } from "../src/index.js";
import { graphspecAsyncIn, graphspecIn, ROOT, scratchDir } from "./support/cli.js";
import { type HttpMcpServer, startHttpMcpServer } from "./support/mcp-http-server.js";

const dir = scratchDir("mcp-lock");
const TOKEN = "orders-token-4711";
const MARKER = join(dir, "started.marker");
const LOCK = join(dir, "graphspec.lock.json");
const SCRIPT = join(dir, "servers", "tickets.mjs");
const env = { ORDERS_TOKEN: TOKEN };
const graphspec = graphspecIn(dir, env);
/** For the commands that reach the HTTP server, which this process serves: never block it. */
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
  shut: { mcp: tikets, tool: close_ticket }
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

/** `graphspec validate` as CI runs it, proving it started no server. */
function validate(...files: string[]): { status: number | null; findings: string[] } {
  rmSync(MARKER, { force: true });
  const r = graphspec("validate", "--format", "json", ...files);
  expect(existsSync(MARKER), "validate started the MCP server").toBe(false);
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
  it("a spec whose MCP tools and arguments fit validates clean", () => {
    expect(validate("graphs/support.yaml")).toEqual({ status: 0, findings: [] });
  });

  it("wrong tool names, bound arguments and node arguments are findings at their YAML nodes", () => {
    writeFileSync(join(dir, "graphs", "typos.yaml"), typos(orders.url));
    const r = validate("graphs/typos.yaml");
    rmSync(join(dir, "graphs", "typos.yaml"));
    const f = "graphs/typos.yaml";
    expect(r.findings).toEqual([
      `${f}:10:13 unknown-tool: MCP server \`tickets\` has no tool \`search_ticket\` (graphspec.lock.json records what it lists) (did you mean \`search_tickets\`?)`,
      `${f}:15:32 unknown-tool: MCP server \`tickets\` has no tool \`close_tiket\` (graphspec.lock.json records what it lists) (did you mean \`close_ticket\`?)`,
      `${f}:16:16 unknown-tool: tool \`shut\` is taken from MCP server \`tikets\`, which is not declared in \`mcp_servers\` (did you mean \`tickets\`?)`,
      `${f}:17:57 tool-args: \`bind\` sets \`limt\`, which is not an argument of tool \`search\` (did you mean \`limit\`?)`,
      `${f}:17:73 tool-args: argument \`query\` takes a string, but this template gives a \`double\` (convert it with \`string(…)\`)`,
      `${f}:22:20 tool-args: argument \`limit\` must be an integer, not the string "five" (undefined)`,
      // \`tools: all\` gives the names the lock records.
      `${f}:26:11 unknown-tool: tool \`lookup_ordr\` is not declared in \`tools\` (did you mean \`lookup_order\`?)`,
      `${f}:31:11 tool-args: tool \`lookup_order\` needs argument \`order_id\` (add \`order_id\` to \`args\`)`,
    ]);
    expect(r.status).toBe(1);
  });
});
