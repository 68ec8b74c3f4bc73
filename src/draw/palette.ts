/**
 * The drawing's colours as the web page shows them in its light scheme (src/web/style.css
 * "5. The drawing" holds the same values as CSS variables, with a dark scheme; test/draw checks
 * the two agree), for the drawings made without CSS: `graphspec draw` as Mermaid, SVG and PNG.
 */
export const KIND_FILL: Record<string, string> = {
  start: "#1b1f24",
  end: "#1b1f24",
  llm: "#e3edfd",
  agent: "#ede3fb",
  tools: "#fff1cc",
  tool: "#fff1cc",
  function: "#e1f2e6",
  interrupt: "#fde4e2",
  subgraph: "#dff1f6",
  set: "#eef0f2",
};

export const PALETTE = {
  background: "#ffffff",
  text: "#1b1f24",
  muted: "#57606a",
  /** A node's outline (`--idle`). */
  stroke: "#6e7781",
  /** Text on START/END. */
  onTerminal: "#ffffff",
  labelFill: "#f6f8fa",
  labelStroke: "#d0d7de",
  breakpoint: "#b0211a",
  pauses: "#7d4e00",
} as const;
