/**
 * Offline compiles (`graphspec test`): every model of `models:` that is not `scripted:` is stood in
 * for by a scripted model, so no provider is set up and no request leaves. A script named like the
 * model (`scripts: { writer: [...] }` for `models.writer`) answers for it; without one, its first
 * call fails, naming the model and how to script it. A real spec is testable as it is, without
 * `scripted:` written into it.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { Model } from "../../spec/spec-types.generated.js";
import { ScriptQueue, type ScriptQueues } from "./script.js";
import { ScriptedChatModel } from "./scripted.js";

/** The stand-in for model `name`: its script from `scripts`, or a model that refuses to be called. */
export function standIn(
  name: string,
  decl: Model,
  scripts: ScriptQueues | undefined,
): BaseChatModel {
  const queue = scripts?.given(name) ? scripts.get(name) : undefined;
  if (queue) return ScriptedChatModel.on(queue) as unknown as BaseChatModel;
  return ScriptedChatModel.refusing(new ScriptQueue(name, []), {
    message: `model \`${name}\` (\`${decl.model}\`) would call its provider, and an offline run (\`graphspec test\`) never reaches the network`,
    hint: `script it in the test, by the model's name: \`scripts: { ${name}: […] }\``,
  }) as unknown as BaseChatModel;
}
