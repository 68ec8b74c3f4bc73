/**
 * `graphspec serve` takes the executor's size limits as `graphspec run` does (`--max-input-bytes`,
 * `--max-state-bytes`, …): before, a server could only keep the defaults. The built CLI, with the
 * official SDK's Client; the same requests to a server without the flags pass, so the flags are
 * what refuse them.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "bin", "graphspec.js");
const GRAPHS = join(ROOT, "test", "fixtures", "server", "graphs");

let dir: string;
const started: ChildProcess[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "graphspec-serve-sizes-"));
});
afterAll(() => {
  for (const p of started) p.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** `graphspec serve` with `flags`; its URL once it prints it. */
async function serve(...flags: string[]): Promise<string> {
  const proc = spawn(
    process.execPath,
    [BIN, "serve", GRAPHS, "--no-auth", "--port", "0", "--host", "127.0.0.1"].concat(
      ["--checkpointer", "memory"],
      flags,
    ),
    { cwd: dir, stdio: ["ignore", "pipe", "pipe"] },
  );
  started.push(proc);
  let out = "";
  let err = "";
  proc.stderr!.on("data", (d) => {
    err += d;
  });
  return new Promise<string>((resolve, reject) => {
    proc.stdout!.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(out.split("\n")[0]!);
    });
    proc.once("exit", (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

/** An input of about `bytes` bytes as JSON, for the three-steps graph. */
const inputOf = (bytes: number) => ({ path: ["x".repeat(bytes)] });

describe("graphspec serve --max-input-bytes / --max-state-bytes", () => {
  let bounded: Client;
  let plain: Client;
  beforeAll(async () => {
    bounded = new Client({
      apiUrl: await serve("--max-input-bytes", "8KiB", "--max-state-bytes", "4KiB"),
    });
    plain = new Client({ apiUrl: await serve() });
  });

  it("an input over --max-input-bytes is refused: 413 input-too-large", async () => {
    await expect(
      plain.runs.wait(null, "three-steps", { input: inputOf(10_000) }),
    ).resolves.toBeTruthy();
    await expect(
      bounded.runs.wait(null, "three-steps", { input: inputOf(10_000) }),
    ).rejects.toThrow(/input-too-large/);
  });

  it("a state over --max-state-bytes stops the run: state-too-large", async () => {
    const ok = await plain.runs.wait(null, "three-steps", { input: inputOf(6_000) });
    expect(JSON.stringify(ok)).not.toContain("state-too-large");
    await expect(bounded.runs.wait(null, "three-steps", { input: inputOf(6_000) })).rejects.toThrow(
      /state-too-large/,
    );
  });

  it("a size that is not one is a usage error naming the flag", async () => {
    await expect(serve("--max-state-bytes", "lots")).rejects.toThrow(/--max-state-bytes/);
  });
});
