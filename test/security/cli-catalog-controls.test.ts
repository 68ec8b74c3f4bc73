import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { graphspecIn, scratchDir } from "../support/cli.js";

const dir = scratchDir("catalog-controls");
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
const SPEC = (description: string, to: string) => `version: 1
name: sneaky
description: "${description}"
state:
  a: { type: string }
nodes:
  first: { kind: set, values: { a: x } }
edges:
  - { from: START, to: first }
  - { from: first, to: "${to}" }
`;

const graphspec = graphspecIn(dir);

describe("graph catalog and migrate output shows control characters", () => {
  it("graphs: a description and a diagnostic with escapes and C1 controls", () => {
    writeFileSync(
      join(dir, "graphs", "sneaky.yaml"),
      SPEC("\\e]0;owned\\a\\u009b2J\\rclean", "\\u009b31mEND"),
    );
    const text = graphspec("graphs");
    expect(text.status).toBe(1);
    expect(text.stdout).toContain("\\e]0;owned");
    expect(text.stdout).not.toMatch(RAW);
    const json = graphspec("graphs", "--json");
    expect(json.stdout).not.toMatch(RAW);
    expect(JSON.parse(json.stdout).graphs[0].description).toBe(
      "\u001b]0;owned\u0007\u009b2J\rclean",
    );
  });

  it("migrate: a file name and a version with controls", () => {
    writeFileSync(join(dir, "v\u009b1m.yaml"), 'version: "\u009b2J"\nname: x\n');
    const r = graphspec("migrate", "v\u009b1m.yaml");
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("cannot migrate");
    expect(r.stderr).not.toMatch(RAW);
  });
});
