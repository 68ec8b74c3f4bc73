#!/usr/bin/env node
/**
 * How soon does the page of `graphspec dev` paint? Run with `npm run bench:web` (after
 * `npm run build`). See bench/README.md.
 *
 * `graphspec dev` (the built CLI, in a process of its own) serves a temp project of 20 graphs —
 * copies of test/fixtures/server/graphs/three-steps.yaml under varied names — and headless
 * Chromium (Debian's, through playwright-core) loads it cold: each load in a new browser context,
 * so nothing is cached. Two figures per load of `/`:
 *
 *   first paint   first-contentful-paint (the browser's Paint Timing entry)
 *   20 links      from navigation start until the Graphs list shows all 20 links (the page's
 *                 script loaded, the SDK's assistants.search answered, Preact rendered)
 *
 * and, as the baseline in the same run, loads of `/ok` (a few bytes of JSON from the same process,
 * painted as text): what any page served by that process costs the browser at least. Loads
 * alternate between the two, so a busier moment of the machine hits both. It prints medians and the
 * ratios page ÷ baseline; it never fails on them.
 *
 * Options: --loads N (default 15), --graphs N (default 20).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { launchChromium, startDev } from "../scripts/dev-in-chromium.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values: opts } = parseArgs({
  options: {
    loads: { type: "string", default: "15" },
    graphs: { type: "string", default: "20" },
  },
});
const LOADS = Number(opts.loads);
const GRAPHS = Number(opts.graphs);

if (!existsSync(join(ROOT, "dist/web/manifest.json"))) {
  console.error("dist/web/manifest.json is missing: run `npm run build` first");
  process.exit(1);
}

// The project: 20 copies of one spec, each its own graph by name and description.
const dir = mkdtempSync(join(tmpdir(), "graphspec-bench-web-"));
writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
mkdirSync(join(dir, "graphs"));
const spec = readFileSync(join(ROOT, "test/fixtures/server/graphs/three-steps.yaml"), "utf8");
const WORDS = ["triage", "summary", "review", "router", "billing", "search", "approval"];
for (let i = 0; i < GRAPHS; i++) {
  const name = `${WORDS[i % WORDS.length]}-${String(i + 1).padStart(2, "0")}`;
  const text = spec
    .replace(/^name: .*$/m, `name: ${name}`)
    .replace(
      /^description: .*$/m,
      `description: Copy ${i + 1} of three-steps, for the page's first paint.`,
    );
  writeFileSync(join(dir, "graphs", `${name}.yaml`), text);
}

const { url, server } = await startDev(dir);
const browser = await launchChromium();

/** One cold load of `path`; with `links`, also the time until that many graph links show. */
async function load(path, links) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${url}${path}`, { waitUntil: "commit" });
  let shown;
  if (links) {
    await page.waitForFunction(
      (n) => document.querySelectorAll('nav[aria-label="Graphs"] a').length >= n,
      links,
      { polling: "raf", timeout: 30_000 },
    );
    shown = await page.evaluate(() => performance.now());
  }
  const fcp = await page.evaluate(
    () =>
      new Promise((resolve) => {
        new PerformanceObserver((list) => {
          const e = list.getEntriesByName("first-contentful-paint")[0];
          if (e) resolve(e.startTime);
        }).observe({ type: "paint", buffered: true });
      }),
  );
  await context.close();
  return { fcp, shown };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Warm-up: the server's first answers, the browser's first process.
await load("/", GRAPHS);
await load("/ok");

const page = { fcp: [], shown: [] };
const ok = { fcp: [] };
for (let i = 0; i < LOADS; i++) {
  const order = i % 2 ? ["ok", "page"] : ["page", "ok"];
  for (const side of order) {
    if (side === "page") {
      const r = await load("/", GRAPHS);
      page.fcp.push(r.fcp);
      page.shown.push(r.shown);
    } else ok.fcp.push((await load("/ok")).fcp);
  }
}

await browser.close();
server.kill("SIGTERM");
await new Promise((r) => server.once("exit", r));
rmSync(dir, { recursive: true, force: true });

const ms = (x) => `${x.toFixed(0)} ms`;
const base = median(ok.fcp);
console.log(`graphspec dev's page with ${GRAPHS} graphs, ${LOADS} cold loads each (medians)\n`);
console.log("| load | first paint | 20 links shown | ÷ baseline's first paint |");
console.log("| ---- | ----------- | -------------- | ------------------------ |");
console.log(
  `| \`/\` (the page) | ${ms(median(page.fcp))} | ${ms(median(page.shown))} | ${(median(page.fcp) / base).toFixed(2)} / ${(median(page.shown) / base).toFixed(2)} |`,
);
console.log(`| \`/ok\` (baseline) | ${ms(base)} | — | 1.00 |`);
console.log("\naim: the page's first paint under 1 s");
