/**
 * What counts as a secret in config data, and how to keep it out of what graphspec prints,
 * returns or stores: entries under secret-looking keys (`api_key`, `token`, `password`, …) are
 * left out of what is stored, and their values are scrubbed from any text (an error message that
 * quotes a key).
 */
import { isObject } from "./data.js";

/**
 * Keys whose values are secrets: `api_key`, `OPENAI_API_KEY`, `authToken`, `db_password`,
 * `DATABASE_URL`, … — but not `max_tokens` or `tokens_used`, which count tokens.
 */
const SECRET_KEY =
  /(api[_-]?key|token(?!s)|secret|passw(or)?d|pwd|credential|authorization|private[_-]?key|cookie|dsn|database[_-]?url|conn(ection)?[_-]?string)/i;

export const isSecretKey = (key: string): boolean => SECRET_KEY.test(key);

/** The string values under secret-looking keys, at any depth. */
export function secretValues(value: unknown, key = ""): string[] {
  if (typeof value === "string") return isSecretKey(key) && value ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((v) => secretValues(v, key));
  if (isObject(value)) return Object.entries(value).flatMap(([k, v]) => secretValues(v, k));
  return [];
}

/**
 * A function that replaces every occurrence of the given secrets in the strings of a value (at
 * any depth) with `***`. Values shorter than 4 characters are left alone: scrubbing `1` or `on`
 * from every message would hide more than it protects.
 */
export function scrubber(secrets: Iterable<string>): <T>(value: T) => T {
  const list = [...new Set(secrets)]
    .filter((s) => s.length >= 4)
    .sort((a, b) => b.length - a.length);
  const text = (s: string) => list.reduce((m, secret) => m.split(secret).join("***"), s);
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return list.length ? text(value) : value;
    if (Array.isArray(value)) return value.map(walk);
    if (isObject(value))
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  return <T>(value: T) => (list.length ? (walk(value) as T) : value);
}

/** The data without the entries under secret-looking keys (at any depth): for storing. */
export function withoutSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutSecrets) as T;
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !isSecretKey(k))
      .map(([k, v]) => [k, withoutSecrets(v)]),
  ) as T;
}
