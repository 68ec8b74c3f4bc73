import { IconSample } from "./icons.js";

/** What the drawing's marks mean: run statuses (colour and glyph), pause points, edge forms. */
const STATUSES = [
  ["idle", "", "not run"],
  ["running", "●", "running"],
  ["done", "✓", "done"],
  ["interrupted", "‖", "interrupted"],
  ["error", "✕", "failed"],
] as const;

export function DrawingLegend() {
  return (
    <figcaption class="legend">
      <ul aria-label="Legend">
        {STATUSES.map(([status, glyph, text]) => (
          <li key={status}>
            <span class={`swatch status-${status}`} aria-hidden="true">
              {glyph}
            </span>
            {text}
          </li>
        ))}
        <li>
          <IconSample icon="breakpoint" /> breakpoint
        </li>
        <li>
          <IconSample icon="person" /> waits for a person
        </li>
        <li>
          <span class="line-sample conditional" aria-hidden="true" /> chosen at run time (label: its
          condition)
        </li>
        <li>
          <span class="line-sample send" aria-hidden="true" /> map: once per item (Send)
        </li>
        <li>
          <span class="join-sample" aria-hidden="true" /> join: waits for every source
        </li>
      </ul>
    </figcaption>
  );
}
