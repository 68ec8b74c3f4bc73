/**
 * What `compile(spec, options)` takes besides the spec: where runs keep their state, what to use
 * instead of what the spec declares (models, tools, scripts, env), and the caches compiles share.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph";
import type { BaseCache } from "@langchain/langgraph-checkpoint";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { McpConnections } from "./mcp/mcp-connections.js";
import type { ScriptQueues, Scripts } from "./models/index.js";
import type { ProviderRecording } from "./models/recording.js";

export interface CompileOptions {
  /** Where runs keep their checkpoints (threads, interrupts, resume). Default: none. */
  checkpointer?: BaseCheckpointSaver | false;
  /** Cross-thread memory, given to nodes as LangGraph's store. */
  store?: BaseStore;
  /** The cache for nodes with `cache:`. Default: an in-memory cache, when a node asks for one. */
  nodeCache?: BaseCache;
  /** Chat models to use instead of the ones `models:` declares, by model name. */
  models?: Record<string, BaseChatModel>;
  /**
   * Model answers that stand in for the models of `models:`, keyed by NAME of `scripted:NAME`,
   * else the model's entry name (`writer`), else its `model` string (`openai:gpt-4o-mini`)
   * (docs/testing.md, "Standing in for a model"). Giving scripts makes the compile offline (see
   * `offline`). Each run takes its turns from its thread's place in them (a new thread starts at
   * the first turn, a resume continues); pass ScriptQueues to share them between compiles and see
   * what no run used.
   */
  scripts?: Scripts | ScriptQueues;
  /**
   * Never reach a model provider: a model of `models:` that is not `scripted:` answers from its
   * script, and without one fails when it is called, naming the model and how to script it.
   * Default: true when `scripts` is given, false otherwise; `false` with scripts lets the models
   * that are not `scripted:` call their providers.
   */
  offline?: boolean;
  /**
   * Record the provider exchanges of the runs (`ProviderRecording.record()`), or replay them
   * offline (`ProviderRecording.replay(text, file)`): docs/testing.md, "Recordings".
   */
  recording?: ProviderRecording;
  /**
   * How long one call of a model may take, whole (request to last byte, retries included), for
   * the models without a `timeout_ms` of their own. Default: 600000 (10 minutes).
   */
  modelTimeoutMs?: number;
  /**
   * The connections to the spec's MCP servers (`mcp_servers`), opened on first use and shared by
   * the compiles given the same one; whoever makes it closes it (an executor closes its own).
   * Default: a new one for this compile, whose stdio servers hold the process only during a
   * request and end when it exits.
   */
  mcp?: McpConnections;
  /** Tools to use instead of the modules `tools:` names, by tool name. */
  tools?: Record<string, StructuredToolInterface>;
  /** The environment `${{ env.NAME }}` reads in `models:`. Default: process.env. */
  env?: Record<string, string | undefined>;
  /** Check the spec first and refuse one with errors. Default true; turn off only for a spec just validated. */
  validate?: boolean;
  /**
   * Shared by the compiles of one process (subgraphs, a dev server's reloads): imported modules and
   * child specs by absolute path. A fresh map re-imports everything.
   */
  cache?: Map<string, unknown>;
  /**
   * Called with what the check found when the spec compiles (its warnings: a spec with errors is
   * refused). graphspec dev shows a served graph's warnings with it.
   */
  onDiagnostics?: (diagnostics: readonly Diagnostic[]) => void;
}
