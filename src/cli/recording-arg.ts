/**
 * `--record FILE` and `--replay FILE` of `graphspec run` and `resume`: the run's provider
 * exchanges recorded into FILE, or answered from it offline (compile/models/recording.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { ProviderRecording } from "../compile/models/recording.js";
import { secretValues } from "../spec/secrets.js";
import { type Io, UsageError } from "./io.js";

export interface RecordingArg {
  recording: ProviderRecording;
  /** Writes the recording (after a recorded run); says on stderr what a replay missed. */
  finish(): void;
}

export function recordingArg(
  io: Io,
  record: string | undefined,
  replay: string | undefined,
  secrets: readonly string[],
  options: { reuse?: boolean } = {},
): RecordingArg | undefined {
  if (record !== undefined && replay !== undefined)
    throw new UsageError("--record and --replay cannot be given together");
  if (record !== undefined) {
    if (!record) throw new UsageError("--record needs a file");
    const recording = ProviderRecording.record([...secrets, ...secretValues(process.env)]);
    return {
      recording,
      finish: () => writeFileSync(resolve(io.cwd, record), recording.toFile()),
    };
  }
  if (replay === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(resolve(io.cwd, replay), "utf8");
  } catch (e) {
    throw new UsageError(`--replay: cannot read ${replay}: ${(e as Error).message}`);
  }
  let recording: ProviderRecording;
  try {
    recording = ProviderRecording.replay(
      text,
      replay,
      [...secrets, ...secretValues(process.env)],
      options,
    );
  } catch (e) {
    throw new UsageError(`--replay: ${(e as Error).message}`);
  }
  return {
    recording,
    finish: () => {
      for (const miss of recording.misses) io.err(miss);
    },
  };
}
