/** Edge labels longer than this are cut: the drawing stays readable, the full text is the edge's title. */
const LABEL_MAX_CHARS = 40;

/**
 * The shown label of a label: long CEL conditions are cut (the full text is the edge's title), by
 * code points so an emoji is never split into half a surrogate pair. Apart from the layout (dagre)
 * so that Mermaid output needs no layout package.
 */
export const shortLabel = (text: string, max = LABEL_MAX_CHARS) => {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : text;
};
