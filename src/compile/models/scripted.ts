/**
 * The `scripted` provider: a chat model that answers from a script — text, tool calls, structured
 * outputs, errors — in order, one turn per model call. Built on LangChain's `fakeModel()`
 * (@langchain/core/testing), which records calls and runs through the real callback and tracing
 * machinery; a structured output is an AI message whose content is the JSON text, so one queue
 * serves plain calls, tool calls and `withStructuredOutput` alike.
 */

import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import { AIMessage, AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk } from "@langchain/core/outputs";
import { RunnableLambda } from "@langchain/core/runnables";
import { fakeModel } from "@langchain/core/testing";

/** One model answer, in order. A bare string is `{ text }`. */
export interface ScriptedTurn {
  /** The AI message's content. */
  text?: string;
  /** Tool calls the model asks for; ids `call_1`, `call_2`, … when not given. */
  tool_calls?: { name: string; args: Record<string, unknown>; id?: string }[];
  /** The answer to a structured-output call (`output.schema`). */
  structured?: unknown;
  /** Token usage reported for this answer. Default: about four characters a token. */
  usage?: { input_tokens: number; output_tokens: number };
  /** This call fails with this message (for `retry` and `on_error`). */
  error?: string;
}

/** Scripts by the NAME of `scripted:NAME`. */
export type Scripts = Record<string, (ScriptedTurn | string)[]>;

type FakeModel = ReturnType<typeof fakeModel>;
const FakeBuiltModel = fakeModel().constructor as new () => FakeModel;

const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

interface Shared {
  name: string;
  turns: ScriptedTurn[];
  next: number;
  toolCallIds: number;
}

/** A scripted chat model; `bindTools` and `withStructuredOutput` answer from the same script. */
export class ScriptedChatModel extends FakeBuiltModel {
  private script!: Shared;

  static create(name: string, turns: readonly (ScriptedTurn | string)[]): ScriptedChatModel {
    const model = new ScriptedChatModel();
    model.script = {
      name,
      turns: turns.map((t) => (typeof t === "string" ? { text: t } : { ...t })),
      next: 0,
      toolCallIds: 0,
    };
    model.queueFactory();
    return model;
  }

  /** fakeModel answers by queue position: one factory per call, each taking the script's next turn. */
  private queueFactory(): void {
    this.respond((messages: BaseMessage[]) => {
      this.queueFactory();
      return this.answer(messages);
    });
  }

  private answer(messages: BaseMessage[]): BaseMessage | Error {
    const s = this.script;
    const turn = s.turns[s.next];
    const call = ++s.next;
    if (!turn) {
      return new Error(
        `scripted model \`${s.name}\` has no answer left: its script has ${s.turns.length} turn${s.turns.length === 1 ? "" : "s"} and this is call ${call}`,
      );
    }
    if (turn.error !== undefined) return new Error(turn.error);
    const content =
      turn.structured !== undefined ? JSON.stringify(turn.structured) : (turn.text ?? "");
    const input = messages.reduce((n, m) => n + m.text.length, 0);
    const usage = turn.usage ?? {
      input_tokens: tokens(" ".repeat(input)),
      output_tokens: tokens(content),
    };
    return new AIMessage({
      content,
      id: `scripted-${s.name}-${call}`,
      tool_calls: (turn.tool_calls ?? []).map((c) => ({
        name: c.name,
        args: c.args,
        id: c.id ?? `call_${++s.toolCallIds}`,
        type: "tool_call" as const,
      })),
      usage_metadata: { ...usage, total_tokens: usage.input_tokens + usage.output_tokens },
    });
  }

  /**
   * Streaming, when a caller listens for tokens (LangGraph's `messages` stream mode): the same
   * answer, its text in pieces of a few characters, then its tool calls and usage.
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
        ...(answer.usage_metadata ? { usage_metadata: answer.usage_metadata } : {}),
      }),
    });
  }

  override bindTools(_tools: unknown[]): ReturnType<FakeModel["bindTools"]> {
    // The model answers from its script whatever tools it is given: the script says which to call.
    return this.withConfig({}) as ReturnType<FakeModel["bindTools"]>;
  }

  override withStructuredOutput(_schema: unknown, config?: { includeRaw?: boolean }): any {
    return RunnableLambda.from(async (input: BaseLanguageModelInput, options) => {
      const raw = (await this.invoke(input, options)) as AIMessage;
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw.text);
      } catch {
        throw new Error(
          `scripted model \`${this.script.name}\` answered a structured-output call with text that is not JSON: ${JSON.stringify(raw.text.slice(0, 80))}`,
        );
      }
      return config?.includeRaw ? { raw, parsed } : parsed;
    });
  }
}
