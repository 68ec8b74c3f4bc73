/**
 * `graphspec types` writes code from specs that come from pull requests: text in a spec
 * (descriptions, enum values, node names, payload keys, a schema's title) must end up as comments,
 * string literals and quoted property names — never as code of the generated module.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { cli, projectScratch, typeCheck } from "../typegen/harness.js";

const scratch = projectScratch();
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const HOSTILE = `version: 1
name: hostile
description: "ends */ export const pwned1 = 1; /* here"
state:
  weird: { type: string, description: "*/ export const pwned2 = 2; /*", default: x }
  level: { type: string, enum: ["a\\"b", "c\`\${d}\`", "*/ export const pwned3 = 3; /*"], default: "a\\"b" }
context:
  token: { type: string, description: "*/ export const pwned4 = 4; /*" }
nodes:
  "ask \\"*/ export const pwned5 = 5; /*":
    kind: interrupt
    payload: { "k\\"*/": "\${{ state.level }}", n: "\${{ size(state.level) }}" }
    schema:
      type: object
      title: "*/ export const pwned6 = 6; /*"
      description: "*/ export const pwned7 = 7; /*"
      properties: { "a*/b": { type: string } }
edges:
  - { from: START, to: "ask \\"*/ export const pwned5 = 5; /*" }
  - { from: "ask \\"*/ export const pwned5 = 5; /*", to: END }
`;

it("text of a hostile spec stays text: the module compiles and exports none of it", () => {
  const dir = join(scratch, "hostile");
  mkdirSync(join(dir, "graphs"), { recursive: true });
  writeFileSync(join(dir, "graphs", "hostile.yaml"), HOSTILE);
  const r = cli(["types", "graphs/", "-o", "types"], dir);
  expect(r.status, r.stdout + r.stderr).toBe(0);
  expect(readFileSync(join(dir, "types", "hostile.ts"), "utf8")).toContain("pwned1");
  // Each `m.pwnedN` must be an error (not exported): @ts-expect-error fails the check otherwise.
  const probes = [1, 2, 3, 4, 5, 6, 7]
    .map((n) => `// @ts-expect-error: no such export\nconsole.log(m.pwned${n});`)
    .join("\n");
  writeFileSync(
    join(dir, "program.ts"),
    `import * as m from "./types/hostile.js";
${probes}
const level: m.HostileState["level"] = 'a"b';
const answer: m.HostileAnswer = { node: 'ask "*/ export const pwned5 = 5; /*', value: { "a*/b": "ok" } };
console.log(level, answer);
`,
  );
  const { errors, stdout } = typeCheck(dir);
  expect(errors, stdout).toEqual([]);
});
