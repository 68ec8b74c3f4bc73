/**
 * `graphspec migrate`'s engine: the steps `from → to`, one file each, applied in turn to a spec's
 * text until it is at the current version. The file is parsed with the `yaml` library (JSON too:
 * JSON is YAML), keeping its source tokens, and written back from them (migration.ts).
 */
import { Composer, CST, isScalar, Parser } from "yaml";
import { CATALOG_KEYS } from "../catalog.js";
import { LOAD_LIMITS } from "../load.js";
import { flowDepthExceeded } from "../nesting.js";
import { MigrationError, SpecEdit } from "./migration.js";
import { v0ToV1 } from "./v0-to-v1.js";

export { MigrationError } from "./migration.js";

/** The spec version this graphspec reads. */
export const CURRENT_VERSION = 1;

/** Every step, oldest first; each `to` is the next one's `from`, the last's is CURRENT_VERSION. */
export const MIGRATIONS = [v0ToV1] as const;

export interface MigrateResult {
  /** The version the text had; null for a catalog (tools and models only), which has none. */
  from: number | null;
  to: number | null;
  /** The migrated text; the very input when there was nothing to do. */
  text: string;
  changed: boolean;
  /** What each step applied changed. */
  steps: string[];
}

/** A spec version this graphspec can migrate from (or read). */
export const knownVersion = (v: unknown): v is number =>
  v === CURRENT_VERSION || MIGRATIONS.some((m) => m.from === v);

/**
 * Migrates one spec's text to CURRENT_VERSION. Throws `MigrationError` (with the offset of what is
 * wrong) for text that does not parse, has no usable `version`, or a version this graphspec does
 * not know; the caller then leaves the file alone.
 */
export function migrateSpecText(text: string): MigrateResult {
  // The loader's limits (load.ts): hostile text gets the same clear refusal, never a crash.
  if (text.length > LOAD_LIMITS.maxBytes)
    throw new MigrationError(
      `the file is ${text.length} characters; a spec may have at most ${LOAD_LIMITS.maxBytes}`,
    );
  const deep = flowDepthExceeded(text, LOAD_LIMITS.maxFlowDepth);
  if (deep !== undefined)
    throw new MigrationError(
      `brackets nest more than ${LOAD_LIMITS.maxFlowDepth} deep: this is no spec`,
      deep,
    );
  const tokens = [...new Parser().parse(text)];
  const docs = [...new Composer({ keepSourceTokens: true }).compose(tokens)];
  if (docs.length !== 1)
    throw new MigrationError(
      docs.length ? "a spec is one YAML document, this file holds several" : "the file is empty",
    );
  const doc = docs[0]!;
  const error = doc.errors[0];
  if (error) throw new MigrationError(`does not parse: ${firstLine(error.message)}`, error.pos[0]);
  const edit = new SpecEdit(doc);
  const versionPair = edit.pair(edit.root, "version");
  const versionNode = versionPair?.value;
  // A catalog has no version of its own: the specs that name it have.
  const keys = edit.root.items.map((p) => (isScalar(p.key) ? p.key.value : undefined));
  if (!versionPair && keys.length && keys.every((k) => CATALOG_KEYS.has(k as string)))
    return { from: null, to: null, text, changed: false, steps: [] };
  if (!versionPair || !isScalar(versionNode))
    throw new MigrationError(
      "has no `version`: write the version the file was made for (`version: 1` is current)",
    );
  const from = versionNode.value;
  if (typeof from !== "number" || !Number.isInteger(from))
    throw new MigrationError(
      `\`version\` is ${JSON.stringify(from)}, not a whole number`,
      versionNode.range?.[0],
    );
  if (from > CURRENT_VERSION)
    throw new MigrationError(
      `version ${from} is newer than this graphspec knows (${CURRENT_VERSION}): upgrade graphspec to read it`,
      versionNode.range?.[0],
    );
  const steps: string[] = [];
  for (let v = from; v < CURRENT_VERSION; ) {
    const step = MIGRATIONS.find((m) => m.from === v);
    if (!step)
      throw new MigrationError(
        `version ${v} is older than any graphspec knows a way from (oldest: ${MIGRATIONS[0]?.from ?? CURRENT_VERSION})`,
        versionNode.range?.[0],
      );
    step.apply(edit);
    edit.setScalar(versionNode, step.to);
    steps.push(`${step.from} → ${step.to}: ${step.summary}`);
    v = step.to;
  }
  if (!steps.length) return { from, to: from, text, changed: false, steps };
  return {
    from,
    to: CURRENT_VERSION,
    text: tokens.map((t) => CST.stringify(t)).join(""),
    changed: true,
    steps,
  };
}

/** Line and column (1-based) of an offset in `text`. */
export function positionOf(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length, col: offset - lineStart + 1 };
}

const firstLine = (message: string) => message.split("\n")[0]!;
