/**
 * A rule's documentation as SARIF viewers show it: GitHub code scanning puts `fullDescription` at
 * the top of an alert and `help` under "Rule help", and refuses neither but flags rules without
 * them (the SARIF multitool's GH2012). Both come from the rule's page, docs/rules/<rule>.md, which
 * ships in the package, so the help a viewer shows is the page the docs test keeps complete.
 */
import { readFileSync } from "node:fs";
import { CATALOG, type RuleName } from "../../diagnostics/rule-catalog.js";

/** Where the rule pages are published; relative links in a page are made absolute against it. */
export const RULE_DOCS = "https://github.com/graphspec/graphspec/blob/main/docs/rules";

/** docs/rules/, from src/cli/format/ as from dist/cli/format/. */
const PAGES = new URL("../../../docs/rules/", import.meta.url);

export interface RuleHelp {
  /** The page's "What" section, first paragraph, as one line of plain text. */
  fullDescription: string;
  /** The whole page: markdown (links absolute) and the same as plain text. */
  markdown: string;
  text: string;
  helpUri: string;
}

/** A rule's help, from its page; the catalog summary (and the page's address) when the page cannot be read. */
export function ruleHelp(rule: RuleName): RuleHelp {
  const helpUri = `${RULE_DOCS}/${rule}.md`;
  let page: string;
  try {
    page = readFileSync(new URL(`${rule}.md`, PAGES), "utf8");
  } catch {
    const summary = CATALOG[rule].summary;
    const text = `${summary}\n\nSee ${helpUri}`;
    return {
      fullDescription: summary,
      markdown: `${summary}\n\nSee [${rule}](${helpUri}).`,
      text,
      helpUri,
    };
  }
  const markdown = absoluteLinks(page.replaceAll("\r\n", "\n").trim(), helpUri);
  return {
    fullDescription: whatParagraph(markdown) || CATALOG[rule].summary,
    markdown,
    text: plainText(markdown),
    helpUri,
  };
}

/** `[x](other-rule.md)`, `[y](../spec.md#a)`, `[z](#why)` point where the page is published. */
function absoluteLinks(markdown: string, pageUri: string): string {
  return markdown.replace(/\]\(([^)\s]+)\)/g, (whole, href: string) =>
    /^[a-z][a-z0-9+.-]*:/i.test(href) ? whole : `](${new URL(href, pageUri).href})`,
  );
}

/** The first paragraph under `## What`, without markdown's link and code marks. */
function whatParagraph(markdown: string): string {
  const section = /^## What\s*\n+([\s\S]*?)(?:\n\s*\n|$)/m.exec(markdown)?.[1] ?? "";
  return plainText(section).replace(/\s+/g, " ").trim();
}

/** Markdown read as text: headings without `#`, links as `text (address)`, inline code marks dropped. */
function plainText(markdown: string): string {
  const out: string[] = [];
  let inFence = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) {
      out.push(`    ${line}`);
      continue;
    }
    out.push(
      line
        .replace(/^#{1,6}\s+/, "")
        .replace(/\[([^\]]*)\]\(([^)\s]+)\)/g, "$1 ($2)")
        .replace(/`+([^`]+)`+/g, "$1")
        .replace(/\*\*([^*]+)\*\*/g, "$1"),
    );
  }
  return out.join("\n");
}
