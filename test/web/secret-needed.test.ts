/** Which secret a run from a thread's checkpoint is asked for first (src/web/runs/secret-needed.ts). */
import { describe, expect, it } from "vitest";
import { secretMissing } from "../../src/web/runs/secret-needed.js";

const context = {
  type: "object",
  properties: {
    team: { type: "string" },
    crm_token: { type: "string", writeOnly: true },
    api_key: { type: "string", writeOnly: true },
    region_key: { type: "string", writeOnly: true, default: "eu" },
    optional_token: { type: "string", writeOnly: true },
  },
  required: ["team", "crm_token", "api_key", "region_key"],
};

describe("a secret a run on a thread must be given", () => {
  it("is a required secret field not given, in the schema's order", () => {
    expect(secretMissing(context, {})).toBe("crm_token");
    expect(secretMissing(context, { crm_token: "t" })).toBe("api_key");
  });
  it("is none once given (by the person or a saved assistant), for a default, an optional one or a plain field", () => {
    expect(secretMissing(context, { crm_token: "t", api_key: "***" })).toBeUndefined();
    expect(secretMissing({ ...context, required: ["team", "region_key"] }, {})).toBeUndefined();
    expect(secretMissing(undefined, {})).toBeUndefined();
  });
});
