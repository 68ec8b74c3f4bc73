/**
 * The `scripted` provider: a chat model that answers from a script — text, tool calls, structured
 * outputs, errors — in order, one turn per model call. Built on LangChain's `fakeModel()`
 * (@langchain/core/testing), which records calls and runs through the real callback and tracing
 * machinery. A structured answer is an AI message whose content is the JSON text, so one queue
 * serves plain calls, tool calls and `withStructuredOutput` alike.
 */
import { randomUUID } from "node:crypto";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import { AIMessage, AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk } from "@langchain/core/outputs";
import { RunnableLambda } from "@langchain/core/runnables";
import { fakeModel } from "@langchain/core/testing";
import { type ScriptedTurn, ScriptQueue } from "./script.js";
import { currentScriptRun } from "./script-run.js";

type FakeModel = ReturnType<typeof fakeModel>;
const FakeBuiltModel = fakeModel().constructor as new () => FakeModel;

/** About four characters a token, at least one. */
const tokens = (chars: number) => Math.max(1, Math.ceil(chars / 4));
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** An error with a fix hint, as a plain `Error` (so a run reports the message as written). */
const failure = (message: string, hint?: string) =>
  Object.assign(new Error(message), hint ? { hint } : {});

/**
 * A scripted chat model; `bindTools` and `withStructuredOutput` answer from the same queue: the
 * run's queue of its script when called in a graph's run (models/script-run.ts), else its own.
 */
export class ScriptedChatModel extends FakeBuiltModel {
  /** The queue for calls outside any run of a graph. */
  private own!: ScriptQueue;

  /** A model with a queue of its own: for tests that build graphs by hand. */
  static create(name: string, turns: readonly (ScriptedTurn | string)[]): ScriptedChatModel {
    return ScriptedChatModel.on(new ScriptQueue(name, turns));
  }

  /** A model answering from `queue` (which other models may share) outside a graph's runs, and from its run's queue of the same script inside one. */
  static on(queue: ScriptQueue): ScriptedChatModel {
    const model = new ScriptedChatModel();
    model.own = queue;
    model.queueFactory();
    return model;
  }

  /** Set on a model that stands in for a real one without a script: every call fails so. */
  private refusal: { message: string; hint: string } | undefined;

  /** A model whose every call fails with `refusal` (models/stand-in.ts). */
  static refusing(
    queue: ScriptQueue,
    refusal: { message: string; hint: string },
  ): ScriptedChatModel {
    const model = ScriptedChatModel.on(queue);
    model.refusal = refusal;
    return model;
  }

  /** The queue this call takes its turn from. */
  private get script(): ScriptQueue {
    return currentScriptRun()?.queue(this.own.name, this.own.turns) ?? this.own;
  }

  override _llmType(): string {
    return "scripted";
  }

  /** Named as real models are in the stream's metadata (`ls_model_name`): the script's name. */
  override getLsParams(options: this["ParsedCallOptions"]) {
    return { ...super.getLsParams(options), ls_model_name: this.own.name };
  }

  /** fakeModel answers by queue position: one factory per call, each taking the script's next turn. */
  private queueFactory(): void {
    this.respond((messages: BaseMessage[]) => {
      this.queueFactory();
      return this.answer(messages);
    });
  }

  private answer(messages: BaseMessage[]): BaseMessage | Error {
    if (this.refusal) return failure(this.refusal.message, this.refusal.hint);
    const q = this.script;
    const { turn, call } = q.take();
    if (!turn) {
      return failure(
        `scripted model \`${q.name}\` has no answer left: its script has ${plural(q.turns.length, "turn")} and this is call ${call}`,
        `add a turn to the script \`${q.name}\`: one turn per model call`,
      );
    }
    if (turn.error !== undefined) return new Error(turn.error);
    const content =
      turn.structured !== undefined ? JSON.stringify(turn.structured) : (turn.text ?? "");
    const toolCalls = (turn.tool_calls ?? []).map((c) => ({
      name: c.name,
      args: c.args,
      id: c.id ?? q.toolCallId(),
      type: "tool_call" as const,
    }));
    const called = toolCalls.length ? JSON.stringify(turn.tool_calls).length : 0;
    const usage = turn.usage ?? {
      input_tokens: tokens(messages.reduce((n, m) => n + m.text.length, 0)),
      output_tokens: tokens(content.length + called),
    };
    return new AIMessage({
      content,
      // Every answer its own id, as a provider gives each call: a run from a checkpoint takes the
      // same turn again (scripts keep their place with the checkpoint), and two branches of a
      // thread holding one id sent the SDK's branching (useStream's getMessagesMetadata, which finds
      // a message's checkpoint by its id) to the other branch.
      id: `scripted-${q.name}-${randomUUID().slice(0, 8)}-${call}`,
      tool_calls: toolCalls,
      usage_metadata: { ...usage, total_tokens: usage.input_tokens + usage.output_tokens },
      // Which turn answered: a structured-output call reads the turn back through it.
      response_metadata: { model_provider: "scripted", model_name: q.name, scripted_call: call },
    });
  }

  /**
   * Streaming, when a caller listens for tokens (LangGraph's `messages` stream mode, `.stream()`,
   * `streamEvents`): the same answer, its text in pieces of four characters, then a last chunk
   * with its tool calls, usage and metadata.
   */
  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const result = await this._generate(messages, options);
    const answer = result.generations[0]!.message as AIMessage;
    const text = answer.text;
    for (let i = 0; i < text.length; i += 4) {
      const piece = text.slice(i, i + 4);
      const chunk = new ChatGenerationChunk({
        text: piece,
        message: new AIMessageChunk({ content: piece, id: answer.id }),
      });
      yield chunk;
      // With the chunk, listeners (LangGraph's messages mode) know which message the token is of.
      await runManager?.handleLLMNewToken(piece, undefined, undefined, undefined, undefined, {
        chunk,
      });
    }
    yield new ChatGenerationChunk({
      text: "",
      message: new AIMessageChunk({
        content: "",
        id: answer.id,
        tool_call_chunks: answer.tool_calls?.map((c, index) => ({
          name: c.name,
          args: JSON.stringify(c.args),
          id: c.id,
          index,
          type: "tool_call_chunk" as const,
        })),
        response_metadata: answer.response_metadata,
        ...(answer.usage_metadata ? { usage_metadata: answer.usage_metadata } : {}),
      }),
    });
  }

  override bindTools(_tools: unknown[]): ReturnType<FakeModel["bindTools"]> {
    // The model answers from its script whatever tools it is given: the script says which to call.
    return this.withConfig({}) as ReturnType<FakeModel["bindTools"]>;
  }

  /**
   * The next turn's `structured` value (or its text, parsed as JSON). With `includeRaw`, the AI
   * message too, and text that is not JSON gives `parsed: null` as a provider's parser would.
   */
  override withStructuredOutput(_schema: unknown, config?: { includeRaw?: boolean }): any {
    return RunnableLambda.from(async (input: BaseLanguageModelInput, options) => {
      const raw = (await this.invoke(input, options)) as AIMessage;
      const call = Number(raw.response_metadata?.scripted_call);
      const turn = this.own.turns[call - 1];
      const where = `scripted model \`${this.own.name}\` (call ${call})`;
      if (turn?.structured === undefined && !turn?.text) {
        throw failure(
          `${where} was asked for a structured answer, but turn ${call} of its script has neither \`structured\` nor JSON \`text\``,
          "give the turn `structured: {…}`",
        );
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw.text);
      } catch {
        const error = failure(
          `${where} answered a structured-output call with text that is not JSON: ${JSON.stringify(raw.text.slice(0, 80))}`,
          "give the turn `structured: {…}`, or JSON `text`",
        );
        if (!config?.includeRaw) throw error;
        return { raw, parsed: null, parsingError: error };
      }
      return config?.includeRaw ? { raw, parsed } : parsed;
    }).withConfig({ runName: "ScriptedStructuredOutput" });
  }
}
