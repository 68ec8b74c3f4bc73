import { Lexer } from "yaml";

/** Lexer tokens that mark structure and stand for no source text: document, flow-error end, scalar. */
const CONTROL_TOKENS = new Set(["\x02", "\x18", "\x1f"]);

/**
 * The offset of the first flow collection (`[` or `{`) opened more than `limit` deep, if any.
 * Runs before parsing: the YAML composer recurses per level, and thousands of levels exhaust the
 * stack. Uses the YAML lexer itself, so brackets in strings, comments and block scalars do not
 * count and no quoting trick can hide real ones; texts with few brackets skip the lexing.
 */
export function flowDepthExceeded(text: string, limit: number): number | undefined {
  let brackets = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) brackets++; // [ {
  }
  if (brackets <= limit) return undefined;
  let depth = 0;
  let offset = 0;
  for (const token of new Lexer().lex(text)) {
    if (token === "[" || token === "{") {
      if (++depth > limit) return offset;
    } else if ((token === "]" || token === "}") && depth > 0) depth--;
    if (!CONTROL_TOKENS.has(token)) offset += token.length;
  }
  return undefined;
}
