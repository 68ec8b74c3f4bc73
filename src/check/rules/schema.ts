import type { ErrorObject, ValidateFunction } from "ajv";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { closest, listNames, type Suggestion, suggest } from "../../diagnostics/suggest.js";
import type { SpecDocument } from "../../spec/document.js";
import { diagnosticAtPath } from "../../spec/document.js";
import { CURRENT_VERSION, knownVersion } from "../../spec/migrations/migrate.js";
import generatedValidator from "../../spec/schema-validator.generated.js";
import { pathOfPointer } from "../../spec/source-map.js";
import { allowedKeys, describe, schemaAt } from "../spec-schema-walk.js";

type Path = (string | number)[];

const validateSchema = generatedValidator as unknown as ValidateFunction;

/** Paths whose names a semantic rule checks with a better message than the schema's `propertyNames`. */
const NAME_RULES_OWN = /^\/nodes$/;

const decodePointer = (pointer: string, data: unknown): Path => pathOfPointer(pointer, data);

const where = (path: Path): string => {
  if (path.length === 0) return "the spec";
  if (path[0] === "nodes" && path.length >= 2) return `node \`${path[1]}\``;
  if (path[0] === "state" && path.length >= 2) return `state channel \`${path[1]}\``;
  if (path[0] === "context" && path.length >= 2) return `context value \`${path[1]}\``;
  if (path[0] === "tools" && path.length >= 2) return `tool \`${path[1]}\``;
  if (path[0] === "models" && path.length >= 2) return `model \`${path[1]}\``;
  if (path[0] === "edges" && path.length >= 2) return `edge ${Number(path[1]) + 1}`;
  return `\`${path.join(".")}\``;
};

const typeName = (v: unknown): string =>
  v === null
    ? "null"
    : Array.isArray(v)
      ? "a list"
      : typeof v === "object"
        ? "a mapping"
        : typeof v;

const valueAt = (data: unknown, path: Path): unknown =>
  path.reduce<unknown>(
    (v, seg) => (v as Record<string, unknown> | undefined)?.[seg as string],
    data,
  );

/** Messages for the places where the schema offers alternatives (`oneOf`). */
function alternativesMessage(path: Path, value: unknown): { message: string; hint?: string } {
  const last = path.at(-1);
  if (path[0] === "state" && last === "reducer") {
    return {
      message: `reducer ${JSON.stringify(value)} is not one of replace, append, merge, sum, max, min, union, messages`,
      hint: "or give a function of yours: `reducer: { module: ./reducers.ts, export: name }`",
    };
  }
  if (path[0] === "nodes" && path.length === 3 && (last === "system" || last === "prompt")) {
    const hint = `e.g. \`${last}: { file: prompts/${String(path[1])}.md }\`, a file beside the spec whose text is the template`;
    if (value && typeof value === "object" && !Array.isArray(value)) {
      const other = Object.keys(value).find((k) => k !== "file");
      if (other !== undefined)
        return {
          message: `unknown key \`${other}\` in \`${last}\`: a prompt in its own file is \`{ file: PATH }\``,
          hint,
        };
      return {
        message: Object.hasOwn(value, "file")
          ? `\`${last}: { file }\` must be a path (text), not ${typeName((value as { file: unknown }).file)}`
          : `\`${last}\` is missing \`file\``,
        hint,
      };
    }
    return {
      message: `\`${last}\` must be a template (text) or \`{ file: PATH }\`, not ${typeName(value)}`,
      hint,
    };
  }
  if (last === "write") {
    return {
      message: "`write` must be a state channel name or a mapping from channel to value",
      hint: 'e.g. `write: { notes: "${{ [output.reason] }}" }`',
    };
  }
  if (path[0] === "edges" && (last === "from" || last === "to")) {
    return {
      message: `\`${last}\` must be a node name or a non-empty list of node names, not ${typeName(value)}`,
    };
  }
  if (path[0] === "edges" && path[2] === "route" && path.length === 4) {
    return { message: "a route case is either `{ when: CEL, to: node }` or `{ default: node }`" };
  }
  if (path[0] === "edges" && path.length === 2 && value && typeof value === "object") {
    const forms = ["to", "route", "router", "map"].filter((k) => k in value);
    if (forms.length > 1) {
      return {
        message: `${where(path)} has ${listNames(forms).replace(" or ", " and ")}: an edge has exactly one of them`,
        hint: "split it into one edge per form",
      };
    }
    return {
      message: `${where(path)} has no target: add one of \`to\`, \`route\`, \`router\` or \`map\``,
    };
  }
  return {
    message: `${where(path)} does not match any of the allowed forms`,
    hint: describe(path, undefined),
  };
}

function toDiagnostic(doc: SpecDocument, e: ErrorObject, path: Path): Diagnostic | undefined {
  const data = doc.data;
  const value = valueAt(data, path);
  const d = (p: Path, message: string, hint?: string | Suggestion, at: "key" | "value" = "value") =>
    diagnosticAtPath(
      doc,
      p,
      {
        rule: "schema",
        severity: "error",
        message,
        ...(typeof hint === "object" ? hint : { hint }),
      },
      at,
    );
  switch (e.keyword) {
    case "additionalProperties":
    case "unevaluatedProperties": {
      const key = String(e.params.additionalProperty ?? e.params.unevaluatedProperty);
      const allowed = allowedKeys(path, data) ?? [];
      const hint =
        suggest(key, allowed) ??
        (allowed.length ? `allowed here: ${allowed.join(", ")}` : undefined);
      return d([...path, key], `unknown key \`${key}\` in ${where(path)}`, hint, "key");
    }
    case "required": {
      const key = String(e.params.missingProperty);
      const hint = schemaAt([...path, key], data)?.description;
      return d(path, `${where(path)} is missing \`${key}\``, hint, path.length ? "key" : "value");
    }
    case "enum": {
      const allowed = (e.params.allowedValues as unknown[]).map(String);
      const hint = typeof value === "string" ? suggest(value, allowed) : undefined;
      return d(path, `${JSON.stringify(value)} is not one of ${allowed.join(", ")}`, hint);
    }
    case "const":
      return d(
        path,
        `must be ${JSON.stringify(e.params.allowedValue)}, not ${JSON.stringify(value)}`,
      );
    case "type":
      return d(path, `expected ${e.params.type}, got ${typeName(value)}`, describe(path, data));
    case "pattern":
    case "format":
      return d(
        path,
        // An item of a list is named after its list: "not a valid `allow` item", not "valid 2".
        typeof path.at(-1) === "number"
          ? `${JSON.stringify(value)} is not a valid \`${String(path.at(-2))}\` item`
          : `${JSON.stringify(value)} is not a valid ${String(path.at(-1) ?? "value")}`,
        describe(path, data),
      );
    case "propertyNames":
      return undefined; // reported through the inner error with the bad name
    case "discriminator":
      return undefined; // the enum error on `kind` says it better
    case "minProperties":
      return d(path, `${where(path)} must not be empty`, describe(path, data));
    case "minItems":
      return d(
        path,
        `\`${String(path.at(-1))}\` must have at least ${e.params.limit} item${e.params.limit === 1 ? "" : "s"}`,
      );
    case "uniqueItems":
      return d(
        path,
        `\`${String(path.at(-1))}\` lists ${JSON.stringify(valueAt(data, [...path, e.params.j]))} twice`,
      );
    case "oneOf":
    case "not": {
      const { message, hint } = alternativesMessage(path, value);
      return d(path, message, hint);
    }
    default:
      return d(path, `${where(path)} ${e.message ?? "is invalid"}`);
  }
}

/** What the schema check found, and which of the spec's top-level sections it left unusable. */
export interface SchemaCheck {
  findings: Diagnostic[];
  /**
   * Top-level sections (`nodes`, `state`, ...) that are missing, misspelled (`node:` for
   * `nodes:`) or not of their shape (`nodes: []`), each with the finding that says so. What
   * other rules would say for want of one of them follows from that one mistake
   * (check/rule-sections.ts).
   */
  broken: ReadonlyMap<string, Diagnostic>;
}

/** Checks the document against schema/graph.schema.json; returns diagnostics with positions and hints. */
export function checkSchema(doc: SpecDocument): Diagnostic[] {
  return schemaCheck(doc).findings;
}

/** `checkSchema`, and the sections its findings leave unusable. */
export function schemaCheck(doc: SpecDocument): SchemaCheck {
  const none: ReadonlyMap<string, Diagnostic> = new Map();
  if (doc.data === undefined) return { findings: [], broken: none };
  if (doc.data === null || typeof doc.data !== "object" || Array.isArray(doc.data)) {
    const finding = diagnosticAtPath(doc, [], {
      rule: "schema",
      severity: "error",
      message: `a spec is a mapping with version, name, state, nodes and edges, not ${typeName(doc.data)}`,
      hint: "start from an example in graphs/, or `graphspec schema` for the shape",
    });
    return { findings: [finding], broken: none };
  }
  const version = versionFinding(doc);
  if (version) return { findings: [version], broken: none };
  if (validateSchema(doc.data)) return { findings: [], broken: none };
  return findingsOf(doc, (validateSchema.errors ?? []) as ErrorObject[]);
}

/** Schema keywords that, at a top-level section itself, leave nothing of it for the rules to read. */
const SECTION_UNUSABLE = new Set(["type", "minProperties", "minItems"]);

/** The top-level section an error leaves missing, misspelled or unusable (see `SchemaCheck`). */
function sectionBroken(e: ErrorObject, data: object): string | undefined {
  if (e.instancePath === "" && e.keyword === "additionalProperties") {
    // `node:` beside no `nodes:` is `nodes` misspelled; beside `nodes:` it is only an extra key.
    const meant = closest(String(e.params.additionalProperty), allowedKeys([], data) ?? []);
    return meant !== undefined && !Object.hasOwn(data, meant) ? meant : undefined;
  }
  if (e.instancePath === "" && e.keyword === "required") return String(e.params.missingProperty);
  if (/^\/[^/]+$/.test(e.instancePath) && SECTION_UNUSABLE.has(e.keyword))
    return String(decodePointer(e.instancePath, data)[0]);
  return undefined;
}

/** An error inside an llm or agent node's `system` or `prompt` (group 1: the prompt's pointer). */
const PROMPT_INSIDE = /^(\/nodes\/[^/]+\/(?:system|prompt))\/./;

/** The findings for Ajv's errors (one per mistake, with positions and hints), and the broken sections. */
function findingsOf(doc: SpecDocument, errors: readonly ErrorObject[]): SchemaCheck {
  const data = doc.data as object;
  const broken = new Map<string, Diagnostic>();
  // Where alternatives (oneOf) failed, the branch errors at the same place are noise: keep one message.
  const alternatives = new Set(
    errors.filter((e) => e.keyword === "oneOf" || e.keyword === "not").map((e) => e.instancePath),
  );
  // "missing `type`" says nothing new beside "unknown key `tpye`: did you mean `type`?".
  const misspelt = new Set(
    errors
      .filter((e) => e.keyword === "additionalProperties" || e.keyword === "unevaluatedProperties")
      .map((e) => {
        const key = String(e.params.additionalProperty ?? e.params.unevaluatedProperty);
        const path = decodePointer(e.instancePath, doc.data);
        return `${e.instancePath}/${closest(key, allowedKeys(path, doc.data) ?? [])}`;
      }),
  );
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (alternatives.has(e.instancePath) && e.keyword !== "oneOf" && e.keyword !== "not") continue;
    // Inside a prompt's `{ file }`: the prompt's own message (alternativesMessage) says it.
    const prompt = PROMPT_INSIDE.exec(e.instancePath)?.[1];
    if (prompt !== undefined && alternatives.has(prompt)) continue;
    if (e.keyword === "required" && misspelt.has(`${e.instancePath}/${e.params.missingProperty}`))
      continue;
    if (
      e.keyword === "propertyNames" ||
      (NAME_RULES_OWN.test(e.instancePath) && e.propertyName !== undefined)
    )
      continue;
    let pointer = e.instancePath;
    // A bad property name is reported at that key.
    if (e.propertyName !== undefined)
      pointer += `/${e.propertyName.replaceAll("~", "~0").replaceAll("/", "~1")}`;
    const path = decodePointer(pointer, doc.data);
    const diag =
      e.propertyName !== undefined ? nameDiagnostic(doc, path, e) : toDiagnostic(doc, e, path);
    if (!diag) continue;
    const key = `${diag.line}:${diag.column}:${diag.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(diag);
    const section = sectionBroken(e, data);
    if (section !== undefined) broken.set(section, diag);
  }
  // The catalog is where tools and models may come from.
  const catalog = broken.get("catalog");
  if (catalog) for (const s of ["tools", "models"]) if (!broken.has(s)) broken.set(s, catalog);
  return { findings: out, broken };
}

function nameDiagnostic(doc: SpecDocument, path: Path, e: ErrorObject): Diagnostic {
  const name = String(path.at(-1));
  const hint = describe(path, doc.data) ?? e.message;
  return diagnosticAtPath(
    doc,
    path,
    {
      rule: "schema",
      severity: "error",
      message: `\`${name}\` is not a valid name for ${where(path.slice(0, -1)).replace(/^the spec$/, "a key")}`,
      hint,
    },
    "key",
  );
}

/**
 * A spec of another format version: one finding at `version`, since every other difference from
 * the current schema follows from it. An older one says to run `graphspec migrate`.
 */
function versionFinding(doc: SpecDocument): Diagnostic | undefined {
  const version = (doc.data as { version?: unknown }).version;
  if (typeof version !== "number" || !Number.isInteger(version) || version === CURRENT_VERSION)
    return undefined;
  const newer = version > CURRENT_VERSION;
  if (!newer && !knownVersion(version)) return undefined;
  return diagnosticAtPath(doc, ["version"], {
    rule: "schema",
    severity: "error",
    message: newer
      ? `version ${version} is newer than this graphspec reads (${CURRENT_VERSION})`
      : `version ${version} is an older spec format: this graphspec reads version ${CURRENT_VERSION}`,
    hint: newer
      ? "upgrade graphspec (`npm install graphspec@latest`)"
      : `run \`graphspec migrate ${doc.file}\`: it rewrites the file to version ${CURRENT_VERSION}, keeping its comments and formatting`,
  });
}
