/**
 * The browser's DOMParser, as tests call it inside `page.evaluate` (the function runs in Chromium;
 * test/'s tsconfig has no DOM lib, so its type is declared here): just the parts they read.
 */
export interface ParsedElement {
  textContent: string | null;
  getAttribute(name: string): string | null;
}

export interface ParsedDocument {
  documentElement: ParsedElement;
  querySelector(selector: string): ParsedElement | null;
  querySelectorAll(selector: string): ArrayLike<ParsedElement> & Iterable<ParsedElement>;
  getElementsByTagName(name: string): ArrayLike<ParsedElement>;
}

declare global {
  var DOMParser: new () => { parseFromString(text: string, type: string): ParsedDocument };
}
