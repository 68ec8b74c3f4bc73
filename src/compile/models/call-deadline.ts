/**
 * How long one call of a model may take, whole: from the request to the answer's last byte,
 * LangChain's retries included. The providers' clients time out only until a response's headers
 * (10 minutes by default, then LangChain retries — up to 7 attempts), so a provider that accepts
 * the request and never answers held a run for over an hour, and one that stops midway through
 * its answer held it for good. A signal over the whole call ends both: the run fails with
 * `timeout`, naming the model (and, from its task, the node), at the thread's last checkpoint.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { GraphspecRunError } from "../graphspec-run-error.js";

/**
 * A model call's default deadline: the 10 minutes the OpenAI and Anthropic clients give one
 * request, now for the whole call. A model's `timeout_ms` replaces it; an executor's or a
 * compile's `modelTimeoutMs` changes it for every model without one.
 */
export const DEFAULT_MODEL_TIMEOUT_MS = 600_000;

/**
 * `model` with each call ended after `ms`: its `invoke`, which bound tools, structured output,
 * agents and streamed runs all go through — and so the models `withConfig` makes of it, since
 * some providers' (ChatOpenAI's) make a new model there, for `bindTools` too, rather than
 * binding this one.
 */
export function withCallDeadline(
  model: BaseChatModel,
  name: string,
  declared: string,
  ms: number,
): BaseChatModel {
  const withConfig = model.withConfig.bind(model);
  model.withConfig = (config) => {
    const made = withConfig(config);
    return made !== model && made instanceof model.constructor
      ? (withCallDeadline(made as BaseChatModel, name, declared, ms) as typeof made)
      : made;
  };
  const invoke = model.invoke.bind(model);
  model.invoke = async (input, options) => {
    const deadline = AbortSignal.timeout(ms);
    const given = options?.signal;
    const signal = given ? AbortSignal.any([given, deadline]) : deadline;
    try {
      return await invoke(input, { ...options, signal });
    } catch (e) {
      // The run's own cancel (or deadline) is the run's to report.
      if (!deadline.aborted || given?.aborted) throw e;
      throw new GraphspecRunError(
        "timeout",
        `model \`${name}\` (\`${declared}\`) timed out: no answer within ${ms} ms`,
        {
          hint: `raise \`models.${name}.timeout_ms\` (the default is ${DEFAULT_MODEL_TIMEOUT_MS} ms), add \`retry\` to the node, or check the provider's status`,
          cause: e,
        },
      );
    }
  };
  return model;
}
