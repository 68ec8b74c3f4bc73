/**
 * Any failure of a run as a RunError: graphspec's own errors keep their code, node, field and
 * hint; LangGraph's and providers' get a code and a hint of their own. Each names its phase and,
 * where one failed, the node. Never a stack trace.
 */
import { GraphspecRunError } from "../compile/graphspec-run-error.js";
import { SubgraphFailure } from "../compile/subgraph-failure.js";
import { RUN_ERRORS, type RunErrorCode } from "../diagnostics/run-error-catalog.js";
import type { RunError, RunPhase, ThrottleReason } from "./result.js";

const firstLine = (e: unknown): string => String((e as Error)?.message ?? e).split("\n")[0] ?? "";

/** The error and its `cause` chain (providers wrap the HTTP error that says what happened). */
function causes(e: unknown): unknown[] {
  const out: unknown[] = [];
  for (let c: unknown = e; c && out.length < 8; c = (c as { cause?: unknown }).cause) out.push(c);
  return out;
}

/** The catalog's phase of a code; an expression that failed outside any node is an edge's. */
const phaseOf = (code: RunErrorCode, node: string | undefined): RunPhase =>
  (code === "expression" || code === "expression-limit") && !node ? "edge" : RUN_ERRORS[code].phase;

/** A string `hint` an error carries (the scripted model's, a tool's own error class). */
const ownHint = (e: unknown): string | undefined => {
  const hint = (e as { hint?: unknown })?.hint;
  return typeof hint === "string" && hint ? hint : undefined;
};

/** A provider's request timeout: the OpenAI client's (LangChain names it TimeoutError), others', or its text. */
const isTimeout = (c: unknown): boolean => {
  const name = (c as Error)?.name ?? "";
  return (
    name === "TimeoutError" ||
    name === "APIConnectionTimeoutError" ||
    /^(\d{3} )?(Request timed out|request timed out|Connection timed out)/.test(firstLine(c))
  );
};

/** The error's fields and text that name a provider's refusal (OpenAI's `code`/`type`, the HTTP status). */
function throttling(c: unknown): ThrottleReason | undefined {
  const { status, code, type } = (c ?? {}) as { status?: unknown; code?: unknown; type?: unknown };
  const text = firstLine(c);
  const quota =
    code === "insufficient_quota" ||
    type === "insufficient_quota" ||
    /quota|credit balance is too low/i.test(text);
  if (quota) return "quota";
  if (Number(status) === 429 || /^429\b|rate.?limit|too many requests/i.test(text))
    return "rate-limit";
  return undefined;
}

/**
 * Whether a provider refused the credentials: HTTP 401, or a client that found no key. Matched by
 * status and by the clients' own wording, not by any "auth" in a message (a tool's text may say it).
 */
function unauthorized(c: unknown): boolean {
  const { status, name } = (c ?? {}) as { status?: unknown; name?: unknown };
  return (
    Number(status) === 401 ||
    name === "AuthenticationError" ||
    /^401\b|missing credentials|incorrect api key|invalid (x-)?api[-_ ]key|api key not valid/i.test(
      firstLine(c),
    )
  );
}

/** LangGraph's own error classes a node's code can raise (by their `name`), and what to do about each. */
const LANGGRAPH_HINTS: Record<string, string> = {
  EmptyChannelError:
    "a channel was read before anything was written to it: give the channel a `default`, or write it in an earlier step",
  GraphValueError: "LangGraph refused a value the node gave it: check what the node returns",
  UnreachableNodeError:
    "a graph the node built has a node no edge reaches: add an edge to it, or remove it",
  StateGraphInputError: "a graph the node built was given no valid state definition",
  MultipleSubgraphError: "the node ran more than one subgraph in one call: run one per node",
  RemoteException: "a remote graph the node called failed: see its own logs",
};

/** A hint for any of LangGraph's own errors a node raised: its class's, and LangGraph's page for it. */
function langGraphHint(e: unknown): string | undefined {
  const { name, lc_error_code: page } = (e ?? {}) as { name?: unknown; lc_error_code?: unknown };
  const own = typeof name === "string" ? LANGGRAPH_HINTS[name] : undefined;
  const more =
    typeof page === "string" && /^[A-Z_]+$/.test(page)
      ? `see https://docs.langchain.com/oss/javascript/langgraph/${page}/`
      : undefined;
  return own && more ? `${own}; ${more}` : (own ?? more);
}

/**
 * LangGraph's InvalidUpdateError: a step's writes to one channel could not be combined. Said
 * without the written values (they can be large, and are the state's own data).
 */
function invalidUpdate(message: string): Omit<RunError, "phase"> {
  const channel = /^Invalid update for channel "([^"]+)"/.exec(message)?.[1];
  const named = channel === undefined ? "a channel" : `\`${channel}\``;
  if (/only one Overwrite value per step/.test(message)) {
    return {
      code: "parallel-write",
      message: `nodes of one step both wrote \`null\` (a reset) to ${named}: only one reset per step is allowed`,
      hint: "reset the channel from one node of the step only, or let the nodes run in different steps",
    };
  }
  if (channel !== undefined) {
    return {
      code: "parallel-write",
      message: `nodes of one step wrote ${named}, a \`replace\` channel that keeps one value per step`,
      hint: `give ${named} a reducer that combines writes (append, merge, sum, …), or let the nodes write different channels; declare \`writes\` on \`function\` nodes so that validate's parallel-write rule can see what they write`,
    };
  }
  if (/Send packet|send a packet to the END node/.test(message)) {
    return {
      code: "router-target",
      message,
      hint: "send only to nodes the graph has (a map's `to`, a router's `to`), never to END",
    };
  }
  if (/to return an object|no parent graph|reserved channel|PASSTHROUGH/.test(message)) {
    return {
      code: "invalid-write",
      message,
      hint: 'return an object from channel names to values, e.g. `{ notes: ["done"] }`',
    };
  }
  return {
    code: "parallel-write",
    message,
    hint: "give the channel a reducer (append, merge, …), or stop writing it from nodes of one step",
  };
}

/** A `parallel-write` error with the nodes that wrote the channel in its message. */
export function withWriters<E extends Pick<RunError, "code" | "message">>(
  error: E,
  writers: readonly string[],
): E {
  if (error.code !== "parallel-write" || writers.length === 0) return error;
  const names = writers.map((w) => `\`${w}\``);
  const list =
    names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return { ...error, message: `${error.message} (written by ${list})` };
}

/** A failure classified where it happened, inside however many subgraphs. */
interface Located {
  error: Omit<RunError, "phase">;
  /** The subgraph nodes from the run's graph down, then the node that failed (if known). */
  path: string[];
  /** The innermost subgraph's spec file, for a failure inside one. */
  file?: string;
}

/**
 * A failure in the child of a subgraph node (nested or not): the child's error classified as if
 * the child had run alone — its code, field and hint — with the path of nodes down to it.
 */
function locate(e: unknown): Located {
  if (e instanceof AggregateError && e.errors.length) return locate(e.errors[0]);
  if (!(e instanceof SubgraphFailure) || e.cause === undefined)
    return { error: classify(e), path: [] };
  const located = locate(e.cause);
  // The child's colliding writes, with the child's nodes that wrote (read from its checkpoint).
  const inner =
    e.cause instanceof SubgraphFailure
      ? located
      : { ...located, error: withWriters(located.error, e.writers) };
  const failed =
    inner.error.node ?? (inner.error.code === "recursion-limit" ? undefined : e.childNode);
  const below = inner.path.length ? inner.path : failed ? [failed] : [];
  return {
    error: inner.error,
    path: [e.node, ...below],
    file: inner.file ?? e.file,
  };
}

/** A subgraph's failure as the parent's error: the child's, said to be in the subgraph, at its path. */
function fromSubgraph(e: SubgraphFailure): Omit<RunError, "phase"> {
  const { error, path, file } = locate(e);
  // The child's own hint; a generic pointer to the child only when it has none.
  const hint = error.hint ?? `run \`${file ?? e.file}\` on its own to see where it fails`;
  return {
    ...error,
    message: `in the subgraph \`${file ?? e.file}\` at \`${path.join(" > ")}\`: ${error.message}`,
    node: e.node,
    path,
    hint,
  };
}

function classify(e: unknown): Omit<RunError, "phase"> {
  if (e instanceof SubgraphFailure && e.cause !== undefined) return fromSubgraph(e);
  if (e instanceof GraphspecRunError) {
    return {
      code: e.code,
      message: e.message,
      ...(e.node ? { node: e.node } : {}),
      ...(e.field ? { field: e.field } : {}),
      ...(e.hint ? { hint: e.hint } : {}),
    };
  }
  // Several nodes of one step failed: report the first (the others are in the thread's tasks).
  if (e instanceof AggregateError && e.errors.length) return classify(e.errors[0]);
  const name = (e as Error)?.name ?? "Error";
  const message = firstLine(e);
  switch (name) {
    case "GraphRecursionError":
      return {
        code: "recursion-limit",
        message,
        hint: "raise `limits.recursion` in the spec or the run's `recursionLimit`, or check the loop's exit condition",
      };
    case "InvalidUpdateError":
      return invalidUpdate(message);
    case "EmptyInputError":
      return {
        code: "invalid-input",
        message,
        hint: "give the run an input with at least one of the graph's channels, or resume a thread that has a step to run",
      };
    case "UnknownInterruptError":
      return {
        code: "invalid-input",
        message,
        hint: "answer the thread's pending interrupts by their ids (`graphspec threads show` lists them), one value per id",
      };
    case "GraphValueError":
      if (/checkpointer/i.test(message)) {
        return {
          code: "no-checkpointer",
          message,
          hint: "run the graph with a checkpointer (the executor's sqlite, postgres or memory)",
        };
      }
      break;
    case "NodeTimeoutError":
      return {
        code: "timeout",
        message,
        hint: "raise the node's `timeout_ms`, or make the node faster",
      };
  }
  const timedOut = causes(e).find(isTimeout);
  if (timedOut) {
    return {
      code: "timeout",
      message: `the model provider did not answer in time: ${firstLine(timedOut)}`,
      hint: "raise the model's `timeout_ms` in `models:` (or add `retry` to the node), or check the provider's status",
    };
  }
  for (const c of causes(e)) {
    const reason = throttling(c);
    if (reason) {
      return {
        code: "throttled",
        reason,
        message: firstLine(c),
        hint:
          reason === "quota"
            ? "the provider's quota for this key is used up: retrying will not help until the plan or billing is changed, or use another key"
            : "the model provider is rate-limiting: retry later, or add `retry` to the node",
      };
    }
  }
  const refused = causes(e).find(unauthorized);
  if (refused) {
    return {
      code: "unauthorized",
      message: `the provider refused the credentials: ${firstLine(refused)}`,
      hint: "set the provider's key in the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY, …) or as `api_key: \"${{ env.NAME }}\"` on the model in `models:`; to run without a provider, give it a script (`--scripts @graph.test.yaml` runs with a fixture's scripts, as does choosing one under “Models answer from” on graphspec dev's page; docs/testing.md#standing-in-for-a-model)",
    };
  }
  const hint = ownHint(e) ?? langGraphHint(e);
  return {
    code: "node-error",
    message: name !== "Error" && !message.startsWith(name) ? `${name}: ${message}` : message,
    ...(hint ? { hint } : {}),
  };
}

/**
 * The RunError for a thrown error. `failedNode` is the node LangGraph recorded the failure on,
 * for errors that do not name one themselves (a tool module's or provider's own error).
 */
export function toRunError(e: unknown, failedNode?: string): RunError {
  const error = classify(e);
  const node = error.node ?? (error.code === "recursion-limit" ? undefined : failedNode);
  return {
    ...error,
    ...(node ? { node } : {}),
    phase: phaseOf(error.code, node),
  };
}
