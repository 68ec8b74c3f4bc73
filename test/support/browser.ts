/**
 * Headless Chromium for the page's tests: Debian's `chromium` driven by playwright-core (no
 * browser download). Each page records every request it makes, its console errors, uncaught
 * errors and failed requests; a test ends with `expectClean()`, so a 404 (a favicon included) or
 * a script error fails it. Screenshots go to test/artifacts/web/<test>-<step>.png (gitignored).
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import axe from "axe-core";
import { type Browser, chromium, type Page, type Request } from "playwright-core";
import { expect } from "vitest";

/** Where screenshots go: kept after the run for a person (or CI) to look at. */
export const ARTIFACTS = join(import.meta.dirname, "..", "artifacts", "web");

/**
 * Flags for a quiet, offline browser: no GPU in a container, no background requests of its own
 * (updates, sync, safe browsing lists), so every request a test sees is the page's.
 */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/**
 * The browser: `GRAPHSPEC_CHROMIUM`, else Debian's /usr/bin/chromium. Neither is an error that
 * says how to get one — the page's tests never skip silently.
 */
export function chromiumPath(
  env: NodeJS.ProcessEnv = process.env,
  debian = "/usr/bin/chromium",
): string {
  const named = env.GRAPHSPEC_CHROMIUM;
  if (named) {
    if (!existsSync(named))
      throw new Error(
        `GRAPHSPEC_CHROMIUM is ${named}, which does not exist: point it at a Chromium binary`,
      );
    return named;
  }
  if (existsSync(debian)) return debian;
  throw new Error(
    "the page's tests need Chromium and found none: install Debian's `chromium` (apt-get install chromium; .ci/run does) or set GRAPHSPEC_CHROMIUM to a Chromium binary",
  );
}

/**
 * Outside CI, a machine without Chromium skips the page's tests and says why, as the PostgreSQL
 * tests do, so `npm test` works on a fresh machine; under CI (`CI` set) they run and fail at
 * `launchBrowser` with the message saying how to get one.
 */
export const PAGE_TESTS_SKIPPED: boolean = (() => {
  // Under CI, or with a browser named, a missing one is a failure.
  if (process.env.CI || process.env.GRAPHSPEC_CHROMIUM) return false;
  try {
    chromiumPath();
    return false;
  } catch (e) {
    console.warn(`page tests skipped: ${(e as Error).message}`);
    return true;
  }
})();

/** A browser of its own: playwright's `launch` gives it a fresh temporary user-data-dir, removed on close. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS });
}

export interface PageSession {
  page: Page;
  /** Every URL the page requested, in order. */
  requests: string[];
  /** Console errors, uncaught errors, failed requests and responses ≥ 400, as text. */
  problems: string[];
  /** A full-page screenshot to test/artifacts/web/<test>-<step>.png; returns its path. */
  shot(step: string): Promise<string>;
  /** Fails the test on any problem the page had. */
  expectClean(): void;
  close(): Promise<void>;
}

/** A page in a new context (no cookies or storage shared with another test). */
export async function openPage(
  browser: Browser,
  test: string,
  opts: { width?: number; height?: number } = {},
): Promise<PageSession> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
  });
  const page = await context.newPage();
  const requests: string[] = [];
  const problems: string[] = [];
  // A reload or a new page load aborts the requests the old document had in flight: those are the
  // navigation's doing, not failures. Each request is stamped with the number of main-frame
  // navigations committed before it; an abort is excused only if one committed after the request.
  // Counted at commit, not when the navigation's request starts: the old document can still issue
  // requests in between (a hash route's fetches racing a reload), and the commit aborts those too.
  let navigations = 0;
  const begunAfter = new WeakMap<Request, number>();
  const aborted: { request: Request; problem: string }[] = [];
  page.on("request", (r) => {
    requests.push(r.url());
    begunAfter.set(r, navigations);
  });
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) navigations += 1;
  });
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console error: ${m.text()} (${m.location().url})`);
  });
  page.on("pageerror", (e) => {
    problems.push(`uncaught: ${e.message}`);
  });
  page.on("requestfailed", (r) => {
    const problem = `request failed: ${r.method()} ${r.url()}: ${r.failure()?.errorText}`;
    if (r.failure()?.errorText === "net::ERR_ABORTED") aborted.push({ request: r, problem });
    else problems.push(problem);
  });
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
  });
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    page,
    requests,
    problems,
    async shot(step) {
      const path = join(ARTIFACTS, `${test}-${step}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    expectClean() {
      const unexcused = aborted
        .filter((a) => (begunAfter.get(a.request) ?? 0) >= navigations)
        .map((a) => a.problem);
      expect([...problems, ...unexcused]).toEqual([]);
    },
    close: () => context.close(),
  };
}

export interface AxeViolation {
  id: string;
  impact: string | null | undefined;
  help: string;
  nodes: string[];
}

/**
 * axe-core on the page as it is now: its script evaluated over the DevTools protocol (which the
 * page's CSP does not govern, so the page keeps its real CSP), then `axe.run`. Returns the serious
 * and critical violations, each with the selectors of the elements at fault.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  return (await axeViolations(page)).filter(
    (v) => v.impact === "serious" || v.impact === "critical",
  );
}

/** Every violation axe-core finds on the page as it is now, whatever its impact. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axe.source);
  const result = await page.evaluate(async () => {
    // The global the evaluated source defined.
    const run = (globalThis as unknown as { axe: typeof axe }).axe.run;
    // The whole document (axe.run with options alone).
    const r = await run({ resultTypes: ["violations"] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target.join(" ")),
    }));
  });
  return result;
}
