/**
 * The code blocks of a markdown file, as a CommonMark reader sees them: ``` and ~~~ fences,
 * fences indented in list items, longer fences around shorter ones, info strings with more than a
 * language (```ts title=x). One parser for every docs test: test/docs.test.ts and
 * test/docs-run.test.ts.
 */
import type { Code, Nodes } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";

export interface CodeBlock {
  /** The info string's first word (`ts` in ```ts title=x); "" when there is none. */
  lang: string;
  /** The rest of the info string. */
  meta: string;
  /** The block's content, ending with a newline. */
  text: string;
  /** 1-based line of the opening fence: what a test names the block by (`docs/cli.md:12`). */
  line: number;
  /** 1-based line of the block's first content line. */
  contentLine: number;
  /** False for an indented (four-space) code block. */
  fenced: boolean;
  /** The reason given by `<!-- not run: <why> -->` on the line before the fence, if any. */
  notRun?: string;
}

const NOT_RUN = /^\s*<!--\s*not run:?\s*(.*?)\s*-->\s*$/;

export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split("\n");
  const blocks: CodeBlock[] = [];
  const visit = (node: Nodes): void => {
    if (node.type === "code") blocks.push(toBlock(node, lines));
    if ("children" in node) for (const child of node.children) visit(child);
  };
  visit(fromMarkdown(markdown));
  return blocks;
}

function toBlock(node: Code, lines: string[]): CodeBlock {
  const line = node.position!.start.line;
  const opening = lines[line - 1]!.trimStart();
  // A list item's marker may precede the fence on its line (`- ```sh`).
  const fenced = /^(?:[-*+]|\d+[.)])?\s*(?:```|~~~)/.test(opening);
  const notRun = NOT_RUN.exec(lines[line - 2] ?? "")?.[1];
  return {
    lang: node.lang ?? "",
    meta: node.meta ?? "",
    text: node.value === "" ? "" : `${node.value}\n`,
    line,
    contentLine: fenced ? line + 1 : line,
    fenced,
    ...(notRun !== undefined && { notRun }),
  };
}
