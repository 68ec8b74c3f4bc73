import { createRequire } from "node:module";
import type * as JsoncParser from "jsonc-parser";
import type { ParseError } from "jsonc-parser";
import type { Span } from "./source-map.js";

let jsonc: typeof JsoncParser | undefined;
/**
 * jsonc-parser loads with the first `.json` spec: a YAML spec never needs it. Its main entry is
 * CommonJS (the one `import` loaded too), so `require` loads it where it is first needed.
 */
const jsoncParser = (): typeof JsoncParser =>
  (jsonc ??= createRequire(import.meta.url)("jsonc-parser") as typeof JsoncParser);
const printParseErrorCode = (code: ParseError["error"]): string =>
  jsoncParser().printParseErrorCode(code);

export interface JsonSyntaxError {
  span: Span;
  message: string;
  hint?: string;
}

/**
 * The first strict-JSON syntax error in `text`, if any. The YAML parser reads JSON too, but it
 * accepts what JSON does not (trailing commas, comments, single quotes, bare words), so `.json`
 * files are held to JSON here first. Only the first error is reported: later ones cascade from it.
 */
export function firstJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const errors: ParseError[] = [];
  jsoncParser().parse(text, errors, {
    allowTrailingComma: false,
    disallowComments: true,
    allowEmptyContent: false,
  });
  const first = errors[0];
  if (!first) return undefined;
  const span: Span = [first.offset, first.offset + Math.max(first.length, 1)];
  const comma = trailingComma(text, first);
  if (comma !== undefined)
    return {
      span: [comma, comma + 1],
      message: "JSON does not allow a trailing comma",
      hint: "remove the comma",
    };
  if (!text.trim())
    return { span: [0, 0], message: "the file is empty", hint: "a spec is a JSON object" };
  return { span, ...describe(printParseErrorCode(first.error), text.slice(span[0], span[1])) };
}

/** A `,` right before the place where a property name or value was expected and `}` or `]` stands. */
function trailingComma(text: string, e: ParseError): number | undefined {
  if (!["PropertyNameExpected", "ValueExpected"].includes(printParseErrorCode(e.error)))
    return undefined;
  if (text[e.offset] !== "}" && text[e.offset] !== "]") return undefined;
  let i = e.offset - 1;
  while (i >= 0 && /\s/.test(text[i]!)) i--;
  return text[i] === "," ? i : undefined;
}

function describe(code: string, found: string): { message: string; hint?: string } {
  const at = found.trim() ? ` \`${found.slice(0, 20)}\`` : "";
  switch (code) {
    case "InvalidCommentToken":
      return { message: "JSON does not allow comments", hint: "remove the comment, or use YAML" };
    case "PropertyNameExpected":
      return {
        message: `expected a property name in double quotes, found${at || " nothing"}`,
        hint: 'quote the key: `"name": ...`',
      };
    case "ValueExpected":
      return {
        message: `expected a value, found${at || " the end of the file"}`,
        hint: "strings need double quotes; the literals are true, false and null",
      };
    case "ColonExpected":
      return { message: `expected \`:\` after the property name, found${at}` };
    case "CommaExpected":
      return { message: `expected \`,\` between items, found${at}`, hint: "add a comma" };
    case "CloseBraceExpected":
      return { message: "expected `}` to close the object", hint: "close the bracket" };
    case "CloseBracketExpected":
      return { message: "expected `]` to close the array", hint: "close the bracket" };
    case "EndOfFileExpected":
      return {
        message: `expected the end of the file, found${at}`,
        hint: "one file holds one JSON value",
      };
    case "UnexpectedEndOfString":
      return { message: "unterminated string", hint: 'close the string with `"`' };
    case "UnexpectedEndOfComment":
      return { message: "unterminated comment" };
    case "UnexpectedEndOfNumber":
    case "InvalidNumberFormat":
      return { message: `invalid number${at}` };
    case "InvalidUnicode":
      return { message: "invalid `\\u` escape: it needs four hex digits" };
    case "InvalidEscapeCharacter":
      return { message: `invalid escape${at} in a string` };
    case "InvalidCharacter":
      return {
        message: "invalid character in a string",
        hint: "control characters such as tabs and newlines must be escaped (`\\t`, `\\n`)",
      };
    default:
      // InvalidSymbol: a word or character JSON has no token for.
      if (found.startsWith("'"))
        return {
          message: "JSON strings need double quotes, not single quotes",
          hint: `write "${found.slice(1, -1).slice(0, 20)}"`,
        };
      return {
        message: `unexpected${at || " character"}`,
        hint: "strings need double quotes; the literals are true, false and null",
      };
  }
}
