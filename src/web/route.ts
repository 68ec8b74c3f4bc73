/**
 * Where the page is, in its URL's hash, so a view can be linked, reloaded and gone back to:
 * `#/graphs/<graph>`, `#/graphs/<graph>/run[?thread=<id>]`, `#/threads`, `#/threads/<id>`.
 */
import { useEffect, useMemo, useState } from "preact/hooks";

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
  const [hash, setHash] = useState(() => location.hash);
  useEffect(() => {
    const onChange = () => setHash(location.hash);
    addEventListener("hashchange", onChange);
    // The listener starts after the first paint: a hash changed before it (a link followed as the
    // page loads) has had its event already. Read once more; the same hash renders nothing new.
    onChange();
    return () => removeEventListener("hashchange", onChange);
  }, []);
  return useMemo(() => parseRoute(hash), [hash]);
}
