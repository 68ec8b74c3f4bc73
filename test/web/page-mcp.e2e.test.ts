/**
 * graphspec dev's page shows a graph's MCP servers (docs/dev.md, "Graphs"): a stdio server that is
 * up with the tool taken from it and its arguments, and a streamable HTTP server that is down, with
 * why. The built CLI, the real test server (test/support/mcp-test-server.mjs), headless Chromium;
 * axe-core on the view.
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_TESTS_SKIPPED, type PageSession, seriousAxeViolations } from "../support/browser.js";
import { ROOT } from "../support/cli.js";
import { type DevPage, openDevPage } from "../support/dev-page.js";
import type { DevServer } from "../support/dev-server.js";

const SERVER = join(ROOT, "test", "support", "mcp-test-server.mjs");
const call = (tool: string) => `nodes:
  call: { kind: tool, tool: ${tool}, args: { text: x }, write: { out: "\${{ string(result) }}" } }
edges:
  - { from: START, to: call }
  - { from: call, to: END }
`;

let dev: DevPage | undefined;
let server: DevServer;
let s: PageSession;
let page: Page;

beforeAll(async () => {
  if (PAGE_TESTS_SKIPPED) return;
  dev = await openDevPage("mcp", {
    files: {
      "graphs/local.yaml": `version: 1
name: local
state:
  out: { type: string }
mcp_servers:
  notes: { command: node, args: [${JSON.stringify(SERVER)}], tools: [echo] }
${call("echo")}`,
      // Port 9 (discard): nothing answers there.
      "graphs/remote.yaml": `version: 1
name: remote
state:
  out: { type: string }
mcp_servers:
  tracker: { url: "http://127.0.0.1:9/mcp", tools: [echo] }
${call("echo")}`,
    },
  });
  ({ server, session: s, page } = dev);
}, 60_000);
afterAll(() => dev?.close());

const servers = () => page.getByRole("region", { name: "MCP servers" });

describe.skipIf(PAGE_TESTS_SKIPPED)("graphspec dev's page: MCP servers", () => {
  it("lists a server that is up with its tool's arguments", async () => {
    await page.goto(`${server.url}/#/graphs/local`);
    await servers().getByText("echo(text: string)").waitFor();
    const text = await servers().innerText();
    expect(text).toContain("notes");
    expect(text).toContain("stdio");
    expect(text).toMatch(/\bup\b/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await s.shot("1-mcp-up");
  });

  it("shows a server that is down, and why", async () => {
    await page.goto(`${server.url}/#/graphs/remote`);
    await servers().getByText("down").waitFor();
    const text = await servers().innerText();
    expect(text).toContain("tracker");
    expect(text).toContain("http");
    expect(text).toContain("fetch failed");
    expect(text).toContain("check that the server at http://127.0.0.1:9/mcp is up");
    await s.shot("2-mcp-down");
  });
});
