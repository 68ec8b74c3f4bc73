/**
 * What a client may read in an error: its own thread ids and project-relative paths. The executor
 * names threads by their stored id (`alpha/appr`: the tenant's scope in front) and specs by their
 * absolute path (`/srv/app/graphs/x.yaml`); a tenant learns neither from the server.
 */
import { sep } from "node:path";
import type { RunFailure } from "./run-failure.js";

export interface ClientView {
  /** The project root: paths under it are shown relative to it. */
  root: string | undefined;
  /** Stored thread ids this request or run named, to their client ids. */
  threads: ReadonlyMap<string, string>;
}

/** `text` with stored thread ids (as messages quote them, in backticks) and the root's path rewritten. */
export function clientText(text: string, view: ClientView): string {
  let out = text;
  // Longest first: `alpha/a/b` is not rewritten through `alpha/a`.
  const ids = [...view.threads]
    .filter(([s, c]) => s !== c)
    .sort((a, b) => b[0].length - a[0].length);
  for (const [stored, client] of ids) out = out.replaceAll(`\`${stored}\``, `\`${client}\``);
  if (view.root && view.root !== sep) {
    const root = view.root.endsWith(sep) ? view.root.slice(0, -1) : view.root;
    // The root itself, not a sibling that starts like it (`/srv/app` in `/srv/application`).
    const bare = new RegExp(`${root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w.-])`, "g");
    out = out.replaceAll(`${root}${sep}`, "").replace(bare, ".");
  }
  return out;
}

export function clientFailure(f: RunFailure, view: ClientView): RunFailure {
  return {
    ...f,
    message: clientText(f.message, view),
    ...(f.hint !== undefined ? { hint: clientText(f.hint, view) } : {}),
  };
}
