/**
 * The drawing's marks (src/draw/shapes.ts `ICONS`, which `graphspec draw --format svg` draws too):
 * a breakpoint and a person. Their colours come from style.css (`.icon-breakpoint`, `.icon-person`).
 */
import { h } from "preact";
import { ICONS } from "../../draw/shapes.js";

function Icon(props: { icon: keyof typeof ICONS }) {
  return (
    <g class={`icon icon-${props.icon}`}>
      {ICONS[props.icon].map((part, i) => h(part.tag, { key: i, ...part.attrs }))}
    </g>
  );
}

export function BreakpointIcon() {
  return <Icon icon="breakpoint" />;
}

export function PersonIcon() {
  return <Icon icon="person" />;
}

/** An icon on its own, for the legend. */
export function IconSample(props: { icon: "breakpoint" | "person" }) {
  return (
    <svg width="16" height="16" viewBox="-8 -8 16 16" aria-hidden="true">
      <Icon icon={props.icon} />
    </svg>
  );
}
