/**
 * Token usage summed over every model call of a run, from LangChain's callbacks — so calls whose
 * answer never reaches the state (a refused structured answer, an agent's inner steps) count too.
 */
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { LLMResult } from "@langchain/core/outputs";
import type { TokenUsage } from "./result.js";

export class UsageCollector extends BaseCallbackHandler {
  name = "graphspec-usage";
  // Awaited: LangChain may otherwise queue handlers to run in the background, and the budget
  // check belongs in the model call's own path. (No test result has been seen to depend on it.)
  override awaitHandlers = true;
  // Only model calls' ends are read: LangChain then skips this handler for every chain (each
  // node, each runnable inside it), tool and custom event, instead of awaiting a no-op for each.
  override ignoreChain = true;
  override ignoreAgent = true;
  override ignoreRetriever = true;
  override ignoreCustomEvent = true;
  readonly usage: TokenUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

  /** `onModelCall` hears the run's usage after every model call. */
  constructor(private readonly onModelCall?: (usage: TokenUsage) => void) {
    super();
  }

  override async handleLLMEnd(output: LLMResult): Promise<void> {
    for (const generation of output.generations.flat()) {
      const message = (
        generation as {
          message?: {
            usage_metadata?: Record<string, number>;
            response_metadata?: { usage?: { cost?: unknown } };
          };
        }
      ).message;
      // The cost the provider or a gateway gave (compile/models/gateway-cost.ts).
      const cost = message?.response_metadata?.usage?.cost;
      if (typeof cost === "number" && Number.isFinite(cost))
        this.usage.cost = (this.usage.cost ?? 0) + cost;
      const u = message?.usage_metadata;
      if (!u) continue;
      this.usage.inputTokens += u.input_tokens ?? 0;
      this.usage.outputTokens += u.output_tokens ?? 0;
      this.usage.totalTokens += u.total_tokens ?? (u.input_tokens ?? 0) + (u.output_tokens ?? 0);
    }
    this.onModelCall?.(this.usage);
  }
}
