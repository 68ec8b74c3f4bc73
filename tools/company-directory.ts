import { setTimeout as sleep } from "node:timers/promises";
import { tool } from "@langchain/core/tools";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { z } from "zod";

/**
 * A company directory lookup, as a remote service would behave, from a small in-memory table (the
 * example has no directory service). Each entry says how the service answers for it, so runs are
 * deterministic: `unavailableFor` attempts answer 503 first (a transient outage), `slowMs` is how
 * long the answer takes, and a domain it does not know answers 404 every time (a permanent failure). The attempt is
 * LangGraph's own count of the node's retries (`executionInfo.nodeAttempt`), so no state is kept
 * between calls.
 */
export const lookupCompany = tool(
  async ({ domain }, runtime: LangGraphRunnableConfig) => {
    const entry = DIRECTORY[domain];
    if (!entry) throw new DirectoryError(404, `no company at ${domain}`);
    const attempt = runtime.executionInfo?.nodeAttempt ?? 1;
    if (attempt <= (entry.unavailableFor ?? 0))
      throw new DirectoryError(503, `directory unavailable (attempt ${attempt})`);
    // A timeout aborts the signal: stop waiting then, as a real client would.
    if (entry.slowMs) await sleep(entry.slowMs, undefined, { signal: runtime.signal });
    return { ...entry.profile, attempt };
  },
  {
    name: "lookup_company",
    description: "Look a company up in the directory by its web domain.",
    schema: z.object({ domain: z.string().describe("The company's domain, e.g. acme.example") }),
  },
);

/** An HTTP-like failure: LangGraph's retry policy does not retry 400–409 (404 is final), and does retry 503. */
class DirectoryError extends Error {
  override name = "DirectoryError";
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(`${status} ${message}`);
  }
}

interface Entry {
  profile: { name: string; industry: string; employees: number };
  unavailableFor?: number;
  slowMs?: number;
}

const DIRECTORY: Record<string, Entry> = {
  "acme.example": { profile: { name: "Acme", industry: "manufacturing", employees: 1200 } },
  "globex.example": {
    profile: { name: "Globex", industry: "energy", employees: 5400 },
    unavailableFor: 2,
  },
  "initech.example": {
    profile: { name: "Initech", industry: "software", employees: 300 },
    unavailableFor: 5,
  },
  "hooli.example": {
    profile: { name: "Hooli", industry: "internet", employees: 90000 },
    slowMs: 60_000,
  },
};
