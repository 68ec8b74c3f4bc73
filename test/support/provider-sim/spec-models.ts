/**
 * Spec model entries for the real OpenAI and Anthropic clients, pointed at a provider simulator
 * through the executor's `env` (simEnv): the same graph written once per API.
 */
import type { ProviderSim } from "./server.js";

/** Each API's model entry, as YAML flow mappings; `more` adds fields (`, timeout_ms: 800`). */
export const simModels = (more = ""): Record<"openai" | "anthropic", string> => ({
  openai: `{ model: "openai:gpt-4o-mini", base_url: "\${{ env.SIM_OPENAI_URL }}", api_key: sk-sim, max_retries: 0${more} }`,
  anthropic: `{ model: "anthropic:claude-sonnet-4-5", base_url: "\${{ env.SIM_ANTHROPIC_URL }}", api_key: sk-sim, max_retries: 0${more} }`,
});

/** The `env` the entries read the simulator's URLs from. */
export const simEnv = (sim: ProviderSim) => ({
  SIM_OPENAI_URL: sim.openaiUrl,
  SIM_ANTHROPIC_URL: sim.anthropicUrl,
});
