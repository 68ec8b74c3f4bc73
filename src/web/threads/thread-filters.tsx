/**
 * The thread list's filters: by graph (the thread's `metadata.graph_id`) and by status, sent as
 * `threads.search({ metadata, status })` — the server filters, so the list pages as before and a
 * thread that changes is read again under the same filter.
 */
import type { ThreadStatus } from "@langchain/langgraph-sdk";
import { useAssistants } from "../graphs/use-assistants.js";

export interface ThreadFilter {
  graph: string;
  status: "" | ThreadStatus;
}

const STATUSES: ThreadStatus[] = ["idle", "busy", "interrupted", "error"];

/** The search's fields for a filter: none for "any". */
export const searchOf = (f: ThreadFilter) => ({
  ...(f.graph ? { metadata: { graph_id: f.graph } } : {}),
  ...(f.status ? { status: f.status } : {}),
});

export function ThreadFilters(props: { value: ThreadFilter; onChange: (f: ThreadFilter) => void }) {
  const { list } = useAssistants();
  const graphs = [...new Set((list ?? []).map((a) => a.graph_id))].sort();
  // A graph chosen before the list came (or one gone since) stays choosable.
  if (props.value.graph && !graphs.includes(props.value.graph)) graphs.push(props.value.graph);
  return (
    <search aria-label="Filter threads" class="thread-filters">
      <div class="field">
        <label for="thread-filter-graph">Graph</label>
        <select
          id="thread-filter-graph"
          value={props.value.graph}
          onChange={(e) => props.onChange({ ...props.value, graph: e.currentTarget.value })}
        >
          <option value="">Any graph</option>
          {graphs.map((g) => (
            <option key={g} value={g}>
              {g}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="thread-filter-status">Status</label>
        <select
          id="thread-filter-status"
          value={props.value.status}
          onChange={(e) =>
            props.onChange({
              ...props.value,
              status: e.currentTarget.value as ThreadFilter["status"],
            })
          }
        >
          <option value="">Any status</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
    </search>
  );
}
