/**
 * What counts as a secret in config data, and how to keep it out of what graphspec prints,
 * returns or stores: entries under secret-looking keys (`api_key`, `token`, `password`, `auth`,
 * `creds`, …) and everything nested under them are left out of what is stored, and their values
 * are replaced by `***` in any text or data (an error message that quotes a key).
 */
import { isObject } from "./data.js";

/**
 * Secret markers found anywhere in a name once its separators are dropped (`db_password`,
 * `DBPassword`, `OPENAI_API_KEY`, `x-api-key`, `authToken`): long enough not to turn up inside
 * harmless words. `token` is not followed by what counts tokens (`max_tokens`, `tokenUsage`,
 * `token_count`, `tokenizer`).
 */
const SECRET_INSIDE =
  /(api|private|signing|encryption|master)_?key|secret|passw(or)?d|passphrase|passcode|credential|authori[sz]ation|authentication|cookie|database_?url|conn(ection)?_?str(ing)?|token(?!s|i[sz]e|_?(usage|count|limit|budget|type))/;

/** Short markers that count only as a whole word of the name: `auth`, `pass`, `creds`, `dsn`, … */
const SECRET_WORDS = new Set([
  "auth",
  "oauth",
  "authn",
  "pass",
  "pwd",
  "cred",
  "creds",
  "dsn",
  "jwt",
  "bearer",
  "sig",
]);

/** The words of a name: `authToken` → auth, token; `DB_PWD` → db, pwd; `x-api-key` → x, api, key. */
const wordsOf = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/**
 * Whether values under this key are secrets: `api_key`, `OPENAI_API_KEY`, `authToken`, `auth`,
 * `pass`, `creds`, `db_password`, `DB_PWD`, `DATABASE_URL`, … — but not `max_tokens` or
 * `tokens_used`, which count tokens, not `author` or `passenger`, and not `PWD` (the shell's
 * working directory: `pwd` is a secret only as part of a longer name).
 */
export function isSecretKey(key: string): boolean {
  const words = wordsOf(key);
  if (SECRET_INSIDE.test(words.join("_")) || SECRET_INSIDE.test(words.join(""))) return true;
  return words.some((w) => SECRET_WORDS.has(w) && !(w === "pwd" && words.length === 1));
}

/** The password of a URL with credentials (`postgres://app:PASSWORD@db/x`), as written and decoded. */
export function urlPassword(text: string): string[] {
  if (!text.includes("@") || !/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return [];
  try {
    const raw = new URL(text).password;
    if (!raw) return [];
    const decoded = decodeURIComponent(raw);
    return decoded === raw ? [raw] : [raw, decoded];
  } catch {
    return [];
  }
}

/**
 * The values under secret-looking keys, at any depth: every string (and number) under such a key,
 * however deeply nested (`creds: { user, token }` gives both), with the password of a URL among
 * them on its own too. `secretKeys` names more keys to treat so at the top level (context fields
 * declared `secret: true`).
 */
export function secretValues(
  value: unknown,
  secretKeys: ReadonlySet<string> = NONE,
  under = false,
): string[] {
  if (typeof value === "string") return under && value ? [value, ...urlPassword(value)] : [];
  if (typeof value === "number" || typeof value === "bigint") return under ? [String(value)] : [];
  if (Array.isArray(value)) return value.flatMap((v) => secretValues(v, NONE, under));
  if (isObject(value)) {
    return Object.entries(value).flatMap(([k, v]) =>
      secretValues(v, NONE, under || secretKeys.has(k) || isSecretKey(k)),
    );
  }
  return [];
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Values shorter than this are never masked: scrubbing `1` or `on` from every message and every
 * stored value would hide more than it protects (and a four-character secret is no secret).
 */
export const MIN_SECRET_LENGTH = 4;

/** What replaces a secret. */
export const MASK = "***";

/** Replaces secrets, at any depth of plain data, with `***`; `secrets` is what it looks for. */
export interface Scrub {
  <T>(value: T): T;
  /** The secrets, longest first (none shorter than MIN_SECRET_LENGTH); empty: nothing to do. */
  readonly secrets: readonly string[];
  /** The text with every secret replaced. */
  text(s: string): string;
}

const isPlain = (v: unknown): v is Record<string, unknown> => {
  if (!isObject(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * A Scrub for these secrets. It walks arrays and plain objects (values, not keys); other objects
 * (class instances) pass as they are.
 */
export function scrubber(secrets: Iterable<string>): Scrub {
  const list = [...new Set(secrets)]
    .filter((s) => s.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  const text = (s: string) =>
    list.reduce((m, secret) => (m.includes(secret) ? m.split(secret).join(MASK) : m), s);
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return text(value);
    if (Array.isArray(value)) return value.map(walk);
    if (isPlain(value))
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  const scrub = <T>(value: T): T => (list.length ? (walk(value) as T) : value);
  return Object.assign(scrub, { secrets: list, text: list.length ? text : (s: string) => s });
}

/**
 * The data without the entries under secret-looking keys (at any depth), nor the top-level keys
 * in `secretKeys`: for storing.
 */
export function withoutSecrets<T>(value: T, secretKeys: ReadonlySet<string> = NONE): T {
  if (Array.isArray(value)) return value.map((v) => withoutSecrets(v)) as T;
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !isSecretKey(k) && !secretKeys.has(k))
      .map(([k, v]) => [k, withoutSecrets(v)]),
  ) as T;
}
