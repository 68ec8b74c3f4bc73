/**
 * Reading back the loading process's answer (src/modules/isolated/answer.ts): it is written by a
 * process that ran the user's module, so every part of it is untrusted — its shape, its kinds, the
 * length of its texts, and export names that could reach an object's prototype. What validate
 * shows of a forged answer is in test/security/load-modules-sandbox.test.ts.
 */
import { describe, expect, it } from "vitest";
import { MAX_ANSWER_BYTES, readAnswer, readFacts } from "../../src/modules/isolated/answer.js";

const long = "x".repeat(5000);
const cut = "x".repeat(4096);

describe("readFacts", () => {
  it("each kind, its texts cut at 4,096 characters, its defaults when a text is missing", () => {
    expect(readFacts({ kind: "function", extra: 1 })).toEqual({ kind: "function" });
    expect(readFacts({ kind: "class", className: long })).toEqual({
      kind: "class",
      className: cut,
    });
    expect(readFacts({ kind: "class", className: 7 })).toEqual({
      kind: "class",
      className: "MyTool",
    });
    expect(readFacts({ kind: "other", what: long })).toEqual({ kind: "other", what: cut });
    expect(readFacts({ kind: "other" })).toEqual({ kind: "other", what: "a value" });
    expect(readFacts({ kind: "unreadable", error: long })).toEqual({
      kind: "unreadable",
      error: cut,
    });
    expect(readFacts({ kind: "unreadable" })).toEqual({ kind: "unreadable", error: "" });
  });

  it("a tool: its description and schema when they are text and an object, else left out", () => {
    const jsonSchema = { type: "object" };
    expect(readFacts({ kind: "tool", description: long, jsonSchema })).toEqual({
      kind: "tool",
      description: cut,
      jsonSchema,
    });
    expect(readFacts({ kind: "tool", description: 3, jsonSchema: [] })).toStrictEqual({
      kind: "tool",
    });
    expect(readFacts({ kind: "tool", jsonSchema: "x" })).toStrictEqual({ kind: "tool" });
    expect(readFacts({ kind: "tool", description: "" })).toStrictEqual({
      kind: "tool",
      description: "",
    });
  });

  it("anything else: nothing", () => {
    for (const v of [null, "function", ["function"], { kind: "module" }, {}])
      expect(readFacts(v)).toBeUndefined();
  });
});

describe("readAnswer", () => {
  it("an answer: its string names, and the facts of those names only", () => {
    const a = readAnswer(
      JSON.stringify({
        ok: true,
        names: ["ping", 3, "pong", "gone"],
        facts: {
          ping: { kind: "function" },
          pong: { kind: "nonsense" },
          other: { kind: "function" },
        },
      }),
    );
    expect(a?.ok).toBe(true);
    if (!a?.ok) return;
    expect(a.names).toEqual(["ping", "pong", "gone"]);
    expect([...a.facts]).toEqual([["ping", { kind: "function" }]]);
  });

  it("an export named __proto__, constructor or toString has only the facts the answer gives it", () => {
    const a = readAnswer(
      '{"ok":true,"names":["__proto__","constructor","toString"],"facts":{"__proto__":{"kind":"class","className":"P"}}}',
    );
    if (!a?.ok) throw new Error("not read");
    expect([...a.facts]).toEqual([["__proto__", { kind: "class", className: "P" }]]);
  });

  it("a failure: its name and message as text, cut, empty when missing", () => {
    expect(readAnswer(JSON.stringify({ ok: false, error: { name: "E", message: long } }))).toEqual({
      ok: false,
      error: { name: "E", message: cut },
    });
    expect(readAnswer('{"ok":false}')).toEqual({ ok: false, error: { name: "", message: "" } });
    expect(readAnswer('{"ok":false,"error":{"name":1,"message":[]}}')).toEqual({
      ok: false,
      error: { name: "", message: "" },
    });
  });

  it("anything else: not an answer", () => {
    for (const text of [
      "",
      "{",
      "null",
      "[]",
      '"ok"',
      "{}",
      '{"ok":"true","names":[],"facts":{}}',
      '{"ok":true,"names":{},"facts":{}}',
      '{"ok":true,"names":[],"facts":[]}',
      '{"ok":true,"names":[]}',
      '{"ok":true,"facts":{}}',
    ])
      expect(readAnswer(text), text).toBeUndefined();
  });

  it("the answer's size bound is 16 MiB", () => {
    expect(MAX_ANSWER_BYTES).toBe(16 * 1024 * 1024);
  });
});
