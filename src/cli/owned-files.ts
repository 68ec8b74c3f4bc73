/**
 * Files a command writes into a folder and may write again: a record beside them (`.graphspec-export.json`)
 * keeps the SHA-256 of what was written, so a file is replaced only when it is still exactly what
 * was written (running the command again is idempotent), and a file someone else wrote or edited
 * is left alone unless forced.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const RECORD = ".graphspec-export.json";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}

async function writtenBefore(dir: string): Promise<Record<string, string>> {
  const text = await readText(join(dir, RECORD));
  if (text === undefined) return {};
  try {
    const files = (JSON.parse(text) as { files?: unknown }).files;
    return typeof files === "object" && files !== null ? (files as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export interface WritePlan {
  /** Files that exist and were not written by this command (or were edited since). */
  foreign: string[];
  /** Writes the files (and the record); only call when `foreign` is empty or forced. */
  write(): Promise<void>;
}

/** Plans writing `files` (name → text) into `dir`; `optional` ones that are foreign are skipped. */
export async function planWrites(
  dir: string,
  files: ReadonlyMap<string, string>,
  optional: ReadonlySet<string> = new Set(),
): Promise<WritePlan & { skipped: string[] }> {
  const before = await writtenBefore(dir);
  const foreign: string[] = [];
  const skipped: string[] = [];
  for (const name of files.keys()) {
    const now = await readText(join(dir, name));
    if (now === undefined || before[name] === sha256(now)) continue;
    (optional.has(name) ? skipped : foreign).push(name);
  }
  const recordText = await readText(join(dir, RECORD));
  if (recordText !== undefined && !isRecord(recordText)) foreign.push(RECORD);
  return {
    foreign,
    skipped,
    async write() {
      await mkdir(dir, { recursive: true });
      const record: Record<string, string> = {};
      for (const [name, text] of files) {
        if (skipped.includes(name)) continue;
        // Whole or not at all: a server reading the folder never sees half a file.
        const tmp = join(dir, `.${name}.${process.pid}.tmp`);
        await writeFile(tmp, text);
        await rename(tmp, join(dir, name));
        record[name] = sha256(text);
      }
      const body = { written_by: "graphspec export", files: record };
      await writeFile(join(dir, RECORD), `${JSON.stringify(body, null, 2)}\n`);
    },
  };
}

const isRecord = (text: string): boolean => {
  try {
    return (JSON.parse(text) as { written_by?: unknown }).written_by === "graphspec export";
  } catch {
    return false;
  }
};
