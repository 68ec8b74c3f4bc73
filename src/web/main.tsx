/**
 * The page `graphspec dev` serves at `/`: the graphs of the folder drawn live, runs watched node by
 * node, interrupts answered in forms, threads and their checkpoints. It reaches the server only
 * through the official SDK `Client` (api.ts).
 */
import { render } from "preact";
import { ApiKeyForm } from "./api-key-form.js";
import { GraphList } from "./graphs/graph-list.js";
import { GraphView } from "./graphs/graph-view.js";
import { useAssistants } from "./graphs/use-assistants.js";
import { hrefOf, type Route, useRoute } from "./route.js";
import { RunView } from "./runs/run-view.js";
import { ThreadsView } from "./threads/threads-view.js";
import { focusView, MAIN_ID, useViewFocus } from "./view-focus.js";

function App() {
  const route = useRoute();
  const { list, error, unauthorized, retry } = useAssistants();
  const graph = route.view === "graph" || route.view === "run" ? route.graph : undefined;
  const assistant = list?.find((a) => a.graph_id === graph);
  useViewFocus(route);
  return (
    <>
      {/* The first Tab: past the header and the graph list to the view. Not a hash link, which
          would be read as a route. */}
      <a
        class="skip-link"
        href={`#${MAIN_ID}`}
        onClick={(e) => {
          e.preventDefault();
          focusView();
        }}
      >
        Skip to main content
      </a>
      <header class="top">
        <h1>
          <a href="#/">graphspec dev</a>
        </h1>
        <nav aria-label="Views" class="views">
          <a href="#/" aria-current={route.view !== "threads" ? "page" : undefined}>
            Graphs
          </a>
          <a
            href={hrefOf({ view: "threads" })}
            aria-current={route.view === "threads" ? "page" : undefined}
          >
            Threads
          </a>
        </nav>
        {error ? (
          <p role="status" class="offline">
            The server does not answer: {error}
          </p>
        ) : null}
      </header>
      <div class="layout">
        <aside>
          {list ? (
            <GraphList assistants={list} selected={graph} />
          ) : unauthorized !== undefined ? null : (
            <p>Loading graphs…</p>
          )}
        </aside>
        <main id={MAIN_ID}>
          {unauthorized !== undefined ? (
            <ApiKeyForm message={unauthorized} onKey={retry} />
          ) : (
            body(route, assistant, list !== undefined)
          )}
        </main>
      </div>
    </>
  );
}

function body(
  route: Route,
  assistant: ReturnType<typeof useAssistants>["list"] extends (infer A)[] | undefined
    ? A | undefined
    : never,
  loaded: boolean,
) {
  if (route.view === "threads")
    return <ThreadsView {...(route.thread ? { thread: route.thread } : {})} />;
  if (route.view === "home")
    return <p class="empty-state">Choose a graph to see it drawn, run it, or open its threads.</p>;
  if (!assistant) return loaded ? <p role="alert">No graph named {route.graph}.</p> : null;
  if (route.view === "run")
    return <RunView assistant={assistant} {...(route.thread ? { thread: route.thread } : {})} />;
  return <GraphView assistant={assistant} />;
}

const root = document.getElementById("app")!;
// The "Loading…" line index.html shows until this script runs.
root.replaceChildren();
render(<App />, root);
