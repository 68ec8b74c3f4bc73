/**
 * What lowering one spec needs, made once per compile: the checked spec, its expression
 * environment, the write guard and context resolver, and the things nodes use by name (module
 * exports, tools, models, child graphs), each resolved once.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { END } from "@langchain/langgraph";
import { ERROR_TYPE, type ExprEnvironment, type ExprType, T } from "../expr/index.js";
import type { ResolvedRef } from "../modules/index.js";
import type { SpecDocument } from "../spec/document.js";
import { type Path, pointerOf } from "../spec/source-map.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";
import { buildTool } from "./build-tool.js";
import { CompileError } from "./compile-error.js";
import { serverReadsContext } from "./mcp/mcp-usage.js";
import { readsRun } from "./models/run-fields.js";
import { type RunStandIn, runStandIn, standInBook } from "./models/run-stand-in.js";
import { ScriptQueues } from "./models/script.js";
import type { CompileOptions } from "./options.js";
import { modelFor } from "./run-choices.js";
import { contextResolver, type ResolveContext } from "./run-context.js";
import { locationOf, type ValueCompiler } from "./values.js";
import { type WriteGuard, writeGuard } from "./write-guard.js";

export class CompileContext {
  readonly types = { error: ERROR_TYPE };
  readonly guard: WriteGuard;
  readonly resolveContext: ResolveContext;
  /** Whether any tool has `bind` values (computed inside tools from the node that runs them). */
  readonly bindsTools: boolean;
  /** State channels holding chat messages: expressions see them as Message records. */
  readonly messageChannels: string[];
  private readonly exportsByPath: Map<string, ResolvedRef>;
  private readonly tools = new Map<string, StructuredToolInterface>();
  /** The tools of the spec's MCP servers, by the names nodes use (set by compile once listed). */
  mcpTools = new Map<string, StructuredToolInterface>();
  private readonly models = new Map<string, Promise<BaseChatModel>>();
  /** The scripts of this compile: each run of the graph takes turns from its own place in them. */
  readonly scriptQueues: ScriptQueues | undefined;

  constructor(
    readonly doc: SpecDocument,
    readonly spec: GraphSpec,
    readonly expr: ExprEnvironment,
    readonly options: CompileOptions,
    refs: readonly ResolvedRef[],
    /** Compiles a child spec (subgraph nodes), sharing this compile's options and caches. */
    readonly compileChild: (abs: string) => Promise<unknown>,
  ) {
    this.guard = writeGuard(spec);
    const { scripts } = options;
    this.scriptQueues =
      scripts && (scripts instanceof ScriptQueues ? scripts : new ScriptQueues(scripts));
    this.resolveContext = contextResolver(spec);
    // MCP headers read from the context need the calling node's too (mcp/mcp-tools.ts).
    this.bindsTools =
      Object.values(spec.tools ?? {}).some((t) => t.bind !== undefined) || serverReadsContext(spec);
    this.messageChannels = Object.entries(spec.state)
      .filter(([, f]) => f.type === "messages")
      .map(([k]) => k);
    this.exportsByPath = new Map(refs.map((r) => [pointerOf(r.ref.path), r]));
  }

  /** For compiling a node's (or, with undefined, an edge's or tool's) templates. */
  values(node: string | undefined): ValueCompiler {
    return {
      doc: this.doc,
      expr: this.expr,
      maxCost: this.spec.limits?.expression_cost,
      ...(node === undefined ? {} : { node }),
    };
  }

  /** The type of `item` for a `map.over` expression: its list's element type. */
  itemType(over: string): ExprType {
    const r = this.expr.check(over, this.expr.scope("`map.over`"));
    return r.ok && r.type.kind === "list" ? r.type.item : T.dyn;
  }

  /** A spec target as LangGraph names it: `END` is `__end__`. */
  target(name: string): string {
    return name === "END" ? END : name;
  }

  /** The loaded export of the `{ module, export }` whose `module` value stands at `path`. */
  moduleExport(path: Path): { value: unknown; abs: string } {
    const resolved = this.exportsByPath.get(pointerOf(path));
    if (!resolved?.loaded || !resolved.abs) {
      // validate() reports these before compiling; reaching here means it was skipped.
      throw new CompileError(
        `${this.doc.file}: ${resolved?.problem?.message ?? `the module at ${pointerOf(path)} did not load`}`,
      );
    }
    return { value: resolved.loaded.value, abs: resolved.abs };
  }

  /** The tool declared as `name` (or the one given in the compile options). */
  tool(name: string): StructuredToolInterface {
    let t = this.tools.get(name);
    if (!t) {
      const given = this.options.tools?.[name];
      const decl = this.spec.tools?.[name];
      const fromServer = this.mcpTools.get(name);
      if (given) t = given;
      else if (fromServer) t = fromServer;
      else if (decl)
        t = buildTool(
          name,
          decl,
          this.moduleExport(["tools", name, "module"]).value,
          this.values(undefined),
        );
      else
        throw new CompileError(`${this.doc.file}: tool \`${name}\` is not declared in \`tools\``);
      this.tools.set(name, t);
    }
    return t;
  }

  /**
   * What a node builds on its model (a model with tools bound, an agent), per model a run may
   * choose: built now for the node's own model, so its mistakes fail the compile, and on first
   * use for a model its `allow` list names (a run's `configurable.model`, run-choices.ts).
   */
  async perRunModel<T>(
    name: string | undefined,
    build: (model: BaseChatModel, entry: string) => T | Promise<T>,
  ): Promise<
    (
      config: { configurable?: Record<string, unknown> },
      context?: Record<string, unknown>,
    ) => Promise<T>
  > {
    const own = name ?? "default";
    const first = Promise.resolve(build(await this.model(own), own));
    await first;
    const choosable = Boolean(this.spec.models?.[own]?.allow?.length);
    const built = new Map<string, Promise<T>>([[own, first]]);
    // What each run's stand-in (run-stand-in.ts) built, per model: made once per stand-in.
    const stoodIn = new WeakMap<RunStandIn, Map<string, Promise<T>>>();
    return (config, context) => {
      const entry = choosable ? modelFor(this.spec.models, own, config.configurable?.model) : own;
      const standIn = runStandIn(config.configurable);
      if (standIn && this.spec.models?.[entry] && !this.options.models?.[entry]) {
        const byEntry = stoodIn.get(standIn) ?? new Map<string, Promise<T>>();
        stoodIn.set(standIn, byEntry);
        let made = byEntry.get(entry);
        if (!made) {
          made = this.standInModel(entry, standIn).then((m) => build(m, entry));
          byEntry.set(entry, made);
          made.catch(() => byEntry.delete(entry));
        }
        return made;
      }
      if (!choosable && !this.isPerRun(own)) return first;
      // A model whose key or headers come from the run's context: built for this run only, so
      // one tenant's credentials never serve another's call.
      if (context && this.isPerRun(entry))
        return this.runModel(entry, context).then((m) => build(m, entry));
      let made = built.get(entry);
      if (!made) {
        made = this.model(entry).then((m) => build(m, entry));
        built.set(entry, made);
        // A model that could not be set up is tried again by the next run.
        made.catch(() => built.delete(entry));
      }
      return made;
    };
  }

  /** The model `name` as a run's stand-in answers for it: its script, or its client on the recording. */
  private async standInModel(name: string, standIn: RunStandIn): Promise<BaseChatModel> {
    const decl = this.spec.models![name]!;
    if ("scripts" in standIn) {
      const { standIn: scripted } = await import("./models/stand-in.js");
      return scripted(name, decl, standInBook(standIn));
    }
    const { resolveModel } = await import("./models/index.js");
    const scripts = this.scriptQueues;
    return resolveModel(name, decl, {
      env: this.options.env ?? process.env,
      expr: this.expr,
      recording: standIn.recording,
      ...(scripts ? { scripts } : {}),
      ...this.modelTimeout(),
    });
  }

  /** The compile's default model call deadline, when it gives one. */
  private modelTimeout(): { modelTimeoutMs?: number } {
    const ms = this.options.modelTimeoutMs;
    return ms === undefined ? {} : { modelTimeoutMs: ms };
  }

  /** Whether the model `name` reads the run's context, and so is set up for each run. */
  private isPerRun(name: string): boolean {
    const decl = this.spec.models?.[name];
    return Boolean(decl && !this.options.models?.[name] && !this.options.offline && readsRun(decl));
  }

  /** The model `name` set up with this run's context (its key, user, headers). */
  private async runModel(name: string, context: Record<string, unknown>): Promise<BaseChatModel> {
    const decl = this.spec.models![name]!;
    const { resolveModel } = await import("./models/index.js");
    const env = this.options.env ?? process.env;
    const { recording } = this.options;
    return resolveModel(name, decl, {
      env,
      expr: this.expr,
      context,
      ...(recording ? { recording } : {}),
      ...this.modelTimeout(),
    });
  }

  /** The chat model named `name` (default `default`), one instance per compile. */
  model(name = "default"): Promise<BaseChatModel> {
    const known = this.models.get(name);
    if (known) return known;
    const given = this.options.models?.[name];
    const decl = this.spec.models?.[name];
    const env = this.options.env ?? process.env;
    const scripts = this.scriptQueues;
    // Scripts given mean an offline run unless `offline: false` says otherwise (script-key.ts).
    const offline =
      (this.options.offline ?? this.options.scripts !== undefined) &&
      decl &&
      !decl.model.startsWith("scripted:");
    const model = given
      ? Promise.resolve(given)
      : offline
        ? import("./models/stand-in.js").then(({ standIn }) => standIn(name, decl, scripts))
        : decl
          ? // Loaded on first use: a graph without models never loads LangChain's model code.
            import("./models/index.js").then(({ resolveModel }) =>
              resolveModel(name, decl, {
                env,
                expr: this.expr,
                ...(scripts ? { scripts } : {}),
                ...(this.options.recording ? { recording: this.options.recording } : {}),
                ...this.modelTimeout(),
              }).catch((e: unknown) => {
                throw new CompileError(
                  `${locationOf(this.doc, ["models", name, "model"])}: ${(e as Error).message}`,
                );
              }),
            )
          : Promise.reject(
              new CompileError(`${this.doc.file}: model \`${name}\` is not declared in \`models\``),
            );
    this.models.set(name, model);
    return model;
  }
}
