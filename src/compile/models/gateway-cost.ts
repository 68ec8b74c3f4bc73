/**
 * A gateway's cost of a call (LiteLLM's `x-litellm-response-cost` header, USD) put where the
 * provider's own usage fields are: the answer's `usage.cost`, which LangChain's OpenAI client keeps
 * in the AI message's `response_metadata.usage` — so the cost travels with the message into the
 * thread's state, the stream and the run's usage (run/usage.ts), for a streamed answer too. A cost
 * the answer's body already gives (OpenRouter's `usage.cost`) is kept as the provider gave it.
 */

export const COST_HEADER = "x-litellm-response-cost";

type Fetch = typeof globalThis.fetch;

/** `usage.cost` added to a parsed answer (or stream chunk) that has `usage` and no cost. */
function withCost(data: unknown, cost: number): unknown {
  if (typeof data !== "object" || data === null) return data;
  const usage = (data as { usage?: unknown }).usage;
  if (typeof usage !== "object" || usage === null || "cost" in usage) return data;
  return { ...data, usage: { ...usage, cost } };
}

/** The server-sent events of a streamed answer, with the cost in the chunk that carries `usage`. */
function costStream(body: ReadableStream<Uint8Array>, cost: number): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = "";
  const line = (text: string): string => {
    const m = /^data:\s?(.*)$/.exec(text);
    if (!m || m[1] === "[DONE]" || !m[1]!.includes('"usage"')) return text;
    try {
      return `data: ${JSON.stringify(withCost(JSON.parse(m[1]!), cost))}`;
    } catch {
      return text;
    }
  };
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        pending += decoder.decode(chunk, { stream: true });
        const lines = pending.split("\n");
        pending = lines.pop()!;
        if (lines.length) out.enqueue(encoder.encode(`${lines.map(line).join("\n")}\n`));
      },
      flush(out) {
        pending += decoder.decode();
        if (pending) out.enqueue(encoder.encode(line(pending)));
      },
    }),
  );
}

/** A fetch for the provider's client that moves the gateway's cost header into the answer. */
export function gatewayCostFetch(inner?: Fetch): Fetch {
  return async (input, init) => {
    // The global fetch as it is at the call (what the client would use without this wrapper).
    const response = await (inner ?? globalThis.fetch)(input, init);
    const header = response.headers.get(COST_HEADER);
    const cost = header === null ? Number.NaN : Number(header);
    if (!Number.isFinite(cost) || cost < 0 || !response.body || !response.ok) return response;
    const type = response.headers.get("content-type") ?? "";
    const headers = new Headers(response.headers);
    headers.delete("content-length");
    const init2 = { status: response.status, statusText: response.statusText, headers };
    if (type.includes("text/event-stream"))
      return new Response(costStream(response.body, cost), init2);
    if (!type.includes("json")) return response;
    const text = await response.text();
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return new Response(text, init2);
    }
    return new Response(JSON.stringify(withCost(data, cost)), init2);
  };
}
