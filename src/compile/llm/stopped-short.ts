/**
 * A structured answer the provider says it did not finish: cut at the token limit, or declined.
 * Asking again "match the schema" cannot help either, so the node fails at once saying which —
 * the same whether the answer was invoked or streamed (LangChain reports it differently each way).
 */
import type { BaseMessage } from "@langchain/core/messages";
import { GraphspecRunError } from "../graphspec-run-error.js";
import { preview } from "../preview.js";

export type StoppedShort = "truncated" | "refused";

/**
 * Why the answer stopped, when not as a finished answer: Anthropic's `stop_reason` (in the response
 * metadata when invoked, in `additional_kwargs` when streamed), OpenAI's `finish_reason`.
 */
export function stoppedShort(raw: BaseMessage): StoppedShort | undefined {
  const said = (m: Record<string, unknown> | undefined) => m?.stop_reason ?? m?.finish_reason;
  const why = said(raw.response_metadata) ?? said(raw.additional_kwargs);
  if (why === "max_tokens" || why === "length") return "truncated";
  if (why === "refusal" || why === "content_filter") return "refused";
  return undefined;
}

/**
 * The OpenAI client's own errors for the same (its structured-output parse throws them when
 * invoked): `LengthFinishReasonError`, `ContentFilterFinishReasonError`, found through the causes.
 */
export function stoppedShortError(e: unknown): StoppedShort | undefined {
  for (let c = e, depth = 0; c && depth < 5; c = (c as { cause?: unknown }).cause, depth++) {
    const name = (c as object).constructor?.name;
    if (name === "LengthFinishReasonError") return "truncated";
    if (name === "ContentFilterFinishReasonError") return "refused";
  }
  return undefined;
}

/** The node's failure for an answer that stopped short: `invalid-output`, saying why. */
export function stoppedShortFailure(
  node: string,
  why: StoppedShort,
  answer: string | undefined,
  cause?: unknown,
): GraphspecRunError {
  const said = answer ? ` (answer: ${preview(answer)})` : "";
  return why === "truncated"
    ? new GraphspecRunError(
        "invalid-output",
        `node \`${node}\`: the model's answer was cut at its token limit before it matched \`output.schema\`${said}`,
        {
          node,
          field: "output",
          hint: "raise the model's `max_tokens`, or ask for a smaller answer (fewer or shorter fields)",
          cause,
        },
      )
    : new GraphspecRunError(
        "invalid-output",
        `node \`${node}\`: the model declined to answer${said}`,
        {
          node,
          field: "output",
          hint: "the provider refused the request (its content policy): change the prompt or the input, or route such inputs elsewhere",
          cause,
        },
      );
}
