/**
 * graphspec dev (or serve) started with `--api-keys`: the page asks for a key when the server
 * answers 401, sends it as the SDK does (`x-api-key`), and keeps it for the tab. A wrong key is
 * refused with the server's message; the right one brings the graphs in. Headless Chromium
 * against a real server with the real key check.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/index.js";
import { apiKeyAuth } from "../../src/server/auth.js";
import { PAGE_TESTS_SKIPPED } from "../support/browser.js";
import { type PageServer, startPageServer } from "../support/page-server.js";

const KEY = "page-test-key-0123456789";
const dir = mkdtempSync(join(tmpdir(), "graphspec-api-key-"));
let env: PageServer | undefined;
let server: RunningServer;
let page: Page;

beforeAll(async () => {
  if (PAGE_TESTS_SKIPPED) return;
  writeFileSync(join(dir, "keys.json"), JSON.stringify({ [KEY]: "tenant-a" }));
  env = await startPageServer("api-key", await apiKeyAuth(join(dir, "keys.json")));
  ({ server, page } = env);
}, 60_000);
afterAll(async () => {
  await env?.close();
  rmSync(dir, { recursive: true, force: true });
});

const keyForm = () => page.getByRole("form", { name: "API key" });
const graphLinks = () => page.getByRole("navigation", { name: "Graphs" }).getByRole("link");

describe.skipIf(PAGE_TESTS_SKIPPED)("the page on a server that wants an API key", () => {
  it("asks for the key, refuses a wrong one with the server's message, and uses the right one", async () => {
    await page.goto(`${server.url}/`);
    await keyForm().waitFor();
    expect(await keyForm().getByRole("alert").textContent()).toContain("no API key");

    await keyForm().getByLabel("API key").fill("not-the-key-at-all-000");
    await keyForm().getByRole("button", { name: "Use this key" }).click();
    await keyForm().getByRole("alert").getByText("not valid").waitFor();
    expect(await graphLinks().count()).toBe(0);

    const sent: (string | null)[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/assistants/search")) sent.push(r.headers()["x-api-key"] ?? null);
    });
    await keyForm().getByLabel("API key").fill(KEY);
    await keyForm().getByRole("button", { name: "Use this key" }).click();
    await graphLinks().first().waitFor();
    expect(await keyForm().count()).toBe(0);
    expect(sent.length).toBeGreaterThan(0);
    expect(new Set(sent)).toEqual(new Set([KEY]));
  });

  it("keeps the key for the tab: a reload does not ask again", async () => {
    await page.reload();
    await graphLinks().first().waitFor();
    expect(await keyForm().count()).toBe(0);
  });
});
