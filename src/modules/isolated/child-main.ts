/**
 * The entry of the process `validate --load-modules` starts for one module: import it, describe
 * its exports as data (export-facts.ts), write that answer to the file named on the command line,
 * and exit. Everything the module does happens here, not in the validator: the parent decides what
 * its own output and exit code are, whatever this process does.
 *
 * argv: <module path> <answer file>
 */
import { writeFileSync } from "node:fs";
import { exportFacts } from "../export-facts.js";
import { importModule } from "../load.js";
import type { ChildAnswer } from "./answer.js";

// Taken before the module loads, so a module that replaces `process.exit` cannot keep us alive.
const exit = process.exit;

const firstText = (read: () => unknown): string => {
  try {
    return String(read() ?? "");
  } catch {
    return "";
  }
};

/** A value JSON can carry, or the same facts without the tool's schema when it cannot (a cycle). */
function serializable(facts: Awaited<ReturnType<typeof exportFacts>>) {
  try {
    JSON.stringify(facts);
    return facts;
  } catch {
    return facts.kind === "tool" ? { kind: "tool" as const } : facts;
  }
}

async function answerFor(abs: string): Promise<ChildAnswer> {
  let namespace: Record<string, unknown>;
  try {
    namespace = await importModule(abs);
  } catch (error) {
    const e = error as { name?: unknown; message?: unknown } | null | undefined;
    return {
      ok: false,
      error: {
        name: firstText(() => e?.name),
        message: firstText(() => (typeof e?.message === "string" ? e.message : String(error))),
      },
    };
  }
  const names = Object.keys(namespace);
  // No prototype: an export may be named `__proto__`.
  const facts: Record<string, Awaited<ReturnType<typeof exportFacts>>> = Object.create(null);
  for (const name of names) {
    try {
      facts[name] = serializable(await exportFacts(namespace[name], abs));
    } catch (e) {
      // A binding not yet initialized (an import cycle) throws when read.
      facts[name] = { kind: "unreadable", error: firstText(() => (e as Error).message) };
    }
  }
  return { ok: true, names, facts };
}

const [abs, answerPath] = process.argv.slice(2);
if (abs && answerPath) {
  writeFileSync(answerPath, JSON.stringify(await answerFor(abs)));
  exit.call(process, 0);
}
