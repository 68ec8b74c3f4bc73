/**
 * Where the page is, in its URL's hash, so a view can be linked, reloaded and gone back to:
 * `#/graphs/<graph>`, `#/graphs/<graph>/run[?thread=<id>]`, `#/threads`, `#/threads/<id>`.
 */
import { useEffect, useState } from "preact/hooks";

export type Route =
  | { view: "graph"; graph: string }
  | { view: "run"; graph: string; thread?: string }
  | { view: "threads"; thread?: string }
  | { view: "home" };

export function parseRoute(hash: string): Route {
  const [path = "", query = ""] = hash.replace(/^#/, "").split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  const params = new URLSearchParams(query);
  if (parts[0] === "graphs" && parts[1]) {
    if (parts[2] === "run") {
      const thread = params.get("thread") ?? undefined;
      return { view: "run", graph: parts[1], ...(thread ? { thread } : {}) };
    }
    return { view: "graph", graph: parts[1] };
  }
  if (parts[0] === "threads") return { view: "threads", ...(parts[1] ? { thread: parts[1] } : {}) };
  return { view: "home" };
}

export function hrefOf(route: Route): string {
  const e = encodeURIComponent;
  switch (route.view) {
    case "graph":
      return `#/graphs/${e(route.graph)}`;
    case "run":
      return `#/graphs/${e(route.graph)}/run${route.thread ? `?thread=${e(route.thread)}` : ""}`;
    case "threads":
      return `#/threads${route.thread ? `/${e(route.thread)}` : ""}`;
    default:
      return "#/";
  }
}

export const navigate = (route: Route) => {
  location.hash = hrefOf(route);
};

/** The current route, following the hash. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    addEventListener("hashchange", onChange);
    return () => removeEventListener("hashchange", onChange);
  }, []);
  return route;
}
