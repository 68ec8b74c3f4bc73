/** The run form's options as a saved assistant's config, and back (src/web/runs/saved-assistant.ts). */
import type { Assistant } from "@langchain/langgraph-sdk";
import { describe, expect, it } from "vitest";
import { noRunOptions } from "../../src/web/runs/run-options.js";
import {
  assistantConfig,
  contextGivenBy,
  optionsOfAssistant,
  savedOnly,
} from "../../src/web/runs/saved-assistant.js";

const choices = { models: ["large"], tools: ["add", "shout"] };
const nodes = ["plan", "work"];

describe("a saved assistant's config from the run options", () => {
  it("keeps the model, the tools left in, the limit and the breakpoints; no stand-in", () => {
    const options = {
      model: "large",
      toolsOff: ["add"],
      pauseBefore: ["work"],
      pauseAfter: ["plan"],
      recursionLimit: "12",
    };
    const config = assistantConfig(options, choices);
    expect(config).toEqual({
      configurable: { model: "large", toolIds: ["shout"] },
      recursion_limit: 12,
      interrupt_before: ["work"],
      interrupt_after: ["plan"],
    });
    expect(optionsOfAssistant(config, choices, nodes)).toEqual(options);
  });

  it("is empty for the defaults, and the defaults come back from an empty config", () => {
    expect(assistantConfig(noRunOptions(), choices)).toEqual({});
    expect(optionsOfAssistant({}, choices, nodes)).toEqual(noRunOptions());
  });

  it("drops what the graph no longer offers (a model, a node)", () => {
    const back = optionsOfAssistant(
      { configurable: { model: "gone" }, interrupt_before: ["gone", "work"] },
      choices,
      nodes,
    );
    expect(back).toMatchObject({ model: "", pauseBefore: ["work"] });
  });

  it("lists a graph's saved assistants only, by name", () => {
    const a = (name: string, graph: string, system = false) =>
      ({
        assistant_id: name,
        graph_id: graph,
        name,
        metadata: system ? { created_by: "system" } : {},
      }) as unknown as Assistant;
    expect(
      savedOnly([a("b", "g"), a("g", "g", true), a("a", "g"), a("c", "h")], "g").map((x) => x.name),
    ).toEqual(["a", "b"]);
  });
});

describe("the context form when a saved assistant gives some of it", () => {
  const schema = {
    type: "object",
    properties: {
      user: { type: "string", description: "Who asks." },
      api_key: { type: "string" },
      region: { type: "string" },
    },
    required: ["user", "api_key", "region"],
  };
  it("does not require what the assistant gives, and says so with its value", () => {
    const given = contextGivenBy(schema, {
      name: "Ada's",
      context: { user: "ada", api_key: "***", other: 1 },
    });
    expect(given.required).toEqual(["region"]);
    expect(given.properties?.user?.description).toBe(
      'Who asks. Given by the assistant “Ada\'s”: "ada". Left empty, that applies; a value typed here is used instead.',
    );
    expect(given.properties?.api_key?.description).toContain('"***"');
    expect(given.properties?.region).toEqual({ type: "string" });
    expect(given.properties).not.toHaveProperty("other");
  });
  it("is the schema itself with no assistant, or one that gives nothing", () => {
    expect(contextGivenBy(schema, undefined)).toBe(schema);
    expect(contextGivenBy(schema, { name: "x", context: {} })).toBe(schema);
  });
});
