/**
 * Hostile and odd input through the public surface (`parseSpec` / `readSpec` / `loadSpec` +
 * `validate`): each case must yield a diagnostic with a sensible rule, message and position,
 * and never a throw (except `loadSpec`, which throws SpecError carrying the diagnostics).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  type Diagnostic,
  LOAD_LIMITS,
  loadSpec,
  parseSpec,
  readSpec,
  SpecError,
  validate,
} from "../src/index.js";
import { formatExpected, MINIMAL_SPEC } from "./helpers.js";

const VALID = MINIMAL_SPEC;
/** The same spec with one schema error at 2:7-2:14 (`Minimal` is not a valid graph id). */
const ONE_ERROR = VALID.replace("name: minimal", "name: Minimal");
const NAME_ERROR =
  '2:7-2:14 error [schema] "Minimal" is not a valid name (hint: Graph id: lower-case letters, digits, `_` and `-`, starting with a letter. Used by `graphspec run NAME` and as the assistant id on the server.)';

const VALID_JSON = JSON.stringify(
  {
    version: 1,
    name: "minimal",
    state: { greeting: { type: "string" } },
    nodes: { greet: { kind: "set", values: { greeting: "hello" } } },
    edges: [
      { from: "START", to: "greet" },
      { from: "greet", to: "END" },
    ],
  },
  null,
  2,
);

const check = async (input: string | Uint8Array, file = "spec.yaml"): Promise<string[]> =>
  formatExpected(await validate(parseSpec(input, { file, root: tmpdir() })));

const rules = (lines: string[]) => lines.map((l) => /\[([a-z-]+)\]/.exec(l)?.[1]);

const dir = mkdtempSync(join(tmpdir(), "graphspec-loader-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const writeSpec = (name: string, content: string | Uint8Array): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

describe("baseline", () => {
  it("the valid spec and its JSON twin produce no diagnostics", async () => {
    expect(await check(VALID)).toEqual([]);
    expect(await check(VALID_JSON, "spec.json")).toEqual([]);
  });
});

describe("resource limits", () => {
  it("stops a YAML alias bomb (billion laughs) quickly", async () => {
    const levels = "abcdefghi".split("");
    const bomb = [
      `a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]`,
      ...levels
        .slice(1)
        .map((l, i) => `${l}: &${l} [${Array(9).fill(`*${levels[i]}`).join(", ")}]`),
    ].join("\n");
    // The bound is the count of alias uses, which the finding names; an unbounded expansion would
    // not finish within the test's timeout (no wall-clock figure here: the machine's load varies).
    expect(await check(bomb)).toEqual([
      "1:1-1:1 error [resource-limit] aliases expand too much: an anchor may be used at most 100 times, counting the uses inside what it holds (hint: use fewer aliases, or write the values out)",
    ]);
  });

  it("rejects an alias that contains itself instead of looping", async () => {
    expect(rules(await check("a: &a [1, *a]\n"))).toEqual(["resource-limit"]);
    expect(rules(await check("a: &a { b: *a }\n"))).toEqual(["resource-limit"]);
  });

  it("refuses a 2 MB file before reading it, and 2 MB of text", async () => {
    const path = writeSpec("big.yaml", `description: ${"x".repeat(2 * 1024 * 1024)}\n`);
    const doc = await readSpec(path, { file: "big.yaml" });
    expect(formatExpected(await validate(doc))).toEqual([
      `1:1-1:1 error [resource-limit] the file is ${2 * 1024 * 1024 + 14} bytes; a spec may have at most ${LOAD_LIMITS.maxBytes} (hint: split it into subgraphs)`,
    ]);
    expect(rules(await check(`a: ${"x".repeat(2 * 1024 * 1024)}`))).toEqual(["resource-limit"]);
  });

  it("survives 20,000 nested `[` in YAML and JSON, pointing at the first one too deep", async () => {
    const yaml = `a: ${"[".repeat(20_000)}`;
    expect(await check(yaml)).toEqual([
      "1:260-1:261 error [resource-limit] collections are nested more than 256 deep (hint: flatten the data)",
    ]);
    const json = `{"a": ${"[".repeat(20_000)}1${"]".repeat(20_000)}}`;
    expect(rules(await check(json, "spec.json"))).toEqual(["resource-limit"]);
  });

  it("cannot be fooled into skipping brackets by quotes that YAML does not honour", async () => {
    // A `"` inside a plain scalar is text, and so is one in a block scalar: the brackets after
    // them are real flow collections.
    const plain = `description: say "hi\nx: ${"[".repeat(20_000)}\n`;
    expect(rules(await check(plain))).toEqual(["resource-limit"]);
    const block = `description: |\n  "\nx: ${"[".repeat(20_000)}\ny: "\n`;
    expect(rules(await check(block))).toEqual(["resource-limit"]);
  });

  it("does not count brackets inside strings, comments and block scalars", async () => {
    const many = "[".repeat(300);
    const text = `${VALID}description: |\n  ${many}\n# ${many}\n`;
    expect(await check(text)).toEqual([]);
    const quoted = VALID.replace("hello", many);
    expect(await check(quoted)).toEqual([]);
  });

  it("reports deeply nested block mappings without crashing", async () => {
    const nest = (depth: number) =>
      `${Array.from({ length: depth }, (_, i) => `${" ".repeat(i)}k:`).join("\n")} 1\n`;
    expect(rules(await check(nest(100)))).toEqual(["resource-limit"]);
    expect((await check(nest(100)))[0]).toContain("data is nested more than 64 levels deep");
    // Deep enough that the YAML parser itself runs out of stack.
    const deeper = await check(nest(1400));
    expect(rules(deeper)).toEqual(["resource-limit"]);
    expect(deeper[0]).toContain("nested too deeply");
  });

  it("stays linear on a file with tens of thousands of keys", async () => {
    const keys = Array.from({ length: 30_000 }, (_, i) => `k${i}: ${i}`).join("\n");
    const doc = parseSpec(keys, { file: "keys.yaml", root: tmpdir() });
    expect(doc.problems).toEqual([]);
    // The YAML parser's own duplicate-key check took minutes here (it compares every pair): the
    // test's timeout catches that, without a wall-clock bound that the machine's load could break.
  });
});

describe("unsafe keys", () => {
  it("reports __proto__, constructor and prototype at the key, and drops them", async () => {
    const text = `${VALID}__proto__: { polluted: true }\nconstructor: 1\n`.replace(
      "greeting: { type: string }",
      "greeting: { type: string, prototype: { polluted: true } }",
    );
    const doc = parseSpec(text, { file: "spec.yaml", root: tmpdir() });
    expect(formatExpected(await validate(doc))).toEqual([
      "4:29-4:38 error [unsafe-key] key `prototype` is not allowed in a spec (hint: rename it)",
      "10:1-10:10 error [unsafe-key] key `__proto__` is not allowed in a spec (hint: rename it)",
      "11:1-11:12 error [unsafe-key] key `constructor` is not allowed in a spec (hint: rename it)",
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(doc.data as object, "__proto__")).toBe(false);
    expect(Object.getPrototypeOf(doc.data)).toBe(Object.prototype);
  });

  it("does the same for JSON", async () => {
    const json = VALID_JSON.replace(
      '"version": 1',
      '"__proto__": { "polluted": true },\n  "version": 1',
    );
    const doc = parseSpec(json, { file: "spec.json", root: tmpdir() });
    expect(formatExpected(await validate(doc))).toEqual([
      "2:3-2:14 error [unsafe-key] key `__proto__` is not allowed in a spec (hint: rename it)",
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("duplicate keys", () => {
  it("points at the repeated YAML key and names the line of the first", async () => {
    const text = VALID.replace("name: minimal\n", "name: minimal\nname: again\n");
    expect(await check(text)).toEqual([
      "3:1-3:5 error [duplicate-key] duplicate key `name`: it is already set on line 2, and only the last value would count (hint: remove one of them, or rename it)",
    ]);
  });

  it("finds them in nested and flow mappings", async () => {
    const text = VALID.replace("{ type: string }", "{ type: string, type: string }");
    expect(await check(text)).toEqual([
      "4:29-4:33 error [duplicate-key] duplicate key `type`: it is already set on line 4, and only the last value would count (hint: remove one of them, or rename it)",
    ]);
  });

  it("finds them in JSON, which JSON.parse would silently accept", async () => {
    const json = VALID_JSON.replace('"name": "minimal",', '"name": "minimal",\n  "name": "again",');
    expect(await check(json, "spec.json")).toEqual([
      "4:3-4:9 error [duplicate-key] duplicate key `name`: it is already set on line 3, and only the last value would count (hint: remove one of them, or rename it)",
    ]);
  });
});

describe("encodings", () => {
  const utf16 = (text: string, endian: "le" | "be") => {
    const bytes = Buffer.from(`\uFEFF${text}`, "utf16le");
    return endian === "be" ? bytes.swap16() : bytes;
  };

  it("rejects binary junk with NUL bytes at the first NUL", async () => {
    const junk = Uint8Array.from([0x76, 0x3a, 0x20, 0x0a, 0x89, 0x50, 0x00, 0x01, 0xff]);
    expect(await check(junk)).toEqual([
      "2:3-2:4 error [encoding] the file contains NUL bytes: it looks binary, not a YAML or JSON text (hint: check that the path names a spec file)",
    ]);
  });

  it("locates invalid UTF-8 at the bad byte", async () => {
    const bytes = Buffer.concat([
      Buffer.from("version: 1\nname: café "),
      Buffer.from([0xe2, 0x28, 0xa1]),
      Buffer.from("\n"),
    ]);
    // "name: café " is 12 bytes (é is two), so the bad sequence starts at byte column 13.
    expect(await check(bytes)).toEqual([
      "2:13-2:14 error [encoding] the file is not valid UTF-8 (byte 0xe2 at offset 23) (hint: save the file as UTF-8)",
    ]);
    const truncated = Buffer.concat([Buffer.from(VALID), Buffer.from([0xf0, 0x9f])]);
    expect((await check(truncated))[0]).toMatch(/^10:1-10:2 error \[encoding\].*byte 0xf0/);
  });

  it("decodes UTF-16 LE and BE with a BOM", async () => {
    expect(await check(utf16(VALID, "le"))).toEqual([]);
    expect(await check(utf16(VALID, "be"))).toEqual([]);
    expect(await check(utf16(ONE_ERROR, "le"))).toEqual([NAME_ERROR]);
    expect(await check(utf16(ONE_ERROR, "be"))).toEqual([NAME_ERROR]);
  });

  it("drops a UTF-8 BOM without shifting columns", async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(ONE_ERROR)]);
    expect(await check(bytes)).toEqual([NAME_ERROR]);
    const json = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(VALID_JSON)]);
    expect(await check(json, "spec.json")).toEqual([]);
  });

  it("keeps positions right with CRLF line endings", async () => {
    expect(await check(ONE_ERROR.replaceAll("\n", "\r\n"))).toEqual([NAME_ERROR]);
    const dup = VALID.replace("name: minimal\n", "name: minimal\nname: again\n").replaceAll(
      "\n",
      "\r\n",
    );
    expect((await check(dup))[0]).toMatch(/^3:1-3:5 error \[duplicate-key\]/);
  });
});

describe("YAML syntax", () => {
  it("reports a tab used as indentation at the tab", async () => {
    expect(await check(VALID.replace("  greeting:", "\tgreeting:"))).toEqual([
      "4:1-4:2 error [yaml-syntax] tabs are not allowed as indentation (hint: indent with spaces)",
    ]);
  });

  it("reports a second document at its `---`", async () => {
    expect(await check(`${VALID}---\n${VALID}`)).toEqual([
      "10:1-10:4 error [yaml-syntax] the file holds more than one YAML document (hint: one file holds one graph; move the other document to its own file)",
    ]);
  });

  it("reports an unclosed flow sequence", async () => {
    expect(rules(await check("version: 1\nname: [a, b\n"))).toEqual(["yaml-syntax"]);
  });

  it("explains an empty file as the wrong shape at 1:1", async () => {
    // Only the shape is reported: semantic rules have nothing to read in a non-mapping.
    const found = await check("");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^1:1-\d+:\d+ error \[schema\] a spec is a mapping/);
  });

  it("calls a comment, a scalar and a list not a spec at 1:1, and shows none of it", async () => {
    // Changed on purpose: the schema message quoted the value (a token, in an .npmrc).
    for (const text of ["# only a comment\n", "hello\n", "- a\n- b\n"]) {
      const found = await check(text);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(/^1:1-1:1 error \[not-a-spec\] this is not a graphspec spec: /);
      expect(found[0]).not.toMatch(/hello|- a/);
    }
  });

  it("reports an alias with no anchor at the alias, not as an alias bomb", async () => {
    const text = VALID.replace(
      "name: minimal",
      "base: &base { x: 1 }\nother: *bsae\nname: minimal",
    );
    const found = await check(text);
    expect(found[0]).toMatch(
      /^3:8-3:13 error \[yaml-syntax\] alias `\*bsae` has no anchor `&bsae` before it \(hint: anchors defined before it: `&base`\)$/,
    );
    expect(found.some((l) => l.includes("resource-limit"))).toBe(false);
  });
});

describe("JSON syntax", () => {
  const cases: [string, string, string][] = [
    [
      "a trailing comma",
      VALID_JSON.replace('"END"\n    }', '"END"\n    },'),
      "25:6-25:7 error [json-syntax] JSON does not allow a trailing comma (hint: remove the comma)",
    ],
    [
      "a missing comma",
      VALID_JSON.replace('"version": 1,', '"version": 1'),
      '3:3-3:9 error [json-syntax] expected `,` between items, found `"name"` (hint: add a comma)',
    ],
    [
      "a comment",
      VALID_JSON.replace("{\n", "{\n  // the graph\n"),
      "2:3-2:15 error [json-syntax] JSON does not allow comments (hint: remove the comment, or use YAML)",
    ],
    [
      "single quotes",
      VALID_JSON.replace('"minimal"', "'minimal'"),
      '3:11-3:20 error [json-syntax] JSON strings need double quotes, not single quotes (hint: write "minimal")',
    ],
    [
      "a bare word",
      VALID_JSON.replace('"minimal"', "minimal"),
      "3:11-3:18 error [json-syntax] unexpected `minimal` (hint: strings need double quotes; the literals are true, false and null)",
    ],
    [
      "an unterminated string",
      '{\n  "version": 1,\n  "name": "mini',
      '3:11-3:16 error [json-syntax] unterminated string (hint: close the string with `"`)',
    ],
    [
      "an unclosed object",
      '{\n  "version": 1',
      "2:15-2:15 error [json-syntax] expected `}` to close the object (hint: close the bracket)",
    ],
    [
      "two values",
      `${VALID_JSON}\n{}`,
      "28:1-28:2 error [json-syntax] expected the end of the file, found `{` (hint: one file holds one JSON value)",
    ],
    [
      "an empty file",
      "",
      "1:1-1:1 error [json-syntax] the file is empty (hint: a spec is a JSON object)",
    ],
  ];
  for (const [what, text, expected] of cases) {
    it(`reports ${what} at its exact position`, async () => {
      expect(await check(text, "spec.json")).toEqual([expected]);
    });
  }
});

describe("files", () => {
  it("reports a directory path as io", async () => {
    mkdirSync(join(dir, "a-dir.yaml"), { recursive: true });
    const doc = await readSpec(join(dir, "a-dir.yaml"), { file: "a-dir.yaml" });
    expect(formatExpected(await validate(doc))).toEqual([
      "1:1-1:1 error [io] a-dir.yaml is a directory, not a spec file (hint: name a .yaml, .yml or .json file)",
    ]);
  });

  it("reports a missing file as io", async () => {
    const doc = await readSpec(join(dir, "nope.yaml"), { file: "nope.yaml" });
    expect(formatExpected(await validate(doc))).toEqual([
      "1:1-1:1 error [io] cannot read nope.yaml: no such file (ENOENT)",
    ]);
  });

  it("loadSpec returns a valid document and throws SpecError with the diagnostics otherwise", async () => {
    const ok = await loadSpec(writeSpec("ok.yaml", VALID));
    expect((ok.data as { name: string }).name).toBe("minimal");

    const path = writeSpec("broken.yaml", "version: 1\nname: [a, b\n");
    const error = await loadSpec(path, { file: "broken.yaml" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecError);
    const diagnostics: Diagnostic[] = (error as SpecError).diagnostics;
    expect(diagnostics.map((d) => d.rule)).toEqual(["yaml-syntax"]);
    expect((error as SpecError).message).toMatch(/^broken\.yaml:3:1: /);

    const missing = await loadSpec(join(dir, "missing.yaml")).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(SpecError);
    expect((missing as SpecError).diagnostics[0]?.rule).toBe("io");
  });
});

describe("suppression comments", () => {
  it("honour real comments only, not `#` inside strings or block scalars", async () => {
    const quoted = ONE_ERROR.replace(
      "version: 1",
      'version: 1\ndescription: "# graphspec-disable"',
    );
    expect(rules(await check(quoted))).toEqual(["schema"]);
    const block = ONE_ERROR.replace(
      "version: 1",
      "version: 1\ndescription: |\n  # graphspec-disable",
    );
    expect(rules(await check(block))).toEqual(["schema"]);
    const real = ONE_ERROR.replace(
      "name: Minimal",
      "name: Minimal # graphspec-disable-line schema -- legacy id",
    );
    expect(await check(real)).toEqual([]);
  });
});
