/**
 * Request bodies: read within a size limit, parsed as JSON, checked against the endpoint's shape.
 * Each failure is a 4xx naming the field and what is wrong (api-error.ts). Shapes allow keys they
 * do not name: the SDK sends many options this server has no use for.
 */
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { Context } from "hono";
import { z } from "zod";
import { inTurn } from "../compile/cpu-turns.js";
import { ApiError } from "./api-error.js";

/** The body as JSON (`{}` when empty), or the 4xx saying why not. */
export async function jsonBody(c: Context, maxBytes: number): Promise<unknown> {
  const declared = Number(c.req.header("content-length"));
  if (declared > maxBytes) throw tooLarge(c, maxBytes);
  const bytes = await bytesWithin(c, maxBytes);
  // A browser sends `text/plain` (and forms) across origins without asking first: only JSON
  // is taken, so no page can make one of these requests without a preflight.
  if (bytes.byteLength > 0 && !isJson(c.req.header("content-type")))
    throw new ApiError(
      415,
      "unsupported-media-type",
      `the body must be JSON, sent as \`content-type: application/json\`, not \`${c.req.header("content-type") ?? "(none)"}\``,
      {
        hint: "send the body with `content-type: application/json` (curl: -H 'content-type: application/json')",
      },
    );
  // Decoding and parsing up to the body limit is a chunk of CPU: in the tenant's turn.
  return inTurn(() => parse(bytes));
}

function parse(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(400, "invalid-json", "the body is not UTF-8 text", {
      hint: "send JSON, encoded as UTF-8",
    });
  }
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ApiError(400, "invalid-json", `the body is not valid JSON: ${(e as Error).message}`, {
      hint: "send a JSON object with `content-type: application/json`",
    });
  }
}

/**
 * The body's bytes, counted as they arrive: reading stops at the first chunk past `maxBytes`, so
 * a chunked body (no content-length to refuse up front) costs the server at most the limit — not
 * its whole size, as reading it all and measuring after did (two 900 MB bodies: 4.3 GB).
 */
async function bytesWithin(c: Context, maxBytes: number): Promise<Uint8Array> {
  // On Node's server, from the request itself: a web stream over it (Readable.toWeb) costs more
  // than the rest of reading a run's small body.
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming && !incoming.readableDidRead) return incomingWithin(c, incoming, maxBytes);
  const body = c.req.raw.body;
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // Nothing more is read; the 413 closes the connection, which cuts the upload.
      reader.releaseLock();
      throw tooLarge(c, maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** As `bytesWithin`, from Node's request: at the first chunk past `maxBytes` it stops reading. */
function incomingWithin(c: Context, incoming: IncomingMessage, maxBytes: number) {
  return new Promise<Uint8Array>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const settle = (then: () => void) => {
      incoming.off("data", data).off("end", end).off("error", failed).off("close", closed);
      then();
    };
    const data = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total <= maxBytes) return void chunks.push(chunk);
      // Nothing more is read (not even drained): the 413 closes the connection.
      incoming.pause();
      settle(() => reject(tooLarge(c, maxBytes)));
    };
    const end = () =>
      settle(() => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    const failed = (e: Error) => settle(() => reject(e));
    const closed = () => {
      if (!incoming.complete) failed(new Error("the client closed the connection mid-body"));
    };
    incoming.on("data", data).on("end", end).on("error", failed).on("close", closed);
  });
}

/**
 * `application/json` or a `+json` type, with any parameters (`; charset=utf-8`). Header values
 * arrive trimmed (Node's parser, and the Fetch `Headers` of any other runtime).
 */
const isJson = (type: string | undefined) =>
  type !== undefined && /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(type);

/**
 * How long a connection refused with 413 stays open after the answer. Closing a socket that still
 * has unread bytes makes the kernel send a reset, which can reach a client still uploading before
 * it has read the 413 — it would see "connection reset", not why. So the server sends the answer
 * and its FIN at once, then waits this long before closing ("lingering close", as Apache and nginx
 * do). Nothing more is read meanwhile: the rest of the upload stays in the kernel's buffer.
 */
const LINGER_MS = 2000;

function lingerOnClose(c: Context): void {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const socket = incoming?.socket;
  if (!incoming || !socket) return;
  // @hono/node-server drains a body left unread once the answer is sent (up to 64 MiB, for
  // 500 ms) by resuming the request: a refused upload is not drained, the connection closes.
  incoming.resume = () => incoming;
  // Node's HTTP server calls destroySoon once a `connection: close` answer is sent.
  socket.destroySoon = function (this: Socket) {
    this.end();
    setTimeout(() => this.destroy(), LINGER_MS).unref();
  };
}

/** The 413, on a connection that closes after it: the rest of the body is never read. */
const tooLarge = (c: Context, max: number) => {
  c.header("connection", "close");
  lingerOnClose(c);
  return new ApiError(413, "body-too-large", `the body is larger than ${max} bytes`, {
    hint: "send a smaller input, or start the server with a larger --max-body-bytes",
  });
};

/** The value checked against `schema`, or a 422 naming the first field that does not fit. */
export function parsed<T>(schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const field = issue.path.map(String).join(".") || undefined;
  throw new ApiError(
    422,
    "invalid-request",
    `${field ? `\`${field}\`: ` : "the body: "}${issue.message}`,
    {
      ...(field ? { field } : {}),
      hint: "see docs/server.md for the fields each endpoint takes",
    },
  );
}

const record = z.record(z.string(), z.unknown());

export const ThreadCreate = z.looseObject({
  thread_id: z.string().min(1).max(512).optional(),
  metadata: record.optional(),
  if_exists: z.enum(["raise", "do_nothing"]).optional(),
});

export const ThreadPatch = z.looseObject({ metadata: record.optional() });

export const ThreadSearch = z.looseObject({
  metadata: record.optional(),
  /** Top-level state keys the thread's values must equal (the SDK's `threads.search/count({ values })`). */
  values: record.nullable().optional(),
  ids: z.array(z.string()).optional(),
  status: z.enum(["idle", "busy", "interrupted", "error"]).optional(),
  limit: z.number().int().min(1).max(1000).optional(),
  offset: z.number().int().min(0).optional(),
});

export const ThreadPrune = z.looseObject({ prefix: z.string().min(1) });

/** Where the SDK names a checkpoint: `checkpoint_id`, or `checkpoint: { checkpoint_id }`. */
const checkpointFields = {
  checkpoint_id: z.string().min(1).nullable().optional(),
  checkpoint: z
    .looseObject({ checkpoint_id: z.string().min(1).nullable().optional() })
    .nullable()
    .optional(),
};

/** The checkpoint a request names, if any. */
export const checkpointOf = (body: {
  checkpoint_id?: string | null | undefined;
  checkpoint?: { checkpoint_id?: string | null | undefined } | null | undefined;
}): string | undefined => body.checkpoint_id ?? body.checkpoint?.checkpoint_id ?? undefined;

export const StateUpdate = z.looseObject({
  values: z.union([record, z.null()]).optional(),
  as_node: z.string().optional(),
  ...checkpointFields,
});

export const StateAtCheckpoint = z.looseObject({
  checkpoint: z
    .looseObject({ checkpoint_id: z.string().min(1).nullable().optional() })
    .nullable()
    .optional(),
  subgraphs: z.boolean().nullable().optional(),
});

export const HistoryQuery = z.looseObject({
  limit: z.number().int().min(1).max(1000).optional(),
  /** Only checkpoints whose metadata has these values (`{ source: "input" }`, `{ step: 2 }`). */
  metadata: record.nullable().optional(),
  // The SDK sends a config (`{ configurable: { checkpoint_id } }`); a checkpoint or its id also do.
  before: z
    .union([
      z.string(),
      z.looseObject({
        checkpoint_id: z.string().optional(),
        configurable: z.looseObject({ checkpoint_id: z.string().optional() }).optional(),
      }),
    ])
    .nullable()
    .optional(),
});
export type HistoryQuery = z.infer<typeof HistoryQuery>;

export const AssistantSearch = z.looseObject({
  graph_id: z.string().nullable().optional(),
  name: z.string().nullable().optional(),
  metadata: record.nullable().optional(),
  limit: z.number().int().min(1).max(1000).optional(),
  offset: z.number().int().min(0).optional(),
  sort_by: z.enum(["assistant_id", "graph_id", "created_at", "updated_at", "name"]).optional(),
  sort_order: z.enum(["asc", "desc"]).optional(),
  select: z.array(z.string()).optional(),
});
export type AssistantSearch = z.infer<typeof AssistantSearch>;

/** What an assistant is made of, on `assistants.create` and (each optional) `assistants.update`. */
const assistantFields = {
  config: z.looseObject({ configurable: record.optional() }).nullable().optional(),
  context: record.nullable().optional(),
  metadata: record.nullable().optional(),
  name: z.string().max(200).nullable().optional(),
  description: z.string().max(2000).nullable().optional(),
};

export const AssistantCreate = z.looseObject({
  graph_id: z.string().min(1),
  assistant_id: z.guid().nullable().optional(),
  if_exists: z.enum(["raise", "do_nothing"]).nullable().optional(),
  ...assistantFields,
});
export type AssistantCreate = z.infer<typeof AssistantCreate>;

export const AssistantPatch = z.looseObject({
  graph_id: z.string().min(1).nullable().optional(),
  ...assistantFields,
});
export type AssistantPatch = z.infer<typeof AssistantPatch>;

export const AssistantVersions = z.looseObject({
  metadata: record.nullable().optional(),
  limit: z.number().int().min(1).max(1000).optional(),
  offset: z.number().int().min(0).optional(),
});

export const AssistantLatest = z.looseObject({ version: z.number().int().min(1) });

export const RunCreate = z.looseObject({
  assistant_id: z.string().min(1),
  input: z.union([record, z.null()]).optional(),
  command: z
    .looseObject({
      resume: z.unknown().optional(),
      update: z.unknown().optional(),
      goto: z.unknown().optional(),
    })
    .nullable()
    .optional(),
  config: z.looseObject({ configurable: record.optional() }).nullable().optional(),
  context: z.union([record, z.null()]).optional(),
  metadata: z.union([record, z.null()]).optional(),
  stream_mode: z.unknown().optional(),
  stream_subgraphs: z.boolean().nullable().optional(),
  multitask_strategy: z.enum(["reject", "interrupt", "rollback", "enqueue"]).nullable().optional(),
  if_not_exists: z.enum(["create", "reject"]).nullable().optional(),
  on_completion: z.enum(["delete", "keep"]).nullable().optional(),
  /** `cancel`: the run is cancelled when the client leaves before it ends (stream, wait). */
  on_disconnect: z.enum(["cancel", "continue"]).nullable().optional(),
  ...checkpointFields,
});
export type RunCreate = z.infer<typeof RunCreate>;
