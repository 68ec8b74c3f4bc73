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
 * Then what the page costs on the wire, counted by a TCP proxy between the browser and the server
 * (every byte both ways: headers, bodies, chunk framing):
 *
 *   first load    a new browser context opens `/`, until 2 s after the 20 links show
 *                 (compressed files, the SDK's reads, the stream of events opening)
 *   repeat load   a second tab of that context opens `/` (index.html revalidated, the hashed
 *                 script and stylesheet from the browser's cache)
 *   idle hour     that tab left open for --idle seconds, times 3600 / idle
 *
 * Options: --loads N (default 15), --graphs N (default 20), --idle SECONDS (default 60).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium, startDev } from "../scripts/dev-in-chromium.mjs";
import { benchOptions } from "./options.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values: opts } = benchOptions(import.meta.url, {
  loads: { type: "string", default: "15" },
  graphs: { type: "string", default: "20" },
  idle: { type: "string", default: "60" },
});
const IDLE_S = Number(opts.idle);
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

/** A TCP proxy to the server counting the bytes that go through it, both ways. */
async function countingProxy(target) {
  const { hostname, port } = new URL(target);
  let bytes = 0;
  const proxy = createServer((socket) => {
    const upstream = createConnection({ host: hostname, port: Number(port) });
    socket.on("data", (d) => {
      bytes += d.length;
      upstream.write(d);
    });
    upstream.on("data", (d) => {
      bytes += d.length;
      socket.write(d);
    });
    socket.on("close", () => upstream.destroy());
    upstream.on("close", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
    upstream.on("error", () => socket.destroy());
  });
  await new Promise((r) => proxy.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${proxy.address().port}`,
    take() {
      const n = bytes;
      bytes = 0;
      return n;
    },
    close: () => new Promise((r) => proxy.close(r)),
  };
}

/** Opens `/` in `context` through the proxy; resolves 2 s after the links show (the reads settled). */
async function loadCounted(context, proxy) {
  const page = await context.newPage();
  await page.goto(`${proxy.url}/`, { waitUntil: "commit" });
  await page.waitForFunction(
    (n) => document.querySelectorAll('nav[aria-label="Graphs"] a').length >= n,
    GRAPHS,
    { polling: "raf", timeout: 30_000 },
  );
  await new Promise((r) => setTimeout(r, 2000));
  return page;
}

const proxy = await countingProxy(url);
const context = await browser.newContext();
proxy.take();
const firstPage = await loadCounted(context, proxy);
const firstBytes = proxy.take();
await firstPage.close();
proxy.take();
await loadCounted(context, proxy); // left open: the idle tab
const repeatBytes = proxy.take();
await new Promise((r) => setTimeout(r, IDLE_S * 1000));
const idleBytes = proxy.take();
await context.close();
await proxy.close();

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
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`\nbytes on the wire (both ways, through a counting proxy), ${GRAPHS} graphs\n`);
console.log("| first load | repeat load | idle tab, per hour |");
console.log("| ---------- | ----------- | ------------------ |");
console.log(
  `| ${kb(firstBytes)} | ${kb(repeatBytes)} | ${kb((idleBytes * 3600) / IDLE_S)} (${idleBytes} B in ${IDLE_S} s) |`,
);
