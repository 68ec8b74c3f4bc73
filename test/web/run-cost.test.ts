/** A run's cost from its usage and the spec's model prices (src/web/runs/run-cost.ts). */
import { describe, expect, it } from "vitest";
import { costOf, formatUsd, modelsOfMetadata } from "../../src/web/runs/run-cost.js";

// As graphspec's server gives them in the assistant's metadata (src/server/model-prices.ts).
const metadata = {
  created_by: "system",
  graphspec: {
    models: {
      default: { model: "openai:gpt-4o-mini", price: { input: 0.15, output: 0.6 } },
      large: { model: "anthropic:claude-sonnet-4-5", price: { input: 3, output: 15 } },
      local: { model: "openai:llama3.2" },
    },
  },
};
const models = modelsOfMetadata(metadata);
const use = (model: string | undefined, input: number, output: number) => ({
  model,
  input,
  output,
  total: input + output,
});

describe("costOf", () => {
  it("prices each message by its model, in USD per million tokens", () => {
    const cost = costOf(
      {
        a: use("gpt-4o-mini", 1_000_000, 100_000),
        b: use("claude-sonnet-4-5", 1000, 1000),
        // A response's model_name with a version suffix is the same model.
        c: use("gpt-4o-mini-2024-07-18", 0, 1_000_000),
      },
      models,
    );
    expect(cost).toBeCloseTo(0.15 + 0.06 + 0.003 + 0.015 + 0.6, 10);
  });

  it("takes the cost a gateway or the provider gave over the spec's price", () => {
    const cost = costOf(
      {
        // Priced at 0.15/0.6 this would be 0.00075; the gateway said 0.002.
        a: { ...use("gpt-4o-mini", 1000, 1000), cost: 0.002 },
        // A model without a price, whose gateway said what it cost.
        b: { ...use("llama3.2", 10, 10), cost: 0.0001 },
      },
      models,
    );
    expect(cost).toBeCloseTo(0.0021, 12);
  });

  it("shows no cost while a model used has no price, or none was used yet", () => {
    expect(
      costOf({ a: use("gpt-4o-mini", 10, 10), b: use("llama3.2", 10, 10) }, models),
    ).toBeUndefined();
    expect(costOf({ a: use("unknown-model", 10, 10) }, models)).toBeUndefined();
    expect(costOf({}, models)).toBeUndefined();
  });

  it("takes a message without a model name for the spec's only model", () => {
    const one = modelsOfMetadata({
      graphspec: { models: { default: metadata.graphspec.models.default } },
    });
    expect(costOf({ a: use(undefined, 1_000_000, 0) }, one)).toBeCloseTo(0.15, 10);
    expect(costOf({ a: use(undefined, 1_000_000, 0) }, models)).toBeUndefined();
  });

  it("reads nothing from metadata that is not graphspec's", () => {
    expect(modelsOfMetadata({ created_by: "system" })).toEqual({});
    expect(modelsOfMetadata(null)).toEqual({});
    expect(
      modelsOfMetadata({
        graphspec: { models: { x: { model: 1 }, y: { model: "a:b", price: { input: "1" } } } },
      }),
    ).toEqual({
      y: { model: "a:b" },
    });
  });
});

describe("formatUsd", () => {
  it("shows small sums to the millionth of a dollar", () => {
    expect(formatUsd(0.0000451)).toBe("$0.000045");
    expect(formatUsd(1.23456)).toBe("$1.2346");
  });
});
