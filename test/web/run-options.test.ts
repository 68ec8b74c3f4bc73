/** What the run form's options send (src/web/runs/run-options.ts), as the SDK's runs.stream fields. */
import { describe, expect, it } from "vitest";
import {
  choicesOfConfigSchema,
  noRunOptions,
  recursionLimitProblem,
  runPayload,
} from "../../src/web/runs/run-options.js";

const choices = { models: ["large", "claude"], tools: ["lookup_ticket", "notify_customer"] };

describe("run options", () => {
  it("sends nothing for the defaults, and only the stand-in when one is chosen", () => {
    expect(runPayload(noRunOptions(), choices, "")).toEqual({});
    expect(runPayload(noRunOptions(), choices, "graphs/x.test.yaml#t")).toEqual({
      config: { configurable: { graphspec_stand_in: "graphs/x.test.yaml#t" } },
    });
  });

  it("sends the model, the tools left in, the limit and the breakpoints", () => {
    const payload = runPayload(
      {
        model: "large",
        toolsOff: ["notify_customer"],
        pauseBefore: ["summarise"],
        pauseAfter: ["lookup"],
        recursionLimit: "7",
      },
      choices,
      "s",
    );
    expect(payload).toEqual({
      config: {
        configurable: { graphspec_stand_in: "s", model: "large", toolIds: ["lookup_ticket"] },
        recursion_limit: 7,
      },
      interruptBefore: ["summarise"],
      interruptAfter: ["lookup"],
    });
  });

  it("sends an empty tool list when every tool is left out: none may be called", () => {
    const options = { ...noRunOptions(), toolsOff: ["lookup_ticket", "notify_customer"] };
    expect(runPayload(options, choices, "").config?.configurable).toEqual({ toolIds: [] });
  });

  it("says what is wrong with a recursion limit, and sends none that is wrong", () => {
    expect(recursionLimitProblem("")).toBeUndefined();
    expect(recursionLimitProblem("25")).toBeUndefined();
    for (const bad of ["0", "-1", "2.5", "x", "10001"])
      expect(recursionLimitProblem(bad)).toBe("a whole number from 1 to 10,000");
    expect(runPayload({ ...noRunOptions(), recursionLimit: "0" }, choices, "")).toEqual({});
  });

  it("reads the choices from an assistant's config_schema, and none from null", () => {
    expect(
      choicesOfConfigSchema({
        type: "object",
        properties: {
          model: { type: "string", enum: ["large"] },
          toolIds: { type: "array", items: { type: "string", enum: ["lookup_ticket"] } },
        },
      }),
    ).toEqual({ models: ["large"], tools: ["lookup_ticket"] });
    expect(choicesOfConfigSchema(null)).toEqual({ models: [], tools: [] });
  });
});
