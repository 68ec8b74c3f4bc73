/**
 * Offline compiles (given scripts, or `graphspec test`): every model of `models:` that is not
 * `scripted:` is stood in for by a scripted model, so no provider is set up and no request leaves.
 * The script that answers for it is chosen by script-key.ts (`scripts: { writer: [...] }` for
 * `models.writer`, or `"openai:gpt-4o-mini": [...]`); without one, its first call fails, naming the
 * model and how to script it. A real spec runs offline as it is, without `scripted:` written into it.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { Model } from "../../spec/spec-types.generated.js";
import { ScriptQueue, type ScriptQueues } from "./script.js";
import { scriptKey } from "./script-key.js";
import { ScriptedChatModel } from "./scripted.js";

/** The stand-in for model `name`: its script from `scripts`, or a model that refuses to be called. */
export function standIn(
  name: string,
  decl: Model,
  scripts: ScriptQueues | undefined,
): BaseChatModel {
  const key = scripts && scriptKey(name, decl.model, (k) => scripts.given(k));
  const queue = key === undefined ? undefined : scripts?.get(key);
  if (queue) return ScriptedChatModel.on(queue) as unknown as BaseChatModel;
  const given = scripts?.names() ?? [];
  return ScriptedChatModel.refusing(new ScriptQueue(name, []), {
    message: `model \`${name}\` (\`${decl.model}\`) has no script, and a run given scripts never reaches the network`,
    hint: `script it by its entry name or its model: \`scripts: { ${name}: […] }\` or \`{ "${decl.model}": […] }\`${given.length ? ` (the scripts given are ${given.map((n) => `\`${n}\``).join(", ")})` : ""}`,
  }) as unknown as BaseChatModel;
}
