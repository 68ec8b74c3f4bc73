/**
 * The types of expression values, as graphspec reasons about them: CEL's types plus records
 * (objects with declared fields) and unions (what a place accepts, e.g. an `append` channel
 * takes a list or one item). They map onto cel-js type declarations in environment.ts.
 */

export type PrimitiveKind =
  | "dyn"
  | "null"
  | "bool"
  | "int"
  | "uint"
  | "double"
  | "string"
  | "bytes"
  | "timestamp"
  | "duration"
  | "type";

export interface PrimitiveType {
  readonly kind: PrimitiveKind;
  /** For strings declared with `enum`: the allowed values (checked on literals). */
  readonly enum?: readonly string[];
}

export interface ListType {
  readonly kind: "list";
  readonly item: ExprType;
}

/** A map with string keys (JSON objects without declared properties). */
export interface MapType {
  readonly kind: "map";
  readonly value: ExprType;
}

/** An object with declared fields; reading any other field is a type error. */
export interface RecordType {
  readonly kind: "record";
  /** A readable, unique-ish name for the CEL type (`State`, `State.meta`, `Output`). */
  readonly name: string;
  readonly fields: Readonly<Record<string, ExprType>>;
  /** Shown instead of the fields in messages (`Message`). */
  readonly label?: string;
  /**
   * Only for what a place accepts (never an expression's own type): fields a value must have to
   * fit, and whether fields beyond `fields` are allowed (a message-like map may carry any).
   */
  readonly required?: readonly string[];
  readonly open?: boolean;
}

/** One of several types: only what a place accepts, never an expression's own type. */
export interface UnionType {
  readonly kind: "union";
  readonly of: readonly ExprType[];
  /** Shown instead of the members in messages. */
  readonly label?: string;
}

/** A CEL type graphspec has no model of (e.g. `optional<int>`); only `dyn` matches it. */
export interface OpaqueType {
  readonly kind: "opaque";
  readonly name: string;
}

export type ExprType = PrimitiveType | ListType | MapType | RecordType | UnionType | OpaqueType;

const prim = (kind: PrimitiveKind): PrimitiveType => Object.freeze({ kind });

export const T = {
  dyn: prim("dyn"),
  null: prim("null"),
  bool: prim("bool"),
  int: prim("int"),
  uint: prim("uint"),
  double: prim("double"),
  string: prim("string"),
  bytes: prim("bytes"),
  timestamp: prim("timestamp"),
  duration: prim("duration"),
  type: prim("type"),
  list: (item: ExprType): ListType => ({ kind: "list", item }),
  map: (value: ExprType): MapType => ({ kind: "map", value }),
  record: (name: string, fields: Record<string, ExprType>, label?: string): RecordType =>
    label === undefined
      ? { kind: "record", name, fields }
      : { kind: "record", name, fields, label },
  union: (of: ExprType[], label?: string): UnionType =>
    label === undefined ? { kind: "union", of } : { kind: "union", of, label },
  stringEnum: (values: readonly string[]): PrimitiveType => ({ kind: "string", enum: values }),
} as const;

/**
 * A chat message as expressions see it. The run-time converts LangChain messages to this view.
 * `type` is "human", "ai", "tool" or "system"; `text` is the content as plain text.
 */
export const MESSAGE_TYPE: RecordType = T.record(
  "Message",
  {
    type: T.string,
    content: T.dyn,
    text: T.string,
    tool_calls: T.list(T.map(T.dyn)),
    tool_call_id: T.string,
    status: T.string,
    name: T.string,
    id: T.string,
  },
  "Message",
);

/** `error` in `on_error.write`. */
export const ERROR_TYPE: RecordType = T.record(
  "Error",
  { message: T.string, type: T.string, node: T.string },
  "Error",
);

/** `env` in `models`: the process environment. */
export const ENV_TYPE: MapType = T.map(T.string);

const MAX_SHOWN_FIELDS = 4;

/** The type as users read it in messages: `list<string>`, `{priority: string, reason: string}`. */
export function formatType(t: ExprType, depth = 0): string {
  switch (t.kind) {
    case "list":
      return `list<${formatType(t.item, depth + 1)}>`;
    case "map":
      return `map<string, ${formatType(t.value, depth + 1)}>`;
    case "record": {
      if (t.label) return t.label;
      const names = Object.keys(t.fields);
      if (depth > 1 || names.length === 0) return names.length ? "{…}" : "{}";
      const shown = names
        .slice(0, MAX_SHOWN_FIELDS)
        .map((n) => `${n}: ${formatType(t.fields[n]!, depth + 1)}`);
      if (names.length > MAX_SHOWN_FIELDS) shown.push("…");
      return `{${shown.join(", ")}}`;
    }
    case "union":
      return t.label ?? t.of.map((m) => formatType(m, depth)).join(" or ");
    case "opaque":
      return t.name;
    case "null":
      return "null";
    default:
      return t.kind;
  }
}

/** Splits a CEL type argument list at top-level commas: "string, list<int>" → two parts. */
function splitTypeArgs(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "<") depth++;
    else if (c === ">") depth--;
    else if (c === "," && depth === 0) {
      out.push(s.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(s.slice(start).trim());
  return out;
}

const CEL_PRIMITIVES: Record<string, PrimitiveType> = {
  dyn: T.dyn,
  null: T.null,
  null_type: T.null,
  bool: T.bool,
  int: T.int,
  uint: T.uint,
  double: T.double,
  string: T.string,
  bytes: T.bytes,
  type: T.type,
  "google.protobuf.Timestamp": T.timestamp,
  "google.protobuf.Duration": T.duration,
};

/**
 * Reads a type name as cel-js reports it (`list<State.meta>`, `map<string, int>`) back into an
 * ExprType; `records` resolves the record names registered in the environment.
 * Type parameters (`list<T>` of an empty list literal) become `dyn`.
 */
export function parseCelType(name: string, records: ReadonlyMap<string, RecordType>): ExprType {
  const s = name.trim();
  const known = CEL_PRIMITIVES[s];
  if (known) return known;
  // cel-js reports list<dyn> and map<dyn, dyn> as bare `list` and `map`.
  if (s === "list") return T.list(T.dyn);
  if (s === "map") return T.map(T.dyn);
  if (/^[A-Z]$/.test(s)) return T.dyn;
  const record = records.get(s);
  if (record) return record;
  const m = /^(list|map|dyn)<(.*)>$/.exec(s);
  if (m) {
    const args = splitTypeArgs(m[2]!);
    if (m[1] === "list" && args.length === 1) return T.list(parseCelType(args[0]!, records));
    if (m[1] === "map" && args.length === 2) {
      const key = parseCelType(args[0]!, records);
      // Maps with non-string keys have no JSON form; graphspec only models string keys.
      return key.kind === "string" || key.kind === "dyn"
        ? T.map(parseCelType(args[1]!, records))
        : { kind: "opaque", name: s };
    }
    if (m[1] === "dyn") return T.dyn;
  }
  return { kind: "opaque", name: s };
}

const keys = new WeakMap<ExprType, string>();

/** A string equal for structurally equal types (records by name and fields). */
function typeKey(t: ExprType): string {
  let key = keys.get(t);
  if (key !== undefined) return key;
  switch (t.kind) {
    case "list":
      key = `list<${typeKey(t.item)}>`;
      break;
    case "map":
      key = `map<${typeKey(t.value)}>`;
      break;
    case "record":
      key = `${t.name}{${Object.entries(t.fields)
        .map(([k, v]) => `${JSON.stringify(k)}:${typeKey(v)}`)
        .join(",")}}${t.required ? `!${JSON.stringify(t.required)}` : ""}${t.open ? "+" : ""}`;
      break;
    case "union":
      key = `(${t.of.map(typeKey).join("|")})`;
      break;
    case "opaque":
      key = `opaque:${t.name}`;
      break;
    default:
      key = t.enum ? `${t.kind}${JSON.stringify(t.enum)}` : t.kind;
  }
  keys.set(t, key);
  return key;
}

const ids = new WeakMap<ExprType, number>();
const idsByKey = new Map<string, number>();
const MAX_IDS = 100_000;
let nextId = 0;

/**
 * A small number equal for structurally equal types, as `typeKey` is: a key made of these stays
 * short where one made of `typeKey`s holds every declared channel (and is hashed on every lookup).
 */
export function typeId(t: ExprType): number {
  let id = ids.get(t);
  if (id !== undefined) return id;
  const key = typeKey(t);
  id = idsByKey.get(key);
  if (id === undefined) {
    // A long-lived process (`graphspec dev`) sees ever new declarations: forget old ones. Numbers
    // keep growing, so a forgotten key never shares its number with another.
    if (idsByKey.size >= MAX_IDS) idsByKey.clear();
    id = nextId++;
    idsByKey.set(key, id);
  }
  ids.set(t, id);
  return id;
}
