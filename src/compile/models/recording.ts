/**
 * Recordings of a run's provider exchanges (docs/testing.md, "Recordings"): at the HTTP level, the
 * fetch the provider's client calls. Recording stores each request (method, path, JSON body) and
 * its answer (status, content type, body text — a stream's raw server-sent events), secrets masked
 * by value. Replaying answers from the recording and never reaches the network: a request the
 * recording does not hold is answered with a 400 naming the call and showing what differs, so the
 * client fails at once (no retries) and the run's error says why.
 */
import { createTwoFilesPatch } from "diff";
import { scrubber } from "../../spec/secrets.js";

type Fetch = typeof globalThis.fetch;

/** The recording file's format version (`graphspec_recording`). */
export const RECORDING_VERSION = 1;

export interface RecordedCall {
  /** The model entry (`models:` name) whose client made the call. */
  model: string;
  request: { method: string; path: string; body: unknown };
  response: { status: number; content_type: string; body: string };
}

export interface RecordingFile {
  graphspec_recording: number;
  calls: RecordedCall[];
}

/** Headers that carry a provider key: never stored, and their values masked wherever they show. */
const KEY_HEADERS = ["authorization", "x-api-key", "api-key"];

/** The request body as data (JSON), else its text. */
function bodyOf(init: RequestInit | undefined): unknown {
  const body = init?.body;
  if (body === undefined || body === null) return null;
  const text = typeof body === "string" ? body : new TextDecoder().decode(body as ArrayBuffer);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Keys sorted at every depth: a stable text to compare and to store. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

const show = (v: unknown) => JSON.stringify(sorted(v), null, 2);

function requestOf(input: Parameters<Fetch>[0], init: RequestInit | undefined) {
  const url = new URL(input instanceof Request ? input.url : String(input));
  return {
    method: (init?.method ?? "GET").toUpperCase(),
    path: `${url.pathname}${url.search}`,
    body: bodyOf(init),
  };
}

/** The provider exchanges of one run (or of every run of one executor), recorded or replayed. */
export class ProviderRecording {
  private readonly calls: RecordedCall[];
  private readonly used = new Set<number>();
  private readonly secrets = new Set<string>();
  /** A replay that answers a request again from a call already used (dev's runs, tried again). */
  private reuse = false;
  /** The requests a replay did not find, as their errors say. */
  readonly misses: string[] = [];

  private constructor(
    readonly mode: "record" | "replay",
    calls: RecordedCall[],
    private readonly source = "the recording",
    secrets: readonly string[] = [],
  ) {
    this.calls = calls;
    for (const s of secrets) this.secrets.add(s);
  }

  /** A recording to fill; `secrets` are masked when it is saved (besides the keys sent). */
  static record(secrets: readonly string[] = []): ProviderRecording {
    return new ProviderRecording("record", [], undefined, secrets);
  }

  /**
   * A recording to replay, from a file's text; throws an Error naming `source` when it is not one.
   * `secrets` (and the keys the clients send) are masked in each request before it is matched, as
   * they were when it was recorded.
   */
  static replay(
    text: string,
    source: string,
    secrets: readonly string[] = [],
    options: { reuse?: boolean } = {},
  ): ProviderRecording {
    let data: Partial<RecordingFile>;
    try {
      data = JSON.parse(text) as Partial<RecordingFile>;
    } catch (e) {
      throw new Error(`${source} is not JSON: ${(e as Error).message}`);
    }
    if (data?.graphspec_recording !== RECORDING_VERSION || !Array.isArray(data.calls)) {
      throw new Error(
        `${source} is not a graphspec recording (version ${RECORDING_VERSION}): record it with \`graphspec run --record ${source}\``,
      );
    }
    const replay = new ProviderRecording("replay", data.calls, source, secrets);
    replay.reuse = options.reuse === true;
    return replay;
  }

  /** The fetch for the client of model `model`: records through `inner`, or answers from the recording. */
  fetch(model: string, inner?: Fetch): Fetch {
    return this.mode === "record"
      ? (input, init) => this.recordCall(model, input, init, inner ?? globalThis.fetch)
      : async (input, init) => {
          this.keysOf(init);
          return this.replayCall(model, scrubber(this.secrets)(requestOf(input, init)));
        };
  }

  /** The keys a request sends, to mask wherever they show. */
  private keysOf(init: RequestInit | undefined): void {
    const headers = new Headers(init?.headers);
    for (const name of KEY_HEADERS) {
      const value = headers.get(name);
      if (value) this.secrets.add(value.replace(/^Bearer\s+/i, ""));
    }
  }

  private async recordCall(
    model: string,
    input: Parameters<Fetch>[0],
    init: RequestInit | undefined,
    inner: Fetch,
  ): Promise<Response> {
    this.keysOf(init);
    const request = requestOf(input, init);
    const response = await inner(input, init);
    // The whole answer, a stream's events too: the client reads it from the copy.
    const body = await response.text();
    const contentType = response.headers.get("content-type") ?? "";
    this.calls.push({
      model,
      request,
      response: { status: response.status, content_type: contentType, body },
    });
    const out = new Headers(response.headers);
    out.delete("content-length");
    out.delete("content-encoding");
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: out,
    });
  }

  private replayCall(model: string, request: RecordedCall["request"]): Response {
    const want = show(request);
    const same = (c: RecordedCall) => c.model === model && show(c.request) === want;
    let found = this.calls.findIndex((c, i) => !this.used.has(i) && same(c));
    if (found < 0 && this.reuse) found = this.calls.findIndex(same);
    if (found >= 0) {
      this.used.add(found);
      const { response } = this.calls[found]!;
      return new Response(response.body, {
        status: response.status,
        headers: { "content-type": response.content_type },
      });
    }
    // The call the run is at: the first the replay has not used yet.
    const n = this.used.size + this.misses.length + 1;
    const next = this.calls.findIndex((c, i) => !this.used.has(i) && c.model === model);
    const message =
      next < 0
        ? `replay: call ${n} (model \`${model}\`, ${request.method} ${request.path}) is not in ${this.source}: it holds no more calls of this model (${this.calls.filter((c) => c.model === model).length} recorded); re-record with --record if the graph changed`
        : `replay: call ${n} (model \`${model}\`, ${request.method} ${request.path}) differs from ${this.source} (its call ${next + 1}); re-record with --record if the change is intended:\n${difference(this.calls[next]!.request, request)}`;
    this.misses.push(message);
    return new Response(JSON.stringify({ error: { message, type: "graphspec_replay" } }), {
      status: 400,
      headers: { "content-type": "application/json" },
    });
  }

  /** The recorded calls a replay has not answered yet, as `call N (model \`M\`, POST /path)`. */
  unused(): string[] {
    return this.calls.flatMap((c, i) =>
      this.used.has(i)
        ? []
        : [`call ${i + 1} (model \`${c.model}\`, ${c.request.method} ${c.request.path})`],
    );
  }

  /** The recording as its file holds it: keys sorted, secrets masked. */
  toFile(): string {
    const scrub = scrubber(this.secrets);
    const file: RecordingFile = {
      graphspec_recording: RECORDING_VERSION,
      calls: scrub(this.calls.map((c) => sorted(c) as RecordedCall)),
    };
    return `${JSON.stringify(file, null, 2)}\n`;
  }
}

/** The lines that differ between the recorded request and the one made (a unified diff). */
function difference(recorded: unknown, made: unknown): string {
  const patch = createTwoFilesPatch(
    "recorded",
    "this run",
    `${show(recorded)}\n`,
    `${show(made)}\n`,
    "",
    "",
    {
      context: 2,
    },
  );
  // Without the `Index:`/`===` header lines.
  return patch
    .split("\n")
    .filter((l) => !l.startsWith("Index:") && !l.startsWith("===="))
    .join("\n")
    .trimEnd();
}
