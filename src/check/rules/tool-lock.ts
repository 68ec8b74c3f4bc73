import { LOCK_COMMAND, LOCK_FILE, lockCovers, lockKey, moduleHash } from "../../modules/index.js";
import { checkedModuleRefs, projectLock, sharedOf } from "../module-refs.js";
import type { Rule } from "../rule.js";

const REFRESH = `run \`${LOCK_COMMAND}\` where the tool code is trusted (it loads the tool modules) and commit ${LOCK_FILE}`;

/**
 * With a `graphspec.lock.json` in the project, every tool module must be in it as it is now:
 * otherwise validate, which runs nothing, would check that tool's arguments against nothing (or
 * against an old schema) and pass.
 */
export const toolLock: Rule = {
  name: "tool-lock",
  async check(ctx) {
    const read = await projectLock(ctx);
    if (!read) return;
    // A spec outside the folders the lock was written for is checked as without one.
    if (read.ok && !lockCovers(read.lock, ctx.doc.root, ctx.doc.path)) return;
    const refs = (await checkedModuleRefs(ctx)).filter((r) => r.ref.kind === "tool" && r.abs);
    if (!read.ok) {
      const first = refs[0];
      if (first)
        ctx.report("tool-lock", first.ref.path, {
          message: `${LOCK_FILE} cannot be used: ${read.problem}`,
          hint: REFRESH.replace("run", "write it again: run"),
        });
      return;
    }
    for (const { ref, abs } of refs) {
      if (!abs) continue;
      const entry = read.lock.modules.get(lockKey(ctx.doc.root, abs));
      const tool = ref.tool?.name ?? "";
      if (!entry) {
        ctx.report("tool-lock", ref.path, {
          message: `module \`${ref.module}\` of tool \`${tool}\` is not in ${LOCK_FILE}, so the tool's arguments cannot be checked`,
          hint: REFRESH,
        });
      } else if ((await moduleHash(abs, ctx.doc.root, sharedOf(ctx))) !== entry.sha256) {
        ctx.report("tool-lock", ref.path, {
          message: `module \`${ref.module}\` of tool \`${tool}\`, or a file it imports, has changed since ${LOCK_FILE} was written, so the tool's arguments cannot be checked`,
          hint: REFRESH,
        });
      }
    }
  },
};
