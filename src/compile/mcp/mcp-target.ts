/**
 * Where an MCP server is, as its `mcp_servers` entry says, templates evaluated: the command,
 * arguments, environment and folder it starts with, or its URL and headers. One function for the
 * executor and for `graphspec lock`, so what lock lists is the server that runs will reach.
 */

import type { ExprEnvironment } from "../../expr/index.js";
import { isTemplate } from "../../expr/index.js";
import { mcpServerCwd } from "../../modules/index.js";
import type { SpecDocument } from "../../spec/document.js";
import { isInside } from "../../spec/inside-root.js";
import type { McpServer } from "../../spec/spec-types.generated.js";
import { activeNode } from "../active-node.js";
import { CompileError } from "../compile-error.js";
import { readsContext } from "../models/run-fields.js";
import type { ServerTarget } from "./mcp-transport.js";

type Env = Record<string, string | undefined>;

/**
 * Where a header that reads the run's `context` gets it: by default from the run making the call
 * (sent with its calls, not with the tool listing); lock passes the `--context` it was given, or
 * `false` when it was given none (such a header is then an error naming the option).
 */
export type HeaderContext = "per-call" | Record<string, unknown> | false;

/** A template's value as text: a string as is, anything else as JSON (never `[object Object]`). */
const asText = (value: unknown): string =>
  typeof value === "string"
    ? value
    : typeof value === "bigint" || typeof value === "number" || typeof value === "boolean"
      ? String(value)
      : JSON.stringify(value);

export function mcpServerTarget(
  doc: SpecDocument,
  name: string,
  server: McpServer,
  expr: ExprEnvironment,
  env: Env,
  headerContext: HeaderContext = "per-call",
): ServerTarget {
  const vars = { env: Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) };
  const fail = (field: string, why: string) =>
    new CompileError(`${doc.file}: \`mcp_servers.${name}.${field}\` ${why}`);
  const evaluate = (field: string, value: string, context?: Record<string, unknown>): string => {
    if (!isTemplate(value)) return value;
    try {
      return asText(
        expr
          .compileTemplate(value, expr.modelsScope())
          .evaluate({ ...vars, context: context ?? {} }),
      );
    } catch (e) {
      const reason = (e as Error).message;
      const missing = /^no such key: (\S+)$/.exec(reason)?.[1];
      if (!missing) throw fail(field, `could not be computed: ${reason}`);
      throw fail(
        field,
        readsContext(value)
          ? `reads \`context.${missing}\`, which ${headerContext === "per-call" ? "the run's context" : "--context"} does not give`
          : `reads the environment variable \`${missing}\`, which is not set (set it, or put it in the project's .env)`,
      );
    }
  };
  if (server.url !== undefined) {
    const headers = Object.entries(server.headers ?? {});
    const fixed = Object.fromEntries(
      headers.filter(([, v]) => !readsContext(v)).map(([k, v]) => [k, evaluate(`headers.${k}`, v)]),
    );
    const perRun = headers.filter(([, v]) => readsContext(v));
    /** The headers sent with a `context` (none: the fixed ones only). */
    const headersFor = (context: Record<string, unknown> | undefined) =>
      context && perRun.length
        ? {
            ...fixed,
            ...Object.fromEntries(
              perRun.map(([k, v]) => [k, evaluate(`headers.${k}`, v, context)]),
            ),
          }
        : fixed;
    if (headerContext !== "per-call") {
      if (perRun.length && !headerContext) {
        throw fail(
          `headers.${perRun[0]![0]}`,
          `reads the run's \`context\`, which \`graphspec lock\` does not have: give the fields it reads with --context '{"field": "value"}' (or --context @file.json)`,
        );
      }
      // Evaluated once, now: lock reports a header it cannot compute before it connects.
      const all = headersFor(headerContext || undefined);
      return { kind: "http", url: server.url, headers: () => all };
    }
    // Listing the tools runs outside any node: headers read from a run's context are sent with
    // the calls that run has, not with the listing.
    return {
      kind: "http",
      url: server.url,
      headers: () => headersFor(activeNode.getStore()?.context),
    };
  }
  const cwd = mcpServerCwd(server as Record<string, unknown>, doc.path);
  if (!isInside(doc.root, cwd))
    throw fail("cwd", `(${server.cwd}) leaves the project root [path-escape]`);
  return {
    kind: "stdio",
    command: server.command!,
    args: server.args ?? [],
    env: Object.fromEntries(
      Object.entries(server.env ?? {}).map(([k, v]) => [k, evaluate(`env.${k}`, v)]),
    ),
    cwd,
  };
}
