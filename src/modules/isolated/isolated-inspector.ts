/**
 * `validate --load-modules`: each module is loaded in a process of its own, with a time limit and
 * an environment holding nothing of the validator's but PATH, and answers with data (answer.ts).
 * Whatever that process does — exit at import, hang, crash, print, spawn — the validator's output
 * and exit code stay its own: a module that does not answer becomes a diagnostic on the spec. What
 * it started ends with it, as far as this machine allows (containment.ts).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadFailure } from "../load.js";
import type { ModuleInspector, ModuleReport } from "../module-report.js";
import { MAX_ANSWER_BYTES, readAnswer } from "./answer.js";
import { contain } from "./containment.js";

export interface IsolationOptions {
  /** Milliseconds a module may take to load and answer. */
  timeout: number;
  /** The loading process's environment, besides PATH. */
  env: Readonly<Record<string, string>>;
}

/** Ten seconds: enough for a module that imports LangChain on a busy CI machine. */
export const DEFAULT_LOAD_TIMEOUT_MS = 10_000;

type Outcome =
  | { kind: "answer"; text: string }
  | { kind: "timeout" }
  | { kind: "exit"; code: number | null; signal: NodeJS.Signals | null }
  | { kind: "spawn-error"; code: string }
  | { kind: "too-big" };

/**
 * The child's entry: the built `child-main.js`, or, when graphspec runs from its TypeScript sources
 * (its own tests), `child-main.ts` through tsx's loader.
 */
function childCommand(): string[] {
  const js = fileURLToPath(new URL("./child-main.js", import.meta.url));
  if (existsSync(js)) return [js];
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  return ["--import", tsx, fileURLToPath(new URL("./child-main.ts", import.meta.url))];
}

/** At most this many loading processes at once: each may load LangChain. */
const MAX_RUNNING = Math.max(1, Math.min(4, availableParallelism()));
let running = 0;
const waiting: (() => void)[] = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING) await new Promise<void>((go) => waiting.push(go));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** The environment of the loading process: PATH (to find programs), and what the caller passes on. */
function childEnv(extra: Readonly<Record<string, string>>): Record<string, string> {
  const env: Record<string, string> = {};
  if (process.env.PATH !== undefined) env.PATH = process.env.PATH;
  // Windows cannot start processes without it; it holds no secret.
  if (process.platform === "win32" && process.env.SystemRoot)
    env.SystemRoot = process.env.SystemRoot;
  return { ...env, ...extra };
}

async function loadInChild(abs: string, root: string, options: IsolationOptions): Promise<Outcome> {
  const dir = await mkdtemp(join(tmpdir(), "graphspec-load-"));
  const answerPath = join(dir, "answer.json");
  try {
    const contained = await contain([...childCommand(), abs, answerPath], childEnv(options.env));
    const ended = await new Promise<Outcome>((done) => {
      const child = spawn(contained.command, contained.args, {
        cwd: root,
        env: contained.env,
        // Its output goes nowhere: the validator's output is the validator's.
        stdio: "ignore",
        detached: process.platform !== "win32",
        windowsHide: true,
      });
      // Whatever it started goes with it (containment.ts), before the outcome is reported.
      let finished = false;
      const finish = (outcome: Outcome) => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        void contained.end(child.pid).then(() => done(outcome));
      };
      const timer = setTimeout(() => finish({ kind: "timeout" }), options.timeout);
      child.once("error", (e: NodeJS.ErrnoException) =>
        finish({ kind: "spawn-error", code: e.code ?? e.message }),
      );
      child.once("exit", (code, signal) =>
        finish({ kind: "exit", ...contained.exitOf(code, signal) }),
      );
    });
    if (ended.kind !== "exit" || ended.code !== 0) return ended;
    const size = await stat(answerPath).then(
      (s) => s.size,
      () => undefined,
    );
    if (size === undefined) return ended;
    if (size > MAX_ANSWER_BYTES) return { kind: "too-big" };
    return { kind: "answer", text: await readFile(answerPath, "utf8") };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

const failed = (
  message: (ref: string) => string,
  hint: string,
): Extract<ModuleReport, { ok: false }> => ({
  ok: false,
  describe: (ref) => ({ message: message(ref), hint }),
});

function report(outcome: Outcome, abs: string, root: string, timeout: number): ModuleReport {
  switch (outcome.kind) {
    case "timeout":
      return failed(
        (ref) => `module \`${ref}\` did not finish loading within ${seconds(timeout)}`,
        "graphspec stopped it. A module should not wait for anything when it is imported (a server, a prompt, the network); if it is only slow, give it longer with `--load-timeout`",
      );
    case "exit":
      return failed(
        (ref) =>
          `module \`${ref}\` ${outcome.signal ? `was ended by ${outcome.signal}` : `exited with code ${outcome.code}`} before answering`,
        "something it runs when imported ends the process (`process.exit()`, a crash), so its exports cannot be checked",
      );
    case "spawn-error":
      return failed(
        (ref) =>
          `module \`${ref}\` could not be loaded: the process to load it did not start (${outcome.code})`,
        "check that the machine can start processes, or validate without `--load-modules`",
      );
    case "too-big":
      return failed(
        (ref) => `module \`${ref}\` answered with more than ${MAX_ANSWER_BYTES} bytes`,
        "something it runs when imported writes over graphspec's answer",
      );
    case "answer": {
      const answer = readAnswer(outcome.text);
      if (!answer)
        return failed(
          (ref) => `module \`${ref}\` gave an answer graphspec cannot read`,
          "something it runs when imported writes over graphspec's answer",
        );
      if (!answer.ok) return loadFailure(answer.error, abs, root);
      const { names, facts } = answer;
      return {
        ok: true,
        exports: { names, complete: true, facts: async (name) => facts.get(name) },
      };
    }
  }
}

/** Inspects modules by loading each in a separate, time-limited process without the validator's environment. */
export function isolatedInspector(options: IsolationOptions): ModuleInspector {
  return (abs, root, shared) =>
    shared(`graphspec:isolated:${abs}`, async () =>
      report(await limited(() => loadInChild(abs, root, options)), abs, root, options.timeout),
    );
}
