/**
 * Version 0 → 1. Version 0 is synthetic: graphspec never shipped it. It is a plausible earlier
 * shape, kept so that `graphspec migrate` and its tests run a real step (docs/spec.md "Versions
 * and migrate"): the state was called `channels` (LangGraph's word), and a node said its kind with
 * `type` — a word version 1 keeps for a field's value type.
 */
import type { Migration } from "./migration.js";

export const v0ToV1: Migration = {
  from: 0,
  to: 1,
  summary: "`channels` → `state`, a node's `type` → `kind`",
  apply(edit) {
    edit.renameKey(edit.root, "channels", "state");
    const nodes = edit.pair(edit.root, "nodes")?.value;
    for (const [, node] of edit.mapsIn(nodes)) edit.renameKey(node, "type", "kind");
  },
};
