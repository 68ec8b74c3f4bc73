#!/usr/bin/env node
import module from "node:module";

// Node ≥ 22.1 can keep V8's compiled code of the modules it loads on disk (in the OS temp dir;
// NODE_COMPILE_CACHE names another, NODE_DISABLE_COMPILE_CACHE=1 turns it off): a CLI started
// again skips parsing and compiling the same files. Node 20 has no such cache; it then does nothing.
module.enableCompileCache?.();

// Imported after the cache is on, so that the CLI's own modules are cached too. `validate`, the
// command CI runs most, runs from one script of its modules and packages with V8's code cache on
// every Node (src/cli/validate-script.ts).
const cli =
  process.argv[2] === "validate"
    ? (await import("../dist/cli/validate-script.js")).loadValidateScript()
    : await import("../dist/cli/main.js");

cli.allowWideFanOut();
process.exitCode = await cli.main(process.argv.slice(2));
cli.saveCodeCache?.();
