/** Validating values (a tool node's literal arguments) against schemas that code provides. */
import type { ValidateFunction } from "ajv";
import { suggest, withSuggestion } from "../diagnostics/suggest.js";
import { compile, MAX_SAFE_INTEGER } from "./ajv.js";
import type { SchemaProblem } from "./schema-problems.js";
import { decodePointer, EXPECTED, type SchemaPath, valueAt } from "./walk.js";

const validators = new WeakMap<object, ValidateFunction | null>();

/** A validator for a schema that came from code (a tool's arguments), or undefined when Ajv cannot compile it. */
export function validatorFor(schema: object): ValidateFunction | undefined {
  if (!validators.has(schema)) {
    try {
      validators.set(schema, compile(schema));
    } catch {
      validators.set(schema, null);
    }
  }
  return validators.get(schema) ?? undefined;
}

/** `argument \`tags[1]\``, `argument \`filter.status\``: a place in a tool's arguments, as messages name it. */
export const argumentLabel = (path: (string | number)[]): string =>
  `argument \`${path.map((seg, i) => (typeof seg === "number" ? `[${seg}]` : i ? `.${seg}` : seg)).join("")}\``;

/** What a value fails against a validator, at the places inside the value. */
export function valueProblems(
  validate: ValidateFunction,
  value: unknown,
  describeAt: (path: SchemaPath) => string,
): SchemaProblem[] {
  if (validate(value)) return [];
  const out: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const e of validate.errors ?? []) {
    // Alternatives explain themselves through their branches' errors; keep the branches.
    if (e.keyword === "anyOf" || e.keyword === "oneOf" || e.keyword === "if") continue;
    const path = decodePointer(e.instancePath, value);
    const subject = describeAt(path);
    const actual = valueAt(value, path);
    let problem: SchemaProblem;
    switch (e.keyword) {
      case "type":
        problem = {
          path,
          at: "value",
          message: `${subject} must be ${EXPECTED[String(e.params.type)] ?? String(e.params.type)}, not ${describe(actual)}`,
        };
        break;
      case "enum": {
        const allowed = e.params.allowedValues as unknown[];
        const strings = allowed.filter((v): v is string => typeof v === "string");
        problem = {
          path,
          at: "value",
          message: `${subject} must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}`,
          ...withSuggestion(typeof actual === "string" ? suggest(actual, strings) : undefined),
        };
        break;
      }
      case "const":
        problem = {
          path,
          at: "value",
          message: `${subject} must be ${JSON.stringify(e.params.allowedValue)}`,
        };
        break;
      case "maximum":
      case "minimum":
        // The bound every integer has (ajv.ts): say so, rather than quote a 16-digit number.
        if (Math.abs(Number(e.params.limit)) === MAX_SAFE_INTEGER) {
          problem = {
            path,
            at: "value",
            message: `${subject} must be a safe integer (within ±(2^53 − 1)), not ${describe(actual)}`,
            hint: "beyond 2^53 a number loses digits; use a string for larger identifiers",
          };
          break;
        }
        problem = { path, at: "value", message: `${subject} ${e.message ?? "is invalid"}` };
        break;
      case "required":
        problem = {
          path,
          at: "value",
          message: `${subject} is missing \`${String(e.params.missingProperty)}\``,
        };
        break;
      case "additionalProperties":
        problem = {
          path: [...path, String(e.params.additionalProperty)],
          at: "key",
          message: `${describeAt([...path, String(e.params.additionalProperty)])} is not allowed`,
        };
        break;
      default:
        problem = { path, at: "value", message: `${subject} ${e.message ?? "is invalid"}` };
    }
    const key = `${problem.path.join("/")}:${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(problem);
  }
  return out;
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "a mapping";
  if (typeof v === "string") return `the string ${JSON.stringify(v)}`;
  return String(v);
}
