/**
 * The provider simulator (provider-sim/) as the OpenAI stub the earlier tests know: the base URL
 * ends in /v1, and the requests are kept as bodies and headers.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { SimTurn } from "./provider-sim/script.js";
import { startProviderSim } from "./provider-sim/server.js";

export type StubTurn = SimTurn;

export interface OpenAIStub {
  /** The base URL, ending in /v1. */
  url: string;
  /** Parsed request bodies, in order. */
  requests: Record<string, unknown>[];
  /** The headers of those requests (lower-case names), in the same order. */
  headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}

export async function startOpenAIStub(turns: (StubTurn | string)[]): Promise<OpenAIStub> {
  const sim = await startProviderSim(turns);
  return {
    url: sim.openaiUrl,
    get requests() {
      return sim.requests.map((r) => r.body);
    },
    get headers() {
      return sim.requests.map((r) => r.headers);
    },
    close: sim.close,
  };
}
