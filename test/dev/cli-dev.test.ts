/** `graphspec dev` as a process (dist/, after `npm run build`): the URL line, reloads, refusals, SIGTERM. */
import { type ChildProcess, spawn } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, markingSpec, project, until } from "./project.js";

const p = project("cli-dev");
let child: ChildProcess | undefined;
afterAll(() => {
  child?.kill("SIGKILL");
  p.remove();
});

describe("graphspec dev", () => {
  it("prints its URL when ready, reloads a fixed spec, refuses a broken one with validate's diagnostics, stops on SIGTERM", async () => {
    p.write("graphs/slow.mjs", "export default () => ({ marks: ['slow'] });\n");
    p.write("graphs/marking.yaml", markingSpec("v1"));
    child = spawn(process.execPath, [BIN, "dev", "--port", "0"], { cwd: p.root });
    let out = "";
    let err = "";
    child.stdout?.on("data", (b) => {
      out += b;
    });
    child.stderr?.on("data", (b) => {
      err += b;
    });
    const exited = new Promise<number | null>((r) => child?.once("exit", (code) => r(code)));
    await until(() => /http:\/\/127\.0\.0\.1:\d+/.test(out));
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out)![0];
    // Its URL, then LangGraph Studio's link to it, as the official dev server prints it.
    await until(() => out.split("\n").length === 3);
    expect(out).toBe(
      `${url}\nLangGraph Studio: https://smith.langchain.com/studio?baseUrl=${url}\n`,
    );
    expect(await (await fetch(`${url}/ok`)).json()).toEqual({ ok: true });

    p.write("graphs/marking.yaml", markingSpec("v2", "lats"));
    await until(() => err.includes("refused graphs/marking.yaml"));
    expect(err).toContain("graphs/marking.yaml:13:23: error: unknown node `lats` [unknown-node]");
    expect(err).toContain("13 |   - { from: last, to: lats }");
    expect(err).toContain("refused graphs/marking.yaml: version 1 keeps serving");

    p.write("graphs/marking.yaml", markingSpec("v3"));
    await until(() => /reloaded graphs\/marking\.yaml \(version 2, \d+ ms\)/.test(err));

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 90_000);

  it("stops on SIGTERM at once with a page's event stream open: the stream ends, the grace is not waited out", async () => {
    p.write("graphs/marking.yaml", markingSpec("v1"));
    // A grace longer than the test's own timeout: waiting it out fails the test.
    const dev = spawn(process.execPath, [BIN, "dev", "--port", "0", "--grace", "120000"], {
      cwd: p.root,
    });
    child = dev;
    let out = "";
    dev.stdout?.on("data", (b) => {
      out += b;
    });
    const exited = new Promise<number | null>((r) => dev.once("exit", (code) => r(code)));
    await until(() => /http:\/\/127\.0\.0\.1:\d+/.test(out));
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out)![0];
    const res = await fetch(`${url}/ui/events`);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("event: hello");
    dev.kill("SIGTERM");
    // The page's stream is ended by the stop (a page reconnects, and is told the server is gone).
    for (let r = await reader.read(); !r.done; r = await reader.read());
    expect(await exited).toBe(0);
  }, 60_000);
});
