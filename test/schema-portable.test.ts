/**
 * The published schema works in a third-party validator as it comes: a default Ajv 2020 (strict,
 * no options, no formats added) compiles schema/graph.portable.schema.json without an error or a
 * warning, and it accepts the example graphs and refuses what graphspec's schema check refuses.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020Module from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { MINIMAL_SPEC } from "./helpers.js";

const Ajv2020 = Ajv2020Module.default;
const ROOT = join(import.meta.dirname, "..");
const read = (path: string) => JSON.parse(readFileSync(join(ROOT, path), "utf8"));

/** Every example spec under graphs/ (not the `*.test.yaml` fixtures). */
function exampleGraphs(dir = "graphs"): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? exampleGraphs(join(dir, e.name))
      : e.name.endsWith(".yaml") && !e.name.endsWith(".test.yaml")
        ? [join(dir, e.name)]
        : [],
  );
}

/** A default Ajv 2020 whose warnings are collected rather than logged. */
function defaultAjv(warnings: string[]) {
  const log = (...m: unknown[]) => warnings.push(m.join(" "));
  return new Ajv2020({ logger: { log() {}, warn: log, error: log } });
}

describe("schema/graph.portable.schema.json in a default Ajv 2020", () => {
  it("compiles with no error and no strict-mode warning", () => {
    const warnings: string[] = [];
    expect(() =>
      defaultAjv(warnings).compile(read("schema/graph.portable.schema.json")),
    ).not.toThrow();
    expect(warnings).toEqual([]);
  });

  it("accepts every example graph and refuses an invalid one", () => {
    const check = defaultAjv([]).compile(read("schema/graph.portable.schema.json"));
    const examples = exampleGraphs();
    expect(examples.length).toBeGreaterThanOrEqual(5);
    for (const file of examples) {
      const spec = parse(readFileSync(join(ROOT, file), "utf8"));
      expect(check(spec), `${file}: ${JSON.stringify(check.errors)}`).toBe(true);
    }
    expect(check(parse(MINIMAL_SPEC))).toBe(true);
    expect(check(parse(MINIMAL_SPEC.replace("name: minimal", "name: Minimal")))).toBe(false);
    expect(check(parse(`${MINIMAL_SPEC}extra: 1\n`))).toBe(false);
    expect(check(parse(MINIMAL_SPEC.replace("kind: set", "kind: sett")))).toBe(false);
  });

  it("is the annotated schema without editor-only keywords (why both exist)", () => {
    // The annotated one, for editors, does not compile in a default Ajv: `markdownDescription`.
    expect(() => defaultAjv([]).compile(read("schema/graph.schema.json"))).toThrow(
      /unknown keyword/,
    );
    const portable = JSON.stringify(read("schema/graph.portable.schema.json"));
    for (const keyword of ["markdownDescription", "tsType", "discriminator"])
      expect(portable).not.toContain(`"${keyword}"`);
  });
});
