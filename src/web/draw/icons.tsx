/**
 * The drawing's marks as SVG shapes, not emoji: a breakpoint (two bars in a disc, like a pause
 * button) and a person (who must answer). Fonts differ; shapes look the same everywhere.
 * Each is drawn centred on (0, 0), about 14 px wide.
 */
export function BreakpointIcon() {
  return (
    <g class="icon icon-breakpoint">
      <circle r={7} />
      <rect x={-3.5} y={-3.5} width={2.5} height={7} />
      <rect x={1} y={-3.5} width={2.5} height={7} />
    </g>
  );
}

export function PersonIcon() {
  return (
    <g class="icon icon-person">
      <circle cy={-3.5} r={3} />
      <path d="M-6,7 C-6,1 6,1 6,7 Z" />
    </g>
  );
}

/** An icon on its own, for the legend. */
export function IconSample(props: { icon: "breakpoint" | "person" }) {
  return (
    <svg width="16" height="16" viewBox="-8 -8 16 16" aria-hidden="true">
      {props.icon === "breakpoint" ? <BreakpointIcon /> : <PersonIcon />}
    </svg>
  );
}
