/** Assignability between expression types: whether a value of one type may stand where another is required. */
import type { ExprType, RecordType } from "./types.js";

export interface AssignOptions {
  /** Whether `null` is accepted (writing null clears a channel; a `when` must be a real bool). */
  nullable?: boolean;
}

/**
 * Whether a value of type `actual` may stand where `expected` is required.
 * `dyn` on either side passes (checked at run time); an int passes where a double is expected;
 * records compare by their fields, so a record with fewer fields fits a wider one (a partial
 * `merge`), but a field the target does not declare does not — unless the target is `open` —
 * and one the target `required` must be there.
 */
export function isAssignable(
  actual: ExprType,
  expected: ExprType,
  options: AssignOptions = {},
): boolean {
  if (expected.kind === "dyn" || actual.kind === "dyn") return true;
  if (expected.kind === "union") return expected.of.some((m) => isAssignable(actual, m, options));
  if (actual.kind === "null") return options.nullable === true || expected.kind === "null";
  const inner = { nullable: true };
  switch (expected.kind) {
    case "double":
      return actual.kind === "double" || actual.kind === "int" || actual.kind === "uint";
    case "int":
      return actual.kind === "int" || actual.kind === "uint";
    case "list":
      return actual.kind === "list" && isAssignable(actual.item, expected.item, inner);
    case "map":
      if (actual.kind === "map") return isAssignable(actual.value, expected.value, inner);
      if (actual.kind === "record")
        return Object.values(actual.fields).every((f) => isAssignable(f, expected.value, inner));
      return false;
    case "record":
      if (actual.kind === "record") return recordFits(actual, expected);
      // A map's keys are unknown until run time: accept it when its values fit some field (and
      // every field the target requires).
      if (actual.kind === "map")
        return expected.required?.length
          ? expected.required.every((n) =>
              isAssignable(actual.value, expected.fields[n] ?? actual.value, inner),
            )
          : Object.values(expected.fields).some((f) => isAssignable(actual.value, f, inner));
      return false;
    case "opaque":
      return actual.kind === "opaque" && actual.name === expected.name;
    default:
      return actual.kind === expected.kind;
  }
}

function recordFits(actual: RecordType, expected: RecordType): boolean {
  if (actual === expected) return true;
  if (expected.required?.some((name) => !Object.hasOwn(actual.fields, name))) return false;
  for (const [name, type] of Object.entries(actual.fields)) {
    const target = expected.fields[name];
    if (!target) {
      if (expected.open) continue;
      return false;
    }
    if (!isAssignable(type, target, { nullable: true })) return false;
  }
  return true;
}
