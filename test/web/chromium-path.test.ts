/** The page's tests find Chromium or fail saying how to get one: they never skip silently. */
import { describe, expect, it } from "vitest";
import { chromiumPath } from "../support/browser.js";

describe("chromiumPath", () => {
  it("takes GRAPHSPEC_CHROMIUM, else Debian's /usr/bin/chromium", () => {
    expect(chromiumPath({ GRAPHSPEC_CHROMIUM: process.execPath })).toBe(process.execPath);
    expect(chromiumPath({}, process.execPath)).toBe(process.execPath);
  });

  it("fails with what to do when there is none", () => {
    expect(() => chromiumPath({}, "/nonexistent/chromium")).toThrow(
      /need Chromium and found none: install Debian's `chromium` .* or set GRAPHSPEC_CHROMIUM/,
    );
    expect(() => chromiumPath({ GRAPHSPEC_CHROMIUM: "/nonexistent/chrome" })).toThrow(
      "GRAPHSPEC_CHROMIUM is /nonexistent/chrome, which does not exist",
    );
  });
});
