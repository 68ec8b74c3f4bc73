/**
 * An SVG drawing as a PNG, rendered here by resvg (@resvg/resvg-js: a prebuilt native binary per
 * platform from npm, no browser, no service) with the system's fonts. resvg does not say whether it
 * found any font, and without one it draws every text as nothing: `fonts` says whether there were
 * font files to load, so the caller can say so rather than hand over a drawing with blank labels.
 */
import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { Resvg } from "@resvg/resvg-js";

/** Where fontconfig, macOS and Windows keep fonts: where resvg's system font search looks. */
export const FONT_DIRS = [
  "/usr/share/fonts",
  "/usr/local/share/fonts",
  join(homedir(), ".fonts"),
  join(homedir(), ".local/share/fonts"),
  "/System/Library/Fonts",
  "/Library/Fonts",
  join(homedir(), "Library/Fonts"),
  ...(process.env.WINDIR ? [join(process.env.WINDIR, "Fonts")] : []),
];

const FONT_FILE = /\.(ttf|otf|ttc|otc)$/i;

/** Whether any of `dirs` holds a font file (searched a few levels down, as fontconfig's trees go). */
export function hasFonts(dirs: readonly string[] = FONT_DIRS, depth = 4): boolean {
  const look = (dir: string, left: number): boolean => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    for (const e of entries) if (e.isFile() && FONT_FILE.test(e.name)) return true;
    if (left > 0)
      for (const e of entries)
        if (e.isDirectory() && look(join(dir, e.name), left - 1)) return true;
    return false;
  };
  return dirs.some((d) => look(d, depth));
}

export interface RenderedPng {
  bytes: Uint8Array;
  width: number;
  height: number;
  /** Whether system fonts were there to draw the text with. */
  fonts: boolean;
}

/** `svg` at `scale` × its size (2 by default: sharp on high-density screens and in docs). */
export function renderPng(svg: string, scale = 2): RenderedPng {
  const resvg = new Resvg(svg, {
    fitTo: { mode: "zoom", value: scale },
    font: { loadSystemFonts: true, defaultFontFamily: "DejaVu Sans" },
  });
  const image = resvg.render();
  return {
    bytes: image.asPng(),
    width: image.width,
    height: image.height,
    fonts: hasFonts(),
  };
}
