/**
 * The hostile tenant of the soak: requests made to cost the server as much as the operator's
 * graphs and the server's bounds let them, each with the bounded answer it must get. A tenant
 * cannot bring graphs of its own, so its weapons are input to the operator's graphs (a scan that
 * 30,000-item lists make CPU-heavy, a loop whose state doubles) and the requests themselves (huge
 * declared and chunked bodies, bodies that are not JSON, input over the limit), plus a flood of
 * background runs, bounded in count.
 *
 * Each attack answers a label (`expression-limit`, `413 body-too-large`, …). A label outside the
 * attack's `expected` list — a 5xx, a timeout, a dropped connection, a run that completed — is a
 * broken bound. A 429 with a `retry-after` is accepted from each of them, as each asks to start
 * a run: the per-tenant caps of issue 23 answer so, in whatever order they are checked.
 */
import { tally } from "./figures.js";
import { rawRequest } from "./raw-request.js";

const MiB = 1024 * 1024;
/** A hostile request that takes longer than this has hung. */
export const HANG_MS = 60_000;

export interface Attack {
  name: string;
  expected: string[];
  send(url: string, key: string): Promise<string>;
}

const json = (key: string) => ({ "content-type": "application/json", "x-api-key": key });

/** A label for an answer: `429` needs its retry-after, a failed run is named by its code. */
function label(status: number, body: string, headers: Headers | RawHeaders): string {
  let parsed: { error?: unknown; __error__?: { error?: string } } | undefined;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const retryAfter =
    headers instanceof Headers ? headers.get("retry-after") : headers["retry-after"];
  if (status === 429) return retryAfter ? "429" : "429 without retry-after";
  if (status === 200 && parsed?.__error__) return String(parsed.__error__.error);
  const code = typeof parsed?.error === "string" ? ` ${parsed.error}` : "";
  return `${status}${code}`;
}
type RawHeaders = Record<string, string | string[] | undefined>;

/** A fetch that got no answer: `timeout`, or what undici says happened to the connection. */
export function failed(e: unknown): string {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  if (err.name === "TimeoutError") return "timeout";
  return `no answer: ${err.message}${err.cause ? ` (${err.cause.code ?? ""} ${err.cause.message ?? ""})` : ""}`;
}

/**
 * The server answers 413 and closes the connection without reading the rest (docs/server.md):
 * a client still writing may see the close (EPIPE, ECONNRESET) before it reads the 413. That is
 * the upload cut, as promised; a timeout is not.
 */
const cut = (failure: string) =>
  failure === "EPIPE" || failure === "ECONNRESET" ? "upload cut" : failure;

async function post(url: string, path: string, key: string, body: string): Promise<string> {
  try {
    const r = await fetch(`${url}${path}`, {
      method: "POST",
      headers: json(key),
      body,
      signal: AbortSignal.timeout(HANG_MS),
    });
    return label(r.status, await r.text(), r.headers);
  } catch (e) {
    return failed(e);
  }
}

// About 800 KB of JSON: 30,000 distinct items in each list, none of xs in ys — 900 million pairs.
const xs = Array.from({ length: 30_000 }, (_, i) => `x-${String(i).padStart(8, "0")}`);
const scanBody = JSON.stringify({
  assistant_id: "scan",
  input: { xs, ys: xs.map((x) => x.replace("x-", "y-")) },
});
// A 1 KB seed, doubled each step: 8 MB at the 13th step, past serve's 4 MiB state bound.
const growBody = JSON.stringify({
  assistant_id: "grow",
  input: { log: ["s".repeat(1000)], rounds: 100 },
});
// Input of 3 MiB: within the 4 MiB body limit, over the 1 MiB input limit.
const bigInputBody = JSON.stringify({ assistant_id: "small", input: { pad: "p".repeat(3 * MiB) } });
const spaces = Buffer.alloc(64 * 1024, 0x20);

export const ATTACKS: Attack[] = [
  {
    name: "CPU-heavy expression (runs.wait, 800 KB input)",
    expected: ["expression-limit", "429"],
    send: (url, key) => post(url, "/runs/wait", key, scanBody),
  },
  {
    name: "state doubling each step (runs.wait, 1 KB input)",
    expected: ["state-too-large", "429"],
    send: (url, key) => post(url, "/runs/wait", key, growBody),
  },
  {
    name: "declared 256 MiB body",
    expected: ["413 body-too-large", "upload cut", "429"],
    send: async (url, key) => {
      const r = await rawRequest(url, {
        path: "/runs/wait",
        headers: { ...json(key), "content-length": String(256 * MiB) },
        total: 256 * MiB,
        chunk: spaces,
        timeoutMs: HANG_MS,
      });
      return r.failure ? cut(r.failure) : label(r.status!, r.body, r.headers);
    },
  },
  {
    name: "chunked 256 MiB body",
    expected: ["413 body-too-large", "upload cut", "429"],
    send: async (url, key) => {
      const r = await rawRequest(url, {
        path: "/runs/wait",
        headers: { ...json(key), "transfer-encoding": "chunked" },
        total: 256 * MiB,
        chunk: spaces,
        timeoutMs: HANG_MS,
      });
      return r.failure ? cut(r.failure) : label(r.status!, r.body, r.headers);
    },
  },
  {
    name: "body that is not JSON",
    expected: ["415 unsupported-media-type", "429"],
    send: async (url, key) => {
      try {
        const r = await fetch(`${url}/runs/wait`, {
          method: "POST",
          headers: { "content-type": "text/plain", "x-api-key": key },
          body: growBody,
          signal: AbortSignal.timeout(HANG_MS),
        });
        return label(r.status, await r.text(), r.headers);
      } catch (e) {
        return failed(e);
      }
    },
  },
  {
    name: "3 MiB input",
    expected: ["413 input-too-large", "429"],
    send: (url, key) => post(url, "/runs/wait", key, bigInputBody),
  },
];

/**
 * The graphs a background flood cycles through: the count is the attack (a queue a few hundred
 * deep), so mostly the cheap graph; one in ten is CPU-heavy, alternately a scan and a doubling
 * state, so the soak's time stays bounded (16 slots of doubling states took 90 s alone).
 */
const smallBody = JSON.stringify({ assistant_id: "small", input: {} });
const FLOOD = [
  { graph: "scan", body: scanBody },
  ...Array(9).fill({ graph: "small", body: smallBody }),
  { graph: "grow", body: growBody },
  ...Array(9).fill({ graph: "small", body: smallBody }),
] as { graph: string; body: string }[];

export interface Flooded {
  /** Answer label → count, for the creations. */
  created: Map<string, number>;
  /** Thread and run of each queued run, to check how it ended. */
  runs: { thread: string; run: string; graph: string }[];
}

/**
 * `count` background runs, each on a thread of its own (so none is refused as busy), created
 * `concurrency` at a time: a flood the queue must take without starving the other tenant.
 */
export async function flood(
  url: string,
  key: string,
  count: number,
  concurrency = 8,
  graphs = FLOOD.map((f) => f.graph),
): Promise<Flooded> {
  const kinds = FLOOD.filter((f) => graphs.includes(f.graph));
  const out: Flooded = { created: new Map(), runs: [] };
  let next = 0;
  const one = async (i: number) => {
    const { graph, body } = kinds[i % kinds.length]!;
    let answer: string;
    try {
      const t = await fetch(`${url}/threads`, {
        method: "POST",
        headers: json(key),
        body: "{}",
        signal: AbortSignal.timeout(HANG_MS),
      });
      const thread = ((await t.json()) as { thread_id: string }).thread_id;
      const r = await fetch(`${url}/threads/${thread}/runs`, {
        method: "POST",
        headers: json(key),
        body,
        signal: AbortSignal.timeout(HANG_MS),
      });
      const text = await r.text();
      answer = r.status === 200 ? "queued" : label(r.status, text, r.headers);
      if (r.status === 200) out.runs.push({ thread, run: JSON.parse(text).run_id, graph });
    } catch (e) {
      answer = failed(e);
    }
    tally(out.created, answer);
  };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await one(next++);
    }),
  );
  return out;
}

/**
 * What each flooded run ended with, by `runs.join` (its values, or its `__error__` code), all
 * joined at once; a run not ended within `withinMs` is `not ended`.
 */
export async function floodEnds(
  url: string,
  key: string,
  f: Flooded,
  withinMs: number,
): Promise<Map<string, number>> {
  const ends = new Map<string, number>();
  const signal = AbortSignal.timeout(withinMs);
  await Promise.all(
    f.runs.map(async ({ thread, run, graph }) => {
      let end: string;
      try {
        const r = await fetch(`${url}/threads/${thread}/runs/${run}/join`, {
          headers: { "x-api-key": key },
          signal,
        });
        const body = (await r.json()) as { __error__?: { error: string } };
        end = r.status !== 200 ? `${r.status}` : (body.__error__?.error ?? "completed");
      } catch (e) {
        end = (e as Error).name === "TimeoutError" ? `not ended within ${withinMs} ms` : failed(e);
      }
      tally(ends, `${graph}: ${end}`);
    }),
  );
  return ends;
}

/** The end each flooded graph must have (a 429-refused run is never queued, so not here). */
export const FLOOD_EXPECTED_ENDS = [
  "scan: expression-limit",
  "grow: state-too-large",
  "small: completed",
];
