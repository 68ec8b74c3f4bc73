/**
 * The `--load-modules` sandbox (src/modules/isolated/), attacked in-process through `validate()`
 * from the package entry, so that its code runs in the test process and StrykerJS can mutate it
 * (the `load-modules-sandbox` group; test/support/stryker-child.ts carries the mutant into the
 * loading process). What it refuses and bounds, each with the exact finding: a module that exits,
 * crashes, hangs, prints, forges or overfills its answer, reads the environment, replaces
 * `process.exit`, or leaves processes behind — in a PID namespace, and where namespaces are
 * refused (the environment-token sweep). The CLI's view of the same is in validate.test.ts and
 * load-modules-descendants.test.ts. docs/security.md says what it does not bound (files, network).
 */
import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { type Diagnostic, type LoadModulesOptions, readSpec } from "../../src/index.js";
import { STRYKER_VARIABLES } from "../support/stryker-child.js";
import { project, tempDir, toolSpec } from "./validate-project.js";

const summary = (ds: Diagnostic[]) => ds.map((d) => `${d.rule}: ${d.message}`);

/** A spec whose tool `ping` is `tools/t.mjs`'s export (`export:` when given), and the module's text. */
function toolProject(module: string, files: Record<string, string> = {}, exportName?: string) {
  const spec = toolSpec("./tools/t.mjs").replace(
    "module: ./tools/t.mjs,",
    `module: ./tools/t.mjs,${exportName ? ` export: ${JSON.stringify(exportName)},` : ""}`,
  );
  return project({ "tools/t.mjs": module, "uses.yaml": spec, ...files });
}

const EXPORTS_PING = "export function ping() { return 'pong'; }\n";

/** The loading process's answer file: the last argument of its command line. */
const FORGE = (answer: string) =>
  `import { writeFileSync } from "node:fs";\nwriteFileSync(process.argv.at(-1), ${answer});\nprocess.exit(0);\n`;

/**
 * The sandbox as loaded with `PATH` set to `path` from its first use (containment.ts chooses how to
 * contain once per module graph, with the PATH of then): a fresh copy of graphspec's modules.
 */
async function sandbox(path = process.env.PATH ?? "") {
  vi.resetModules();
  const { validateLoading } = await import("../support/stryker-child.js");
  return async (dir: string, load: LoadModulesOptions = {}): Promise<string[]> => {
    const saved = process.env.PATH;
    process.env.PATH = path;
    try {
      return summary(await validateLoading(await readSpec(join(dir, "uses.yaml")), load));
    } finally {
      process.env.PATH = saved;
    }
  };
}

/** A directory with an `unshare` that runs `script` (sh), put first on PATH. */
function pathWithUnshare(script: string): string {
  const bin = tempDir("graphspec-unshare-");
  writeFileSync(join(bin, "unshare"), `#!/bin/sh\n${script}\n`);
  chmodSync(join(bin, "unshare"), 0o755);
  return `${bin}:${process.env.PATH ?? ""}`;
}

/** Where user namespaces are refused: `unshare` fails as it does there. */
const NO_NAMESPACES = () =>
  pathWithUnshare('echo "unshare: unshare failed: Operation not permitted" >&2\nexit 1');

/** An `unshare` too old for `--map-current-user` (util-linux before 2.38), else the real one. */
const REAL_UNSHARE = ["/usr/bin/unshare", "/bin/unshare"].find((p) => existsSync(p));
const OLD_UNSHARE = () =>
  pathWithUnshare(
    `for a in "$@"; do [ "$a" = "--map-current-user" ] && { echo "unshare: unrecognized option '--map-current-user'" >&2; exit 1; }; done\nexec ${REAL_UNSHARE} "$@"`,
  );

/** Module code that writes what the loading process sees of itself to `seen.json` beside it. */
const RECORDS_ITSELF = `import { writeFileSync } from "node:fs";
writeFileSync(new URL("./seen.json", import.meta.url), JSON.stringify({
  env: process.env, cwd: process.cwd(), pid: process.pid, uid: process.getuid(), argv: process.argv,
}));
${EXPORTS_PING}`;

interface Seen {
  env: Record<string, string>;
  argv: string[];
  cwd: string;
  pid: number;
  uid: number;
}
const seen = (dir: string): Seen => {
  const s: Seen = JSON.parse(readFileSync(join(dir, "tools", "seen.json"), "utf8"));
  for (const name of STRYKER_VARIABLES) delete s.env[name];
  return s;
};

/** Pids of the processes whose command line names `marker`. */
function processesNaming(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").includes(marker)) found.push(Number(name));
    } catch {
      // Ended while we looked.
    }
  }
  return found;
}
const markers: string[] = [];
afterAll(() => {
  for (const m of markers)
    for (const pid of processesNaming(m))
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
});
/** Polls until no process names `marker`, for at most ~5 s (a guard, not a timing assertion). */
async function survivors(marker: string): Promise<number[]> {
  for (let i = 0; i < 100 && processesNaming(marker).length > 0; i++)
    await new Promise((r) => setTimeout(r, 50));
  return processesNaming(marker);
}

/**
 * The process a module leaves behind: writes its pid to the file named last, then waits forever.
 * Written aside and renamed, so the file never exists empty: the module waits for it to exist, and
 * a check that read it in between saw '' (seen once under load).
 */
const KEEP =
  "const fs = require('fs'), f = process.argv.at(-1); fs.writeFileSync(f + '.part', String(process.pid)); fs.renameSync(f + '.part', f); setInterval(() => {}, 1000);";
/** Module code: start `how` (which starts KEEP with `started`), wait until it has, then export `ping`. */
const leaves = (how: string, started: string) => `import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
const KEEP = ${JSON.stringify(KEEP)};
const started = ${JSON.stringify(started)};
${how}
for (let i = 0; i < 400 && !existsSync(started); i++) await new Promise((r) => setTimeout(r, 25));
${EXPORTS_PING}`;
const LEFT_BEHIND = {
  "a setsid grandchild": `spawn(process.execPath, ["-e", KEEP, started], { detached: true, stdio: "ignore" }).unref();`,
  "a double-fork daemon": `spawn(process.execPath, ["-e", "require('child_process').spawn(process.execPath, ['-e', process.argv[1], process.argv[2]], { detached: true, stdio: 'ignore' }).unref()", KEEP, started], { stdio: "ignore" });`,
  "a grandchild whose environment is the token alone (it leads the environ)": `spawn(process.execPath, ["-e", KEEP, started], { detached: true, stdio: "ignore", env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k === "GRAPHSPEC_LOAD_TOKEN")) }).unref();`,
};

afterEach(() => {
  vi.unstubAllEnvs();
});

describe.runIf(process.platform === "linux")("the loading process's end decides nothing", () => {
  it("a module that exits at import: the code, before answering", async () => {
    const validate = await sandbox();
    // Joined, so that a failure shows the findings' text (StrykerJS reports only the message).
    expect((await validate(toolProject("process.exit(0);\n"))).join("\n")).toBe(
      "unknown-module: module `./tools/t.mjs` exited with code 0 before answering",
    );
    expect((await validate(toolProject("process.exit(3);\n"))).join("\n")).toBe(
      "unknown-module: module `./tools/t.mjs` exited with code 3 before answering",
    );
  });

  for (const [where, path] of [
    ["in a PID namespace", undefined],
    ["where namespaces are refused", NO_NAMESPACES],
  ] as const)
    it(`${where}: a module that kills its own process is reported with the signal, not the shell's status`, async () => {
      const validate = await sandbox(path?.());
      expect(await validate(toolProject("process.kill(process.pid, 'SIGKILL');\n"))).toEqual([
        "unknown-module: module `./tools/t.mjs` was ended by SIGKILL before answering",
      ]);
      expect(await validate(toolProject("process.kill(process.pid, 'SIGTERM');\n"))).toEqual([
        "unknown-module: module `./tools/t.mjs` was ended by SIGTERM before answering",
      ]);
      // A status above 128 that is no signal's stays a code.
      expect(await validate(toolProject("process.exit(200);\n"))).toEqual([
        "unknown-module: module `./tools/t.mjs` exited with code 200 before answering",
      ]);
    });

  it("a module that never finishes: stopped at the limit, in seconds as given, and its process is gone", async () => {
    const validate = await sandbox();
    const dir = toolProject("setInterval(() => {}, 1000);\nawait new Promise(() => {});\n");
    markers.push(dir);
    expect(await validate(dir, { timeout: 1234 })).toEqual([
      "unknown-module: module `./tools/t.mjs` did not finish loading within 1.234 s",
    ]);
    expect(await survivors(dir)).toEqual([]);
  });

  it("once answered, nothing is left waiting for the limit (it would hold the caller's process open)", async () => {
    const validate = await sandbox();
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    // The count once the short timers of what came before have run (the same for 300 ms; at most
    // 10 s): a timer left for the 60 s limit is still there then.
    const settled = async () => {
      let last = timers();
      for (let same = 0, waited = 0; same < 6 && waited < 10_000; waited += 50) {
        await new Promise((r) => setTimeout(r, 50));
        const now = timers();
        same = now === last ? same + 1 : 0;
        last = now;
      }
      return last;
    };
    // Counted after a first validation: what loading graphspec's modules starts is not the point.
    expect(await validate(toolProject(EXPORTS_PING))).toEqual([]);
    const before = await settled();
    expect(await validate(toolProject(EXPORTS_PING), { timeout: 60_000 })).toEqual([]);
    expect(await settled()).toBe(before);
  });

  it("a module that replaces process.exit and keeps the event loop busy: answered all the same", async () => {
    const validate = await sandbox();
    const dir = toolProject(
      `process.exit = () => {};\nsetInterval(() => {}, 1000);\n${EXPORTS_PING}`,
    );
    expect(await validate(dir, { timeout: 8000 })).toEqual([]);
  });

  it("a module that prints megabytes, then exports its tool: it is read, its output goes nowhere", async () => {
    const validate = await sandbox();
    const dir = toolProject(
      `process.stdout.write("x".repeat(4 << 20));\nprocess.stderr.write("y".repeat(4 << 20));\nexport class Ping {}\n`,
      {},
      "Ping",
    );
    expect(await validate(dir)).toEqual([
      "unknown-export: export `Ping` of `./tools/t.mjs` is a class, not a tool",
    ]);
  });
});

describe.runIf(process.platform === "linux")("what a module throws at import", () => {
  it("an Error: its name and first line", async () => {
    const validate = await sandbox();
    expect(await validate(toolProject('throw new TypeError("bad tool\\nsecond line");\n'))).toEqual(
      ["unknown-module: module `./tools/t.mjs` failed to load: TypeError: bad tool"],
    );
  });

  it("a string, null, or an object whose name and message are not text: the text there is", async () => {
    const validate = await sandbox();
    expect(await validate(toolProject('throw "plain words";\n'))).toEqual([
      "unknown-module: module `./tools/t.mjs` failed to load: plain words",
    ]);
    expect(await validate(toolProject("throw null;\n"))).toEqual([
      "unknown-module: module `./tools/t.mjs` failed to load: null",
    ]);
    expect(await validate(toolProject("throw { name: 42, message: 7 };\n"))).toEqual([
      "unknown-module: module `./tools/t.mjs` failed to load: 42: [object Object]",
    ]);
  });
});

describe.runIf(process.platform === "linux")(
  "what a module exports, as the loading process describes it",
  () => {
    it("an export named __proto__ is described like any other", async () => {
      const validate = await sandbox();
      const dir = toolProject('class Ping {}\nexport { Ping as "__proto__" };\n', {}, "__proto__");
      expect(await validate(dir)).toEqual([
        "unknown-export: export `__proto__` of `./tools/t.mjs` is a class, not a tool",
      ]);
    });

    it("an export the module does not have: named as missing (its list of names is complete)", async () => {
      const validate = await sandbox();
      expect(await validate(toolProject(EXPORTS_PING, {}, "pong"))).toEqual([
        "unknown-export: module `./tools/t.mjs` has no export `pong`",
      ]);
    });

    it("a tool whose argument schema refers to itself: described without the schema, not a crash", async () => {
      const validate = await sandbox();
      const module = `const schema = { type: "object", properties: {} };
schema.properties.again = schema;
export const ping = { name: "ping", description: "Ping.", schema, invoke: async () => "pong" };
`;
      expect(await validate(toolProject(module))).toEqual([]);
    });
  },
);

describe.runIf(process.platform === "linux")("an answer the module writes itself", () => {
  it("text that is no answer", async () => {
    const validate = await sandbox();
    expect(await validate(toolProject(FORGE('"not an answer"')))).toEqual([
      "unknown-module: module `./tools/t.mjs` gave an answer graphspec cannot read",
    ]);
  });

  it("more than 16 MiB: not read", async () => {
    const validate = await sandbox();
    expect(await validate(toolProject(FORGE('" ".repeat(16 * 1024 * 1024 + 1)')))).toEqual([
      "unknown-module: module `./tools/t.mjs` answered with more than 16777216 bytes",
    ]);
  });

  it("exactly 16 MiB: read, and its facts are the answer", async () => {
    const validate = await sandbox();
    const answer = JSON.stringify({
      ok: true,
      names: ["ping"],
      facts: { ping: { kind: "class", className: "Forged" } },
    });
    const dir = toolProject(FORGE(`${JSON.stringify(answer)}.padEnd(16 * 1024 * 1024, " ")`));
    expect(await validate(dir)).toEqual([
      "unknown-export: export `ping` of `./tools/t.mjs` is a class, not a tool",
    ]);
  });

  it("a good answer, then an exit code: the code, not the answer", async () => {
    const validate = await sandbox();
    const answer = JSON.stringify({
      ok: true,
      names: ["ping"],
      facts: { ping: { kind: "function" } },
    });
    const module = FORGE(JSON.stringify(answer)).replace("process.exit(0)", "process.exit(3)");
    expect(await validate(toolProject(module))).toEqual([
      "unknown-module: module `./tools/t.mjs` exited with code 3 before answering",
    ]);
  });

  it("a forged failure: reported as the module's failure", async () => {
    const validate = await sandbox();
    const answer = JSON.stringify({
      ok: false,
      error: { name: "Forged", message: "by the module" },
    });
    expect(await validate(toolProject(FORGE(JSON.stringify(answer))))).toEqual([
      "unknown-module: module `./tools/t.mjs` failed to load: Forged: by the module",
    ]);
  });
});

describe.runIf(process.platform === "linux")(
  "the loading process's environment, directory and user",
  () => {
    it("in a PID namespace: PATH only, no PWD, the project's directory, the same user, pid 2", async () => {
      vi.stubEnv("SystemRoot", "C:\\Windows");
      vi.stubEnv("GRAPHSPEC_TEST_SECRET", "gs-secret");
      const validate = await sandbox();
      const dir = toolProject(RECORDS_ITSELF);
      expect(await validate(dir)).toEqual([]);
      const s = seen(dir);
      expect(Object.keys(s.env)).toEqual(["PATH"]);
      expect(s.env.PATH).toBe(process.env.PATH);
      expect(s.cwd).toBe(realpathSync(dir));
      expect(s.uid).toBe(process.getuid?.());
      // The namespace's first process is sh; the loader is its child.
      expect(s.pid).toBe(2);
    });

    it("and what the caller names, PWD too", async () => {
      const validate = await sandbox();
      const dir = toolProject(RECORDS_ITSELF);
      expect(await validate(dir, { env: { OTHER: "passed", PWD: realpathSync(dir) } })).toEqual([]);
      const s = seen(dir);
      expect(Object.keys(s.env).sort()).toEqual(["OTHER", "PATH", "PWD"]);
      expect(s.env.OTHER).toBe("passed");
      expect(s.env.PWD).toBe(realpathSync(dir));
    });

    it.runIf(REAL_UNSHARE)(
      "with an unshare that has no --map-current-user: still a namespace, the user unmapped",
      async () => {
        const validate = await sandbox(OLD_UNSHARE());
        const dir = toolProject(RECORDS_ITSELF);
        expect(await validate(dir)).toEqual([]);
        const s = seen(dir);
        expect(Object.keys(s.env)).toEqual(["PATH"]);
        expect(s.pid).toBe(2);
        expect(s.uid).toBe(65534);
      },
    );

    it("where namespaces are refused: PATH and a random token, its own pid", async () => {
      const validate = await sandbox(NO_NAMESPACES());
      const dir = toolProject(RECORDS_ITSELF);
      expect(await validate(dir)).toEqual([]);
      const s = seen(dir);
      expect(Object.keys(s.env).sort()).toEqual(["GRAPHSPEC_LOAD_TOKEN", "PATH"]);
      expect(s.env.GRAPHSPEC_LOAD_TOKEN).toMatch(/^[0-9a-f]{32}$/);
      expect(s.pid).toBeGreaterThan(2);
    });

    it("its answer goes to a temporary directory of its own, named as graphspec's, which is removed", async () => {
      const tmp = tempDir("graphspec-tmpdir-");
      const dir = toolProject(RECORDS_ITSELF);
      vi.stubEnv("TMPDIR", tmp);
      const validate = await sandbox();
      expect(await validate(dir)).toEqual([]);
      // The answer file is the last argument (FORGE writes there).
      expect(seen(dir).argv.at(-1)).toMatch(
        new RegExp(
          `^${tmp.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/graphspec-load-\\w{6}/answer\\.json$`,
        ),
      );
      expect(readdirSync(tmp)).toEqual([]);
    });

    it("a module that removes that directory: a finding, not a thrown error", async () => {
      const validate = await sandbox();
      const module = `import { rmSync } from "node:fs";
import { dirname } from "node:path";
rmSync(dirname(process.argv.at(-1)), { recursive: true, force: true });
${EXPORTS_PING}`;
      expect(await validate(toolProject(module))).toEqual([
        "unknown-module: module `./tools/t.mjs` exited with code 1 before answering",
      ]);
    });
  },
);

describe.runIf(process.platform === "linux")(
  "what a module starts ends when validate returns",
  () => {
    for (const [where, path] of [
      ["in a PID namespace", undefined],
      ["where namespaces are refused", NO_NAMESPACES],
    ] as const)
      for (const [way, how] of Object.entries(LEFT_BEHIND))
        it(`${where}: ${way}`, async () => {
          const validate = await sandbox(path?.());
          const started = join(tempDir("graphspec-started-"), "started.pid");
          markers.push(started);
          expect(await validate(toolProject(leaves(how, started)))).toEqual([]);
          // It did start (so the check below can fail), and it is gone.
          expect(readFileSync(started, "utf8")).toMatch(/^\d+$/);
          expect(await survivors(started)).toEqual([]);
        });

    // What carries no token goes with a group whose leader does: a child left in the loader's group
    // after the loader exited, and one in a setsid child's group.
    for (const [where, path] of [
      ["in a PID namespace", undefined],
      ["where namespaces are refused", NO_NAMESPACES],
    ] as const)
      it(`${where}: processes started with an empty environment, in the loader's group and in a setsid child's`, async () => {
        const validate = await sandbox(path?.());
        const pids = tempDir("graphspec-started-");
        const inLoaderGroup = join(pids, "in-loader-group.pid");
        const inSetsidGroup = join(pids, "in-setsid-group.pid");
        markers.push(inLoaderGroup, inSetsidGroup);
        const setsidChild = `require('child_process').spawn(process.execPath, ['-e', process.argv[1], process.argv[2]], { env: {}, stdio: 'ignore' }); setInterval(() => {}, 1000);`;
        const how = `spawn(process.execPath, ["-e", KEEP, ${JSON.stringify(inLoaderGroup)}], { env: {}, stdio: "ignore" }).unref();
spawn(process.execPath, ["-e", ${JSON.stringify(setsidChild)}, KEEP, started], { detached: true, stdio: "ignore" }).unref();
for (let i = 0; i < 400 && !existsSync(${JSON.stringify(inLoaderGroup)}); i++) await new Promise((r) => setTimeout(r, 25));`;
        expect(await validate(toolProject(leaves(how, inSetsidGroup)))).toEqual([]);
        expect(readFileSync(inLoaderGroup, "utf8")).toMatch(/^\d+$/);
        expect(readFileSync(inSetsidGroup, "utf8")).toMatch(/^\d+$/);
        expect(await survivors(inLoaderGroup)).toEqual([]);
        expect(await survivors(inSetsidGroup)).toEqual([]);
      });

    it("where namespaces are refused: a module that never finishes, and what it started, are gone at the limit", async () => {
      const validate = await sandbox(NO_NAMESPACES());
      const started = join(tempDir("graphspec-started-"), "started.pid");
      markers.push(started);
      const dir = toolProject(
        leaves(LEFT_BEHIND["a setsid grandchild"], started).replace(
          EXPORTS_PING,
          "setInterval(() => {}, 1000);\nawait new Promise(() => {});\n",
        ),
      );
      markers.push(dir);
      expect(await validate(dir, { timeout: 3000 })).toEqual([
        "unknown-module: module `./tools/t.mjs` did not finish loading within 3 s",
      ]);
      expect(await survivors(started)).toEqual([]);
      expect(await survivors(dir)).toEqual([]);
    });
  },
);

describe.runIf(process.platform === "linux")("loading processes at once", () => {
  const LIMIT = Math.max(1, Math.min(4, availableParallelism()));

  it(`at most the number of CPUs, and at most 4 (here ${LIMIT}); the others wait their turn`, async () => {
    const validate = await sandbox();
    const n = 2 * LIMIT;
    // Each module marks itself running, waits (up to 20 s, a guard) until LIMIT are, watches a
    // little longer for more, and writes the most it saw.
    const module = (
      i: number,
    ) => `import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
const running = new URL("../running/", import.meta.url);
mkdirSync(running, { recursive: true });
writeFileSync(new URL("${i}", running), "");
let most = 0;
for (let t = 0; t < 800; t++) {
  most = Math.max(most, readdirSync(running).length);
  if (most >= ${LIMIT} && t >= 20) break;
  await new Promise((r) => setTimeout(r, 25));
}
rmSync(new URL("${i}", running));
writeFileSync(new URL("../seen-${i}", import.meta.url), String(most));
export function ping${i}() { return "pong"; }
`;
    const tools = Array.from({ length: n }, (_, i) => i);
    const files: Record<string, string> = {};
    for (const i of tools) files[`tools/t${i}.mjs`] = module(i);
    const spec = `version: 1
name: many-tools
state:
  reply: { type: string }
tools:
${tools.map((i) => `  ping${i}: { module: ./tools/t${i}.mjs, description: Ping., schema: { type: object } }`).join("\n")}
nodes:
${tools.map((i) => `  call${i}: { kind: tool, tool: ping${i}, write: reply }`).join("\n")}
edges:
  - { from: START, to: call0 }
${tools
  .slice(1)
  .map((i) => `  - { from: call${i - 1}, to: call${i} }`)
  .join("\n")}
  - { from: call${n - 1}, to: END }
`;
    const dir = project({ ...files, "uses.yaml": spec });
    expect(await validate(dir, { timeout: 60_000 })).toEqual([]);
    const seenAtOnce = tools.map((i) => Number(readFileSync(join(dir, `seen-${i}`), "utf8")));
    expect(Math.max(...seenAtOnce)).toBe(LIMIT);
  });
});

describe.runIf(process.platform === "linux" && REAL_UNSHARE)(
  "a loading process that cannot start",
  () => {
    it("is reported with the reason, not thrown", async () => {
      // An unshare that works when graphspec looks for one, and is gone when it is used.
      // PATH holds it alone: what runs in the namespace is named by absolute path.
      const bin = pathWithUnshare(`exec ${REAL_UNSHARE} "$@"`).split(":")[0] ?? "";
      const validate = await sandbox(bin);
      expect(await validate(toolProject(EXPORTS_PING))).toEqual([]);
      rmSync(join(bin, "unshare"));
      expect(await validate(toolProject(EXPORTS_PING))).toEqual([
        "unknown-module: module `./tools/t.mjs` could not be loaded: the process to load it did not start (ENOENT)",
      ]);
    });
  },
);

/**
 * The other platforms' branches, run here with `process.platform` set for the test: what
 * graphspec's own code does there (which containment, which environment, what it kills), not what
 * those systems do. docs/security.md says what holds on each.
 */
describe.runIf(process.platform === "linux")(
  "where the platform is not Linux (process.platform set for the test)",
  () => {
    const real = process.platform;
    afterEach(() => {
      Object.defineProperty(process, "platform", { value: real });
    });
    const pretend = (platform: NodeJS.Platform) =>
      Object.defineProperty(process, "platform", { value: platform });

    it("macOS and others: no namespace, no token; the loader's process group is killed, and a setsid grandchild is not", async () => {
      pretend("darwin");
      const validate = await sandbox();
      const inGroup = join(tempDir("graphspec-started-"), "in-group.pid");
      const leftGroup = join(tempDir("graphspec-started-"), "left-group.pid");
      markers.push(inGroup, leftGroup);
      const how = `spawn(process.execPath, ["-e", KEEP, ${JSON.stringify(inGroup)}], { stdio: "ignore" }).unref();
spawn(process.execPath, ["-e", KEEP, started], { detached: true, stdio: "ignore" }).unref();
for (let i = 0; i < 400 && !existsSync(${JSON.stringify(inGroup)}); i++) await new Promise((r) => setTimeout(r, 25));`;
      const dir = toolProject(leaves(how, leftGroup).replace(EXPORTS_PING, RECORDS_ITSELF));
      expect(await validate(dir)).toEqual([]);
      const s = seen(dir);
      expect(Object.keys(s.env)).toEqual(["PATH"]);
      expect(s.pid).toBeGreaterThan(2);
      expect(await survivors(inGroup)).toEqual([]);
      // What left the group is out of reach there (docs/security.md): it is still running.
      expect(processesNaming(leftGroup)).toHaveLength(1);
    });

    it("Windows: SystemRoot is passed on, and at the limit the loading process itself is ended", async () => {
      pretend("win32");
      vi.stubEnv("SystemRoot", "C:\\Windows");
      const validate = await sandbox();
      const dir = toolProject(RECORDS_ITSELF);
      expect(await validate(dir)).toEqual([]);
      expect(Object.keys(seen(dir).env).sort()).toEqual(["PATH", "SystemRoot"]);
      const hangs = toolProject("setInterval(() => {}, 1000);\nawait new Promise(() => {});\n");
      markers.push(hangs);
      expect(await validate(hangs, { timeout: 1500 })).toEqual([
        "unknown-module: module `./tools/t.mjs` did not finish loading within 1.5 s",
      ]);
      expect(await survivors(hangs)).toEqual([]);
    });
  },
);

/** `validate` as sandbox() gives it, with each finding's hint beside its message. */
async function sandboxWithHints(path = process.env.PATH ?? "") {
  vi.resetModules();
  const { validateLoading } = await import("../support/stryker-child.js");
  return async (dir: string, load: LoadModulesOptions = {}) => {
    const saved = process.env.PATH;
    process.env.PATH = path;
    try {
      const found = await validateLoading(await readSpec(join(dir, "uses.yaml")), load);
      return found.map((d) => [d.message, d.hint]);
    } finally {
      process.env.PATH = saved;
    }
  };
}

describe.runIf(process.platform === "linux")("each refusal's hint says what to do", () => {
  const WRITES_OVER = "something it runs when imported writes over graphspec's answer";

  it("did not finish, exited, wrote over the answer, overfilled it", async () => {
    const validate = await sandboxWithHints();
    const hangs = toolProject("setInterval(() => {}, 1000);\nawait new Promise(() => {});\n");
    markers.push(hangs);
    expect(await validate(hangs, { timeout: 1000 })).toEqual([
      [
        "module `./tools/t.mjs` did not finish loading within 1 s",
        "graphspec stopped it. A module should not wait for anything when it is imported (a server, a prompt, the network); if it is only slow, give it longer with `--load-timeout`",
      ],
    ]);
    expect(await validate(toolProject("process.exit(4);\n"))).toEqual([
      [
        "module `./tools/t.mjs` exited with code 4 before answering",
        "something it runs when imported ends the process (`process.exit()`, a crash), so its exports cannot be checked",
      ],
    ]);
    expect(await validate(toolProject(FORGE('"{"')))).toEqual([
      ["module `./tools/t.mjs` gave an answer graphspec cannot read", WRITES_OVER],
    ]);
    expect(await validate(toolProject(FORGE('" ".repeat(16 * 1024 * 1024 + 1)')))).toEqual([
      ["module `./tools/t.mjs` answered with more than 16777216 bytes", WRITES_OVER],
    ]);
  });

  it.runIf(REAL_UNSHARE)("could not start", async () => {
    const bin = pathWithUnshare(`exec ${REAL_UNSHARE} "$@"`).split(":")[0] ?? "";
    const validate = await sandboxWithHints(bin);
    expect(await validate(toolProject(EXPORTS_PING))).toEqual([]);
    rmSync(join(bin, "unshare"));
    expect(await validate(toolProject(EXPORTS_PING))).toEqual([
      [
        "module `./tools/t.mjs` could not be loaded: the process to load it did not start (ENOENT)",
        "check that the machine can start processes, or validate without `--load-modules`",
      ],
    ]);
  });
});

describe.runIf(process.platform === "linux")("more ways out", () => {
  it("no unshare on PATH at all: the token sweep, not a failure", async () => {
    const validate = await sandbox(tempDir("graphspec-empty-path-"));
    const dir = toolProject(RECORDS_ITSELF);
    expect(await validate(dir)).toEqual([]);
    expect(Object.keys(seen(dir).env).sort()).toEqual(["GRAPHSPEC_LOAD_TOKEN", "PATH"]);
  });

  // The classic daemon: the first child calls setsid() (detached), forks the daemon into its own
  // new group, and exits: the daemon leads no group, and its group's leader is gone.
  const CLASSIC_DOUBLE_FORK = `spawn(process.execPath, ["-e", "require('child_process').spawn(process.execPath, ['-e', process.argv[1], process.argv[2]], { stdio: 'ignore' }).unref()", KEEP, started], { detached: true, stdio: "ignore" }).unref();`;
  for (const [where, path] of [
    ["in a PID namespace", undefined],
    ["where namespaces are refused", NO_NAMESPACES],
  ] as const)
    it(`${where}: a classic double-fork daemon (setsid, fork, the parent exits)`, async () => {
      const validate = await sandbox(path?.());
      const started = join(tempDir("graphspec-started-"), "started.pid");
      markers.push(started);
      expect(await validate(toolProject(leaves(CLASSIC_DOUBLE_FORK, started)))).toEqual([]);
      expect(readFileSync(started, "utf8")).toMatch(/^\d+$/);
      expect(await survivors(started)).toEqual([]);
    });
});

describe.runIf(process.platform === "linux")("what the loading process says of a module", () => {
  it("an error whose toString says otherwise: its message is what is shown", async () => {
    const validate = await sandbox();
    const module =
      'const e = new Error("the real message");\ne.toString = () => "a forged text";\nthrow e;\n';
    expect(await validate(toolProject(module))).toEqual([
      "unknown-module: module `./tools/t.mjs` failed to load: the real message",
    ]);
  });

  it("a tool whose argument schema refers to itself, where a function node expects a function: still a tool", async () => {
    const validate = await sandbox();
    const dir = project({
      "tools/t.mjs": `const schema = { type: "object", properties: {} };
schema.properties.again = schema;
export const ping = { name: "ping", description: "Ping.", schema, invoke: async () => "pong" };
`,
      "uses.yaml": `version: 1
name: uses-function
state:
  reply: { type: string }
nodes:
  call: { kind: function, module: ./tools/t.mjs, export: ping }
edges:
  - { from: START, to: call }
  - { from: call, to: END }
`,
    });
    expect(await validate(dir)).toEqual([
      "unknown-export: export `ping` of `./tools/t.mjs` is a LangChain tool, not a function",
    ]);
  });
});
