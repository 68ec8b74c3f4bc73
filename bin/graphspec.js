#!/usr/bin/env node
import module from "node:module";

// Node ≥ 22.1 can keep V8's compiled code of the modules it loads on disk (in the OS temp dir;
// NODE_COMPILE_CACHE names another, NODE_DISABLE_COMPILE_CACHE=1 turns it off): a CLI started
// again skips parsing and compiling the same files. Node 20 has no such cache; it then does nothing.
module.enableCompileCache?.();

// Imported after the cache is on, so that the CLI's own modules are cached too.
const { allowWideFanOut, main } = await import("../dist/cli/main.js");

allowWideFanOut();
process.exitCode = await main(process.argv.slice(2));
