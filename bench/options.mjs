/**
 * The benches' command lines: Node's parseArgs, with `--help` printing the script's own header
 * comment (where each bench documents its options) and a wrong option a one-line error, exit 2.
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

/** The parsed options of the bench at `scriptUrl` (its `import.meta.url`). */
export function benchOptions(scriptUrl, options, extra = {}) {
  const file = fileURLToPath(scriptUrl);
  const name = `bench/${basename(file)}`;
  if (process.argv.includes("--help") || process.argv.includes("-h")) {
    const header = /\/\*\*([\s\S]*?)\*\//.exec(readFileSync(file, "utf8"))?.[1] ?? "";
    console.log(header.replace(/^ ?\* ?/gm, "").trim());
    process.exit(0);
  }
  try {
    return parseArgs({ options, ...extra });
  } catch (e) {
    console.error(`${name}: ${e.message} (see node ${name} --help)`);
    process.exit(2);
  }
}
