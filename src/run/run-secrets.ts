/**
 * The secrets of one run, to mask by value wherever they could show — its result, its events,
 * its checkpoints: the environment's secret-looking variables, what the spec's `models:` and
 * `mcp_servers:` hold or read from the environment (compile/models/model-secrets.ts), and the run's context under
 * secret-looking keys or keys the spec declares `secret: true` — the spec's own and those of the
 * subgraphs it runs, which run with its context.
 */
import { modelSecrets } from "../compile/models/model-secrets.js";
import { graphRefs, resolveGraphRef } from "../modules/index.js";
import type { SpecDocument } from "../spec/document.js";
import { readSpec } from "../spec/load.js";
import { type Scrub, scrubber, secretValues, withoutSecrets } from "../spec/secrets.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";
import { SCRUB_KEY } from "./secret-guard.js";

/** What a spec (with its subgraphs) says is secret, found once per loaded spec. */
export interface SpecSecrets {
  /** From `models:`: credentials, and the values of the environment variables templates read. */
  values: readonly string[];
  /** Context keys declared `secret: true`. */
  contextKeys: ReadonlySet<string>;
}

type Env = Record<string, string | undefined>;

/** The secrets of a spec and of every subgraph it runs (each file read once). */
export async function specSecrets(doc: SpecDocument, env: Env): Promise<SpecSecrets> {
  const values: string[] = [];
  const contextKeys = new Set<string>();
  const seen = new Set<string>();
  const visit = async (d: SpecDocument): Promise<void> => {
    if (seen.has(d.path)) return;
    seen.add(d.path);
    const spec = d.data as GraphSpec | undefined;
    if (!spec) return;
    values.push(...modelSecrets(spec.models, env));
    // MCP servers' headers and environment: the same kinds of credentials, read the same ways.
    values.push(...modelSecrets(spec.mcp_servers, env));
    for (const [key, field] of Object.entries(spec.context ?? {}))
      if (field.secret === true) contextKeys.add(key);
    for (const ref of graphRefs(spec)) {
      const child = await resolveGraphRef({ specPath: d.path, root: d.root }, ref);
      // A subgraph that cannot be found fails the compile, which says why.
      if (child.abs) await visit(await readSpec(child.abs, { root: d.root }));
    }
  };
  await visit(doc);
  return { values, contextKeys };
}

export interface RunSecrets {
  /** Masks the run's secrets in plain data and text. */
  scrub: Scrub;
  /** The context as a thread stores it: no secret-looking keys, no `secret: true` keys. */
  storedContext: Record<string, unknown> | undefined;
  /** For the run's `configurable`: the scrub the checkpointer applies (secret-guard.ts), when there is something to scrub. */
  configurable: Record<string, unknown>;
}

export function runSecrets(
  spec: SpecSecrets,
  envSecrets: readonly string[],
  context: Record<string, unknown> | undefined,
): RunSecrets {
  const scrub = scrubber([
    ...envSecrets,
    ...spec.values,
    ...secretValues(context, spec.contextKeys),
  ]);
  return {
    scrub,
    storedContext: context && withoutSecrets(context, spec.contextKeys),
    configurable: scrub.secrets.length ? { [SCRUB_KEY]: scrub } : {},
  };
}
