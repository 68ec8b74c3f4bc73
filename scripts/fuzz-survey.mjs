// Groups a survey file's failures by class (first line, names and numbers blurred), smallest case first.
import { readFileSync } from "node:fs";
import { stringify } from "yaml";

const lines = readFileSync(process.argv[2], "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l));
const groups = new Map();
for (const l of lines) {
  const first = l.failure.split("\n")[0].replace(/\/tmp\/\S*?\/graphs\/c\d+\//g, "");
  // "run failed on its structure [class]: {error}" (the oracle's class, test/support/differential-oracle.ts)
  const run = first.match(/^run failed on its structure \[(.*?)\]: (.*)$/);
  const key = (run ? `run: ${run[1]}: ${JSON.parse(run[2]).message}` : first)
    .replace(/`[^`]*`/g, "`_`")
    .replace(/"[^"]*"/g, '"_"')
    .replace(/\d+/g, "N")
    .slice(0, 160);
  const size = JSON.stringify(l.case).length;
  const g = groups.get(key) ?? { n: 0, best: l, size };
  g.n++;
  if (size < g.size) {
    g.best = l;
    g.size = size;
  }
  groups.set(key, g);
}
for (const [key, g] of [...groups].sort((a, b) => b[1].n - a[1].n)) {
  console.log(`\n===== ${g.n}× ${key}`);
  if (process.argv[3]) {
    console.log(stringify(g.best.case));
    console.log(g.best.failure.slice(0, 600));
  }
}
