/**
 * Where keyboard focus goes when the page changes under it, so a keyboard or screen reader user
 * is never dropped on `<body>` and made to Tab from the top again: to the new view's heading on
 * each route change (as a link to a new page would land at its top), to the main content from the
 * skip link, and to the run's status after an answer resumes it (run-view.tsx).
 */
import { useEffect, useRef } from "preact/hooks";
import type { Route } from "./route.js";

/** The id of `<main>`, the skip link's target. */
export const MAIN_ID = "main-content";

/** Focuses `el`, making it focusable by script only (`tabindex="-1"`) if it is not already. */
export function focusElement(el: HTMLElement): void {
  if (!el.hasAttribute("tabindex")) el.setAttribute("tabindex", "-1");
  el.focus();
}

/** The main content's heading (the view's `<h2>`), or `<main>` itself when it has none. */
function viewTarget(): HTMLElement | undefined {
  const main = document.getElementById(MAIN_ID);
  return main?.querySelector<HTMLElement>("h2") ?? main ?? undefined;
}

/** Focuses the main content's heading: the skip link's action. */
export function focusView(): void {
  const target = viewTarget();
  if (target) focusElement(target);
}

/** What a route shows: a new key is a new view (the run view's `?thread=` is the same one). */
const viewKey = (r: Route) =>
  r.view === "graph" || r.view === "run"
    ? `${r.view}:${r.graph}`
    : r.view === "threads"
      ? `threads:${r.thread ?? ""}`
      : r.view;

/**
 * On each route change after the first render, focus the new view's heading. A view still
 * loading has none yet: `<main>` takes focus meanwhile, and the heading once it is drawn, unless
 * the person has moved focus elsewhere by then.
 */
export function useViewFocus(route: Route): void {
  const key = viewKey(route);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const main = document.getElementById(MAIN_ID);
    if (!main) return;
    const heading = () => main.querySelector<HTMLElement>("h2");
    const now = heading();
    if (now) return focusElement(now);
    focusElement(main);
    const watch = new MutationObserver(() => {
      const h = heading();
      if (!h) return;
      watch.disconnect();
      const active = document.activeElement;
      if (active === main || active === document.body || !active) focusElement(h);
    });
    watch.observe(main, { childList: true, subtree: true });
    return () => watch.disconnect();
  }, [key]);
}
