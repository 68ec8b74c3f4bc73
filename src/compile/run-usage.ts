/**
 * A run's token-usage handler (run/usage.ts), given to the nodes that can call a model instead of
 * to the whole graph. Once a graph's config has any callback handler, LangChain runs a callback
 * manager for every runnable of every step — the node, its channel writers, its routes: a run id,
 * the runnable's serialized form, a start and an end per handler — even for a handler that
 * ignores chains. On a 20-node chain of `function` nodes that was a fifth of an executor run's CPU,
 * for no model call at all. The executor puts the handler in the run's `configurable` instead
 * (`usageConfigurable`; not an AsyncLocalStorage of ours: one more store to carry made every
 * promise of the run dearer); a node that may call a model (anything but `set` and `interrupt`)
 * adds it to the config it runs with, so the model calls under it — its own, an agent's inner
 * steps, a subgraph's, a tool's — are heard as before, once.
 */
import type { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { Callbacks } from "@langchain/core/callbacks/manager";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";

/** The configurable key of the run's handler: a function giving it, never serialized or traced. */
const USAGE_KEY = "graphspec_usage";

/** What the executor adds to a run's `configurable` for its nodes to find `usage`. */
export const usageConfigurable = (usage: BaseCallbackHandler) => ({ [USAGE_KEY]: () => usage });

/** The handlers `callbacks` already calls (a list, or a manager's inherited ones). */
function handlersOf(callbacks: Callbacks | undefined): readonly unknown[] {
  if (!callbacks) return [];
  return Array.isArray(callbacks) ? callbacks : callbacks.handlers;
}

/**
 * `config` with the run's usage handler among its callbacks; `config` itself when no run set one
 * or its callbacks already have it (a node inside a subgraph node, or a run that streams events,
 * whose graph-wide callbacks include it).
 */
export function withRunUsage(config: LangGraphRunnableConfig): LangGraphRunnableConfig {
  const usage = (config.configurable?.[USAGE_KEY] as (() => BaseCallbackHandler) | undefined)?.();
  if (!usage) return config;
  const callbacks = config.callbacks;
  if (handlersOf(callbacks).includes(usage)) return config;
  return {
    ...config,
    callbacks: !callbacks
      ? [usage]
      : Array.isArray(callbacks)
        ? [...callbacks, usage]
        : callbacks.copy([usage]),
  };
}
