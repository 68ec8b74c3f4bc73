import { init, parse } from "es-module-lexer";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
await init;
const entries = process.argv.slice(2);
const seen = new Set(); const bare = new Map();
const stack = entries.map((e) => resolve(e));
while (stack.length) {
  const f = stack.pop(); if (seen.has(f)) continue; seen.add(f);
  const [imports] = parse(readFileSync(f, "utf8"));
  for (const i of imports) {
    if (i.d !== -1) continue; // dynamic
    const src = readFileSync(f, "utf8").slice(i.ss, i.se);
    if (/^import\s+type\b/.test(src) || /^export\s+type\b/.test(src)) continue;
    const n = i.n; if (!n) continue;
    if (n.startsWith(".")) stack.push(resolve(dirname(f), n));
    else { const p = n.startsWith("@") ? n.split("/").slice(0,2).join("/") : n.split("/")[0]; if (!bare.has(p)) bare.set(p, f); }
  }
}
console.log([...bare].map(([p,f])=>p+"  <- "+f.replace(process.cwd()+"/","")).sort().join("\n"));
