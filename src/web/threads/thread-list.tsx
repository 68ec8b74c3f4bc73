/**
 * The server's threads, newest update first, a page at a time ("More" asks for the next one),
 * filtered by graph and status (thread-filters.tsx); read again, as many as shown, under the same
 * filter, when the server says a thread changed (page-events.ts).
 */
import type { Thread } from "@langchain/langgraph-sdk";
import { useEffect, useRef, useState } from "preact/hooks";
import { client } from "../api.js";
import { latestOnly } from "../latest-only.js";
import { onPageEvent } from "../page-events.js";
import { hrefOf } from "../route.js";
import { failureText } from "./api-failure.js";
import { searchOf, type ThreadFilter, ThreadFilters } from "./thread-filters.js";

export const PAGE = 20;

export function ThreadList() {
  const [threads, setThreads] = useState<Thread[] | undefined>(undefined);
  const [more, setMore] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [filter, setFilter] = useState<ThreadFilter>({ graph: "", status: "" });
  // Read by the event handler set up once: a change re-reads under the filter shown now.
  const filterNow = useRef(filter);
  filterNow.current = filter;

  // Each read's number: an answer that comes after a newer read began (another filter) is dropped.
  const reads = useRef(0);
  const load = async (offset: number, limit = PAGE) => {
    const read = ++reads.current;
    setBusy(true);
    try {
      const page = await client.threads.search({
        limit,
        offset,
        sortBy: "updated_at",
        sortOrder: "desc",
        ...searchOf(filterNow.current),
      });
      if (read !== reads.current) return;
      setThreads((shown) => (offset ? [...(shown ?? []), ...page] : page));
      setMore(page.length === limit);
      setError(undefined);
    } catch (e) {
      setError(failureText(e));
    } finally {
      setBusy(false);
    }
  };
  // As many as are shown: a thread moved up, or a new one, does not lose the pages read with "More".
  const shown = useRef(PAGE);
  shown.current = Math.max(PAGE, threads?.length ?? 0);
  useEffect(() => {
    const readAgain = latestOnly(() => load(0, shown.current));
    return onPageEvent((e) => {
      if (e.type === "thread" || e.type === "resync") readAgain();
    });
  }, []);
  // The first read, and a new one (from the first page) for each filter chosen.
  useEffect(() => {
    setThreads(undefined);
    load(0);
  }, [filter.graph, filter.status]);

  const filtered = filter.graph !== "" || filter.status !== "";
  return (
    <>
      <ThreadFilters value={filter} onChange={setFilter} />
      {error ? <p role="alert">Cannot list the threads: {error}</p> : null}
      {threads === undefined ? (
        error ? null : (
          <p>Loading threads…</p>
        )
      ) : threads.length === 0 ? (
        <p class="empty-state">
          {filtered
            ? "No thread matches these filters."
            : "No threads yet: run a graph to start one."}
        </p>
      ) : (
        <table class="threads" aria-label="Threads">
          <thead>
            <tr>
              <th scope="col">Thread</th>
              <th scope="col">Graph</th>
              <th scope="col">Status</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {threads.map((t) => (
              <ThreadRow key={t.thread_id} thread={t} />
            ))}
          </tbody>
        </table>
      )}
      {more ? (
        <button type="button" onClick={() => load(threads?.length ?? 0)} disabled={busy}>
          More
        </button>
      ) : null}
    </>
  );
}

function ThreadRow(props: { thread: Thread }) {
  const t = props.thread;
  const graph = typeof t.metadata?.graph_id === "string" ? t.metadata.graph_id : undefined;
  return (
    <tr>
      <th scope="row">
        <a href={hrefOf({ view: "threads", thread: t.thread_id })} title={t.thread_id}>
          <code class="long-id">{t.thread_id}</code>
        </a>
      </th>
      <td>{graph ? <a href={hrefOf({ view: "graph", graph })}>{graph}</a> : "—"}</td>
      <td>
        <ThreadStatus status={t.status} />
      </td>
      <td>
        <When at={t.updated_at} />
      </td>
    </tr>
  );
}

export function ThreadStatus(props: { status: string }) {
  return <span class={`thread-status status-${props.status}`}>{props.status}</span>;
}

/** A time, in the reader's locale, with the exact one kept in `datetime`. */
export function When(props: { at: string | null | undefined }) {
  if (!props.at) return <span>—</span>;
  return <time dateTime={props.at}>{new Date(props.at).toLocaleString()}</time>;
}
