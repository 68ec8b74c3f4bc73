/**
 * The node being run, for code that runs inside it without being handed it (tools' `bind`): an
 * AsyncLocalStorage the node wrapper fills, and only when the spec has tools that `bind` values.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export interface ActiveNode {
  node: string;
  state: Record<string, unknown>;
  context: Record<string, unknown>;
  vars: Record<string, unknown>;
}

export const activeNode = new AsyncLocalStorage<ActiveNode>();
