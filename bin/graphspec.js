#!/usr/bin/env node
import { allowWideFanOut, main } from "../dist/cli/main.js";

allowWideFanOut();
process.exitCode = await main(process.argv.slice(2));
