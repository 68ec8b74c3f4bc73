/**
 * Tool errors that fail the run instead of becoming a message for the model: the MCP server is
 * unavailable, or a call timed out. A model cannot fix either by calling again with other
 * arguments, and the run stops at the thread's last checkpoint, to be run again once the server is back.
 */
import { GraphspecRunError } from "./graphspec-run-error.js";

export const failsRun = (e: unknown): e is GraphspecRunError =>
  e instanceof GraphspecRunError && (e.code === "mcp-unavailable" || e.code === "tool-timeout");
