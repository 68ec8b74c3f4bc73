/**
 * Whether a node or a channel may take a new name: one the spec's language accepts there (and
 * CEL, for a channel read as `state.NAME`), not reserved, and not already a node's or a channel's
 * in any spec the rename edits (nodes and channels share one namespace in LangGraph). The reason
 * when not, said as the checker would.
 */
import { relative, sep } from "node:path";
import { isObject } from "../spec/data.js";
import type { SpecDocument } from "../spec/document.js";
import type { NameSection } from "./occurrences.js";

/** A spec's path as the message shows it: from the project's root. */
const shownPath = (doc: SpecDocument) => relative(doc.root, doc.path).split(sep).join("/");

const NODE = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const CHANNEL = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** CEL's reserved words: `state.in` does not parse. */
const CEL_RESERVED = new Set(
  "as break const continue else false for function if import in let loop namespace null package return true var void while".split(
    " ",
  ),
);

/** The channel `llm`, `agent` and `tools` nodes read or write without naming it. */
const MESSAGES = "messages";

/**
 * The nodes of `doc` that use the `messages` channel by that name without writing it in the
 * spec: an `llm` without `write` appends its reply there, an `agent` keeps its transcript there,
 * a `tools` node reads the tool calls from there.
 */
export function implicitMessageUsers(doc: SpecDocument): string[] {
  const spec = isObject(doc.data) ? doc.data : {};
  const nodes = isObject(spec.nodes) ? spec.nodes : {};
  return Object.entries(nodes)
    .filter(
      ([, n]) =>
        isObject(n) &&
        (n.kind === "tools" || n.kind === "agent" || (n.kind === "llm" && n.write === undefined)),
    )
    .map(([name]) => name);
}

/** Why channel `name` of `doc` cannot be renamed at all; undefined when it can. */
export function fixedNameProblem(doc: SpecDocument, name: string): string | undefined {
  if (name !== MESSAGES) return undefined;
  const users = implicitMessageUsers(doc);
  if (users.length === 0) return undefined;
  return `\`${MESSAGES}\` is read and written by that name by ${users.length === 1 ? "node" : "nodes"} ${users.map((u) => `\`${u}\``).join(", ")} (\`llm\` without \`write\`, \`agent\`, \`tools\`): renamed, they would no longer find it`;
}

/** Why `to` cannot name what `section` names in `docs`; undefined when it can. */
export function renameProblem(
  section: NameSection,
  to: string,
  docs: readonly SpecDocument[],
): string | undefined {
  const what = section === "nodes" ? "a node" : "a state channel";
  if (to.length === 0 || to.length > 64) return `${what} name has 1 to 64 characters`;
  if (section === "nodes" && !NODE.test(to))
    return `\`${to}\` is not a node name: use letters, digits, \`_\` and \`-\`, starting with a letter or \`_\``;
  if (section === "state" && !CHANNEL.test(to))
    return `\`${to}\` is not a channel name: use letters, digits and \`_\`, starting with a letter or \`_\` (expressions read it as \`state.${to}\`)`;
  if (section === "state" && CEL_RESERVED.has(to))
    return `\`${to}\` is a reserved word of CEL: \`state.${to}\` would not parse`;
  const keyword = to.toUpperCase();
  if (keyword === "START" || keyword === "END")
    return `\`${to}\` is reserved: it reads like the keyword \`${keyword}\``;
  if (to.startsWith("__"))
    return `\`${to}\` is reserved: names starting with \`__\` belong to LangGraph`;
  for (const doc of docs) {
    const spec = isObject(doc.data) ? doc.data : {};
    for (const [taken, kind] of [
      ["nodes", "node"],
      ["state", "state channel"],
    ] as const)
      if (isObject(spec[taken]) && Object.hasOwn(spec[taken], to))
        return `\`${to}\` is already a ${kind} of \`${shownPath(doc)}\`: nodes and channels share one namespace`;
  }
  for (const doc of docs)
    if (section === "state" && to === MESSAGES && implicitMessageUsers(doc).length)
      return `\`${MESSAGES}\` would become the channel nodes ${implicitMessageUsers(doc)
        .map((u) => `\`${u}\``)
        .join(", ")} of \`${shownPath(doc)}\` read and write without naming it`;
  return undefined;
}
