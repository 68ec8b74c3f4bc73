/** Output streams of a command, injectable so tests can run commands in-process. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Whether stdout is a terminal (colour, live progress). */
  isTty: boolean;
  cwd: string;
  /** Calls `handler` on the first Ctrl-C (SIGINT) until the returned function is called. */
  onInterrupt?(handler: () => void): () => void;
}

export const processIo = (): Io => {
  // `graphspec validate | head` closes stdout early: stop quietly instead of crashing on EPIPE.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e;
    process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
  });
  return {
    out: (t) => process.stdout.write(t.endsWith("\n") ? t : `${t}\n`),
    err: (t) => process.stderr.write(t.endsWith("\n") ? t : `${t}\n`),
    isTty: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
    cwd: process.cwd(),
    onInterrupt(handler) {
      process.once("SIGINT", handler);
      return () => process.off("SIGINT", handler);
    },
  };
};

/** Exit codes shared by every command. */
export const EXIT = { ok: 0, findings: 1, usage: 2 } as const;

export class UsageError extends Error {}
