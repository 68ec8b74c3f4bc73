/**
 * The packages graphspec uses only for some features: optional peer dependencies (package.json),
 * as LangGraph does with its checkpointers. A program that only compiles and runs graphs on the
 * memory checkpointer, or a CI job that only validates, installs none of them — no native build,
 * no web server, no drawing or type-generation stack. A feature that needs one loads it through
 * `loadPeer`, which names the packages to install when they are missing.
 */
export const PEER_FEATURES = {
  sqlite: {
    what: "the SQLite checkpointer (the default; `memory` and `postgres` need no SQLite)",
    packages: ["@langchain/langgraph-checkpoint-sqlite"],
  },
  postgres: {
    what: "the PostgreSQL checkpointer and store",
    packages: ["@langchain/langgraph-checkpoint-postgres", "pg"],
  },
  server: {
    what: "the HTTP server (graphspec serve, graphspec dev, startServer)",
    packages: ["hono", "@hono/node-server"],
  },
  watch: {
    what: "hot reload (graphspec dev, createDevExecutor)",
    packages: ["chokidar"],
  },
  layout: {
    what: "drawing a graph as SVG or PNG (graphspec draw)",
    packages: ["@dagrejs/dagre"],
  },
  png: {
    what: "drawing a graph as PNG (graphspec draw --format png)",
    packages: ["@resvg/resvg-js"],
  },
  mcp: {
    what: "tools from MCP servers (a spec's `mcp_servers`, at run time and in graphspec lock)",
    packages: ["@langchain/mcp-adapters", "@modelcontextprotocol/sdk"],
  },
  types: {
    what: "TypeScript types for graphs (graphspec types)",
    packages: ["json-schema-to-typescript"],
  },
} as const satisfies Record<string, { what: string; packages: readonly string[] }>;

export type PeerFeature = keyof typeof PEER_FEATURES;
