/**
 * How big a drawing is drawn, and moving around it: "Fit width" (the default: the panel's width,
 * never below a readable size — a wide graph scrolls instead of shrinking its labels), "Fit whole
 * graph" (an overview, however small), "Actual size" and steps of zoom; a drawing larger than its
 * panel pans by scrolling, by dragging, or with the arrow keys once its area has focus. Only the
 * SVG's size changes: its viewBox stays the layout's, so no library and no re-layout.
 */
import type { RefObject } from "preact";
import { useRef } from "preact/hooks";

export type DrawingView = { mode: "width" } | { mode: "whole" } | { mode: "scale"; scale: number };

/**
 * The smallest scale "Fit width" draws at: node names are 13 px in the layout (START and END's
 * 12 px), so they stay 11 px or more on screen.
 */
const READABLE_SCALE = 0.92;
const MIN_SCALE = 0.1;
const MAX_SCALE = 3;
const STEP = 1.25;

/** The SVG's size and style for a view of a drawing `width` × `height` in layout px. */
export function svgSizing(
  view: DrawingView,
  width: number,
  height: number,
): { width: number | string; height?: number; style: Record<string, string> } {
  if (view.mode === "scale")
    return {
      width: Math.round(width * view.scale),
      height: Math.round(height * view.scale),
      style: { maxWidth: "none", maxHeight: "none" },
    };
  const widest = `${Math.max(width * 1.3, 240)}px`;
  if (view.mode === "whole") return { width: "100%", style: { maxWidth: widest } };
  return {
    width: "100%",
    style: { maxWidth: widest, minWidth: `${Math.round(width * READABLE_SCALE)}px` },
  };
}

/** The scale a drawing is shown at now (preserveAspectRatio "meet": the smaller of the two). */
function scaleNow(svg: SVGSVGElement | null, width: number, height: number): number {
  if (!svg || !width || !height) return 1;
  const box = svg.getBoundingClientRect();
  return Math.min(box.width / width, box.height / height) || 1;
}

export function ZoomControls(props: {
  view: DrawingView;
  onView: (v: DrawingView) => void;
  svg: RefObject<SVGSVGElement | null>;
  width: number;
  height: number;
}) {
  const { view, onView } = props;
  const zoom = (by: number) => {
    const now =
      view.mode === "scale" ? view.scale : scaleNow(props.svg.current, props.width, props.height);
    const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, Math.round(now * by * 100) / 100));
    onView({ mode: "scale", scale });
  };
  return (
    <span class="zoom-controls">
      <button type="button" onClick={() => zoom(1 / STEP)}>
        Zoom out
      </button>
      <button type="button" onClick={() => zoom(STEP)}>
        Zoom in
      </button>
      <button
        type="button"
        aria-pressed={view.mode === "width"}
        onClick={() => onView({ mode: "width" })}
      >
        Fit width
      </button>
      <button
        type="button"
        aria-pressed={view.mode === "whole"}
        onClick={() => onView({ mode: "whole" })}
      >
        Fit whole graph
      </button>
      <button
        type="button"
        aria-pressed={view.mode === "scale" && view.scale === 1}
        onClick={() => onView({ mode: "scale", scale: 1 })}
      >
        Actual size
      </button>
      {view.mode === "scale" ? (
        <span class="zoom-level">{Math.round(view.scale * 100)}%</span>
      ) : null}
    </span>
  );
}

/**
 * Dragging the drawing's area scrolls it (a press that moves less than a few px stays a click,
 * so nodes and buttons in it still take clicks).
 */
export function useDragToPan(area: RefObject<HTMLDivElement | null>) {
  const dragged = useRef(false);
  const onPointerDown = (e: PointerEvent) => {
    const el = area.current;
    if (!el || e.button !== 0 || (e.target as Element).closest?.(".toggle")) return;
    const start = { x: e.clientX, y: e.clientY, left: el.scrollLeft, top: el.scrollTop };
    dragged.current = false;
    const move = (m: PointerEvent) => {
      const dx = m.clientX - start.x;
      const dy = m.clientY - start.y;
      if (!dragged.current && Math.abs(dx) + Math.abs(dy) < 4) return;
      dragged.current = true;
      el.scrollLeft = start.left - dx;
      el.scrollTop = start.top - dy;
    };
    const up = () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
  };
  /** Whether the last press was a drag (its click selects nothing). */
  const wasDrag = () => dragged.current;
  return { onPointerDown, wasDrag };
}
