/** Spec documents for compile tests, parsed as if they were files in test/fixtures/compile/core/. */
import { join } from "node:path";
import type { SpecDocument } from "../../src/spec/document.js";
import { parseSpec } from "../../src/spec/load.js";

const DIR = join(process.cwd(), "test", "fixtures", "compile", "core");

/** A spec from text; module paths resolve from test/fixtures/compile/core/. */
export function specDoc(text: string, name = "t.yaml"): SpecDocument {
  return parseSpec(
    text,
    { file: `test/fixtures/compile/core/${name}`, root: process.cwd() },
    join(DIR, name),
  );
}

/** The first error a promise rejects with (fails the test when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await p;
  } catch (e) {
    return e as Error & Record<string, unknown>;
  }
  throw new Error("expected the promise to reject, but it resolved");
}
