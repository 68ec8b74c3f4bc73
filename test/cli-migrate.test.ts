import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { graphspecIn, ROOT, scratchDir } from "./support/cli.js";

const dir = scratchDir("cli-migrate");
writeFileSync(join(dir, "package.json"), "{}");
const graphspec = graphspecIn(dir);
const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
const read = (name: string) => readFileSync(join(dir, name), "utf8");

const V0 = `# yaml-language-server: $schema=../schema/graph.schema.json
version: 0 # the old format
name: old-triage
description: "kept as written"

# The state, as version 0 called it.
channels:
  ticket: { type: string }   # the ticket text, a field's type is not a node's

  priority: { type: string, default: normal }

nodes:
  classify: { type: set, values: { priority: urgent } }
  done:
    values: { priority: low }
    'type': set # a set node, its kind after its values
edges:
  - { from: START, to: classify }
  - { from: classify, to: done }
  - { from: done, to: END }
`;
/** V0 with exactly the migration's edits, and nothing else. */
const V1 = V0.replace("version: 0 #", "version: 1 #")
  .replace("\nchannels:\n", "\nstate:\n")
  .replace("classify: { type: set", "classify: { kind: set")
  .replace("'type': set #", "'kind': set #");

describe("graphspec migrate", () => {
  it("rewrites version 0 to 1 keeping comments, blank lines, key order and quotes", () => {
    write("old.yaml", V0);
    const r = graphspec("migrate", "old.yaml");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("old.yaml: migrated version 0 → 1");
    expect(read("old.yaml")).toBe(V1);
    // The result is a valid current spec.
    const v = graphspec("validate", "old.yaml", "--format", "json");
    expect(JSON.parse(v.stdout)).toEqual([]);
  });

  it("is idempotent, and leaves current specs byte for byte (the repository's graphs and catalog)", () => {
    write("again.yaml", V1);
    const r = graphspec("migrate", "again.yaml");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("again.yaml: version 1 is current, unchanged\n");
    expect(read("again.yaml")).toBe(V1);

    cpSync(join(ROOT, "graphs"), join(dir, "repo", "graphs"), { recursive: true });
    cpSync(join(ROOT, "tools"), join(dir, "repo", "tools"), { recursive: true });
    const all = graphspec("migrate", "repo");
    expect(all.stderr).toBe("");
    expect(all.status).toBe(0);
    expect(all.stdout).toContain("repo/tools/catalog.yaml: a catalog");
    expect(all.stdout).not.toContain("migrated");
    for (const f of readdirSync(join(ROOT, "graphs")).filter((f) => f.endsWith(".yaml")))
      expect(read(`repo/graphs/${f}`), f).toBe(readFileSync(join(ROOT, "graphs", f), "utf8"));
  });

  it("keeps a JSON spec JSON, with its indentation", () => {
    const v0 = `{
    "version": 0,
    "name": "json-spec",
    "channels": {"ticket": {"type": "string"}},
    "nodes": {
        "first": {"type": "set", "values": {"ticket": "T-1"}}
    },
    "edges": [
        {"from": "START", "to": "first"},
        {"from": "first", "to": "END"}
    ]
}
`;
    write("spec.json", v0);
    expect(graphspec("migrate", "spec.json").status).toBe(0);
    const text = read("spec.json");
    expect(text).toBe(
      v0
        .replace('"version": 0', '"version": 1')
        .replace('"channels"', '"state"')
        .replace('{"type": "set"', '{"kind": "set"'),
    );
    expect(JSON.parse(text)).toMatchObject({ version: 1, state: { ticket: { type: "string" } } });
    expect(JSON.parse(graphspec("validate", "spec.json", "-f", "json").stdout)).toEqual([]);
  });

  it("--check writes nothing and exits 1 when a file would change, 0 when none would", () => {
    write("check-old.yaml", V0);
    write("check-new.yaml", V1);
    const r = graphspec("migrate", "--check", "check-old.yaml", "check-new.yaml");
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("check-old.yaml: would migrate version 0 → 1");
    expect(r.stderr).toContain("1 file to migrate");
    expect(read("check-old.yaml")).toBe(V0);
    expect(graphspec("migrate", "--check", "check-new.yaml").status).toBe(0);
  });

  it("a file that does not parse: its line and column, and the file untouched", () => {
    const broken = V0.replace("name: old-triage", "name: [old-triage");
    write("broken.yaml", broken);
    const r = graphspec("migrate", "broken.yaml");
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^broken\.yaml:\d+:\d+: cannot migrate: does not parse: /);
    expect(r.stderr).toContain("left as it was");
    expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/);
    expect(read("broken.yaml")).toBe(broken);
  });

  it("a version newer than this graphspec knows, and a rename that would collide: clear errors, untouched", () => {
    const newer = V1.replace("version: 1 #", "version: 7 #");
    write("newer.yaml", newer);
    const r = graphspec("migrate", "newer.yaml");
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "newer.yaml:2:10: cannot migrate: version 7 is newer than this graphspec knows (1): upgrade graphspec",
    );
    expect(read("newer.yaml")).toBe(newer);

    const both = V0.replace("\nnodes:\n", "\nstate: {}\nnodes:\n");
    write("both.yaml", both);
    const c = graphspec("migrate", "both.yaml");
    expect(c.status).toBe(1);
    expect(c.stderr).toContain(
      "both.yaml:7:1: cannot migrate: both `channels` and `state` are here",
    );
    expect(read("both.yaml")).toBe(both);

    write("noversion.yaml", "name: x\nstate: {}\n");
    expect(graphspec("migrate", "noversion.yaml").stderr).toContain("has no `version`");
  });

  it("validate on a version 0 spec says to run graphspec migrate, in one finding", () => {
    write("v0.yaml", V0);
    const r = graphspec("validate", "v0.yaml", "--format", "json");
    expect(r.status).toBe(1);
    const found = JSON.parse(r.stdout);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ line: 2, column: 10, rule: "schema" });
    expect(found[0].message).toContain("version 0 is an older spec format");
    expect(found[0].hint).toContain("run `graphspec migrate v0.yaml`");

    write("v9.yaml", V1.replace("version: 1 #", "version: 9 #"));
    const n = JSON.parse(graphspec("validate", "v9.yaml", "--format", "json").stdout);
    expect(n).toHaveLength(1);
    expect(n[0].message).toContain("version 9 is newer than this graphspec reads (1)");
  });

  it("hostile files: deep brackets, another encoding, a link out of the project — refused, untouched", () => {
    const deep = `version: 0\nname: x\nchannels: ${"[".repeat(5000)}\n`;
    write("deep.yaml", deep);
    const d = graphspec("migrate", "deep.yaml");
    expect(d.status).toBe(1);
    expect(d.stderr).toMatch(/^deep\.yaml:3:\d+: cannot migrate: brackets nest more than \d+ deep/);
    expect(read("deep.yaml")).toBe(deep);

    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(V0, "utf16le")]);
    writeFileSync(join(dir, "wide.yaml"), utf16);
    const w = graphspec("migrate", "wide.yaml");
    expect(w.status).toBe(1);
    expect(w.stderr).toContain("wide.yaml: cannot migrate: the file is not UTF-8 text");
    expect(readFileSync(join(dir, "wide.yaml")).equals(utf16)).toBe(true);

    const outside = mkdtempSync(join(tmpdir(), "graphspec-migrate-outside-"));
    try {
      writeFileSync(join(outside, "theirs.yaml"), V0);
      symlinkSync(join(outside, "theirs.yaml"), join(dir, "link.yaml"));
      const l = graphspec("migrate", "link.yaml");
      expect(l.status).toBe(1);
      expect(l.stderr).toContain("link.yaml: cannot migrate: the file leads out of the project");
      expect(readFileSync(join(outside, "theirs.yaml"), "utf8")).toBe(V0);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("keeps a byte-order mark and CRLF line ends", () => {
    const crlf = `\ufeff${V0.replaceAll("\n", "\r\n")}`;
    write("windows.yaml", crlf);
    expect(graphspec("migrate", "windows.yaml").status).toBe(0);
    expect(read("windows.yaml")).toBe(`\ufeff${V1.replaceAll("\n", "\r\n")}`);
  });
});
