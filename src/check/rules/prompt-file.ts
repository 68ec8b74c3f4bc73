import { promptFileRefs } from "../../spec/prompt-files.js";
import type { Rule } from "../rule.js";

/**
 * A prompt naming its `file` in a spec that was given as text (`parseSpec`): nothing was read for
 * it, so there is no template to check or send. A spec read from a file has its prompt files read
 * while loading, and a file it cannot use is a load problem at its `file:` (prompt-files.ts).
 */
export const promptFile: Rule = {
  name: "prompt-file",
  check(ctx) {
    if (ctx.doc.prompts) return;
    for (const { path, ref } of promptFileRefs(ctx.spec)) {
      ctx.report("prompt-file", [...path, "file"], {
        message: `prompt file \`${ref}\` was not read: this spec was given as text, so it has no folder to read it from`,
        hint: "load the spec from its file (`loadSpec(path)`, `compile(path)`), which reads its prompt files, or write the prompt inline",
      });
    }
  },
};
