/** Values shown in error messages: short and JSON-like, whatever the value. */

/** A short, JSON-like rendering of a value for an error message. */
export function preview(value: unknown, max = 80): string {
  let text: string;
  try {
    text =
      typeof value === "string"
        ? JSON.stringify(value)
        : value === undefined
          ? "undefined"
          : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
