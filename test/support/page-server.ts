/**
 * For page tests that drive the API and the page together: a real server in this process over the
 * server fixtures' graphs (SQLite in a temp folder) serving the built page (`npm run build`
 * first), the official SDK `Client` on it, and a page in headless Chromium (browser.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import type { Browser, Page } from "playwright-core";
import { createExecutor, folderCatalog, type RunningServer, startServer } from "../../src/index.js";
import type { Authenticator } from "../../src/server/auth.js";
import { GRAPHS } from "../server/harness.js";
import { launchBrowser } from "./browser.js";

export interface PageServer {
  server: RunningServer;
  client: Client;
  browser: Browser;
  page: Page;
  /** Closes the browser and the server, and removes the temp folder. */
  close(): Promise<void>;
}

export async function startPageServer(
  name: string,
  auth: Authenticator | undefined = undefined,
): Promise<PageServer> {
  const dir = mkdtempSync(join(tmpdir(), `graphspec-${name}-`));
  const server = await startServer({
    exec: createExecutor({ dir: GRAPHS, checkpointer: "sqlite", sqlitePath: join(dir, "s.db") }),
    graphs: await folderCatalog(GRAPHS),
    auth,
    port: 0,
    page: true,
  });
  const client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
  const browser = await launchBrowser().catch(async (e) => {
    await server.close(1000);
    throw e;
  });
  const page = await browser.newPage();
  return {
    server,
    client,
    browser,
    page,
    async close() {
      await browser.close();
      await server.close(1000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
