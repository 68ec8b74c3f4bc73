/**
 * The tools a spec takes from its MCP servers, as LangChain tools: each server's tools listed
 * through LangChain's adapters (`loadMcpTools`, which converts the server's JSON Schemas and each
 * call's result), over the executor's shared connection (mcp-connections.ts). A server's
 * `tools: all | [..]` gives tools under their own names; a `tools:` entry with `mcp:` renames one,
 * describes it or binds its arguments, as build-tool.ts does for a module's tool.
 */
import type { StructuredToolInterface } from "@langchain/core/tools";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import type { ExprEnvironment } from "../../expr/index.js";
import { isObject } from "../../spec/data.js";
import type { SpecDocument } from "../../spec/document.js";
import { toolsNodesName } from "../../spec/named-tools.js";
import type { GraphSpec } from "../../spec/spec-types.generated.js";
import { buildTool } from "../build-tool.js";
import { CompileError } from "../compile-error.js";
import { GraphspecRunError } from "../graphspec-run-error.js";
import type { ValueCompiler } from "../values.js";
import type { McpConnections } from "./mcp-connections.js";
import { connectionFailure, McpServerConnection } from "./mcp-server-connection.js";
import { mcpServerTarget } from "./mcp-target.js";
import { isMcpTool, usedServers } from "./mcp-usage.js";

type Env = Record<string, string | undefined>;

/** A tool's schema as JSON Schema: the adapters give it as one; a tool with `bind` as one too. */
const jsonSchemaOf = (schema: unknown): Record<string, unknown> =>
  (isObject(schema) && !("_def" in schema) && !("_zod" in schema)
    ? schema
    : toJsonSchema(schema as never)) as Record<string, unknown>;

/** The server's tools as LangChain tools, by their names on the server. */
async function serverTools(
  connection: McpServerConnection,
): Promise<Map<string, StructuredToolInterface>> {
  const { loadMcpTools } = await import("@langchain/mcp-adapters");
  const tools = await loadMcpTools(connection.name, connection.adapterClient as never, {
    throwOnLoadError: true,
  });
  for (const t of tools) {
    const call = t.func;
    // A call the connection failed (server down, timeout) fails the run with the connection's
    // coded error; the adapters would have made it a message for the model.
    t.func = async (...args: Parameters<typeof call>) => {
      const slot: { error?: GraphspecRunError } = {};
      try {
        return await connectionFailure.run(slot, () => call(...args));
      } catch (e) {
        throw slot.error ?? e;
      }
    };
  }
  return new Map(tools.map((t) => [t.name, t as StructuredToolInterface]));
}

/** The spec's MCP tools by the name nodes use, each server connected (once per executor) and listed. */
export async function mcpTools(
  doc: SpecDocument,
  spec: GraphSpec,
  connections: McpConnections,
  expr: ExprEnvironment,
  env: Env,
  values: ValueCompiler,
): Promise<Map<string, StructuredToolInterface>> {
  const found = new Map<string, StructuredToolInterface>();
  const servers = spec.mcp_servers ?? {};
  const listed = new Map<string, Map<string, StructuredToolInterface>>();
  /** The server each tool came from. */
  const fromServer = new Map<string, string>();
  // Two servers may give one name as long as no node names it (taking `all` of two is common).
  const named = toolsNodesName(spec);
  for (const name of usedServers(spec)) {
    const server = servers[name]!;
    const target = mcpServerTarget(doc, name, server, expr, env);
    const connection = connections.connection(
      doc.path,
      name,
      server,
      () =>
        new McpServerConnection(
          name,
          target,
          server.timeout_ms ?? 30_000,
          connections.options.holdProcess !== false,
        ),
    );
    const tools = await serverTools(connection).catch((e: unknown) => {
      if (!(e instanceof GraphspecRunError)) throw e;
      // The graph cannot be built without its tools' schemas: `compile()` throws, an executor
      // fails the run with the cause (run-driver.ts) and the next run tries again.
      throw new CompileError(
        `${doc.file}: ${e.message} [${e.code}]${e.hint ? `\n  hint: ${e.hint}` : ""}`,
        [],
        e,
      );
    });
    listed.set(name, tools);
    const taken =
      server.tools === "all" ? [...tools.keys()] : Array.isArray(server.tools) ? server.tools : [];
    for (const t of taken) {
      const tool = tools.get(t);
      if (!tool) throw missingTool(doc, name, t, tools);
      // A `tools:` entry of the same name is the spec's own choice (a module, or a renamed tool).
      if (Object.hasOwn(spec.tools ?? {}, t)) continue;
      const other = fromServer.get(t);
      const node = other !== undefined && other !== name ? named.get(t) : undefined;
      if (node !== undefined) {
        throw new CompileError(
          `${doc.file}: MCP servers \`${other}\` and \`${name}\` both give a tool \`${t}\`, which node \`${node}\` names: it could call either [name-collision]\n  hint: take it from one server only, or give each its own name with a \`tools:\` entry (\`${name}_${t}: { mcp: ${name}, tool: ${t} }\`)`,
        );
      }
      found.set(t, tool);
      fromServer.set(t, name);
    }
  }
  for (const [name, decl] of Object.entries(spec.tools ?? {})) {
    if (!isMcpTool(decl)) continue;
    const tools = listed.get(decl.mcp);
    if (!tools) {
      throw new CompileError(
        `${doc.file}: tool \`${name}\` names MCP server \`${decl.mcp}\`, which \`mcp_servers\` does not declare`,
      );
    }
    const onServer = decl.tool ?? name;
    const tool = tools.get(onServer);
    if (!tool) throw missingTool(doc, decl.mcp, onServer, tools);
    found.set(name, buildTool(name, decl, tool, values));
    fromServer.set(name, decl.mcp);
  }
  for (const server of listed.keys()) {
    const views = [...found]
      .filter(([name]) => fromServer.get(name) === server)
      .map(([name, t]) => ({
        name,
        description: t.description,
        schema: jsonSchemaOf(t.schema),
      }));
    connections.noteTools(doc.path, server, views);
  }
  return found;
}

function missingTool(
  doc: SpecDocument,
  server: string,
  tool: string,
  tools: Map<string, unknown>,
): CompileError {
  return new CompileError(
    `${doc.file}: MCP server \`${server}\` has no tool \`${tool}\`; it offers: ${[...tools.keys()].join(", ") || "none"}`,
  );
}
