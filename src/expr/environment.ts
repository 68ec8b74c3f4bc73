/**
 * One spec's expression environment: the `state` and `context` types made from its
 * declarations, and a cel-js Environment per scope, each made once and reused for every
 * expression checked or compiled in that scope.
 */
import { Environment } from "@marcbachmann/cel-js";
import { type CelErrorLike, diagnose } from "./diagnose.js";
import { type ExprProblem, ExprSyntaxError, problemError } from "./expr-error.js";
import { recordOfFields } from "./from-schema.js";
import { EXPR_LIMITS } from "./limits.js";
import { literalProblems } from "./literal-checks.js";
/** Mixed list and map literals (`{"q": "x", "n": 1}`) are common in payloads: type them as dyn, do not reject them. */
import { withNumericEquality } from "./numeric-equality.js";
import {
  type CompiledExpression,
  type CompiledTemplate,
  compileProgram,
  compileTemplateProgram,
  type ProgramOptions,
} from "./program.js";
import type { Scope } from "./scope.js";
import { type ParsedTemplate, parseTemplate } from "./template.js";
import {
  ENV_TYPE,
  ERROR_TYPE,
  type ExprType,
  MESSAGE_TYPE,
  parseCelType,
  type RecordType,
  T,
  typeId,
} from "./types.js";

const CEL_OPTIONS = { homogeneousAggregateLiterals: false, limits: EXPR_LIMITS.cel };

/** Types every spec shares live in the root, registered once per process. */
let root: TypedEnv | undefined;
const rootEnv = (): TypedEnv => {
  if (!root) {
    root = new TypedEnv(undefined);
    for (const t of [MESSAGE_TYPE, ERROR_TYPE]) root.typeName(t);
  }
  return root;
};

let functionNames: ReadonlySet<string> | undefined;
const celFunctions = (): ReadonlySet<string> => {
  functionNames ??= new Set(
    rootEnv()
      .cel.getDefinitions()
      .functions.map((f) => f.name),
  );
  return functionNames;
};

export type CheckResult = { ok: true; type: ExprType } | { ok: false; problem: ExprProblem };

export interface TemplateCheck {
  /** The parsed template; undefined when it does not parse. */
  template: ParsedTemplate | undefined;
  /** The template's type: the expression's for a whole `${{ expr }}`, else string. Undefined on problems. */
  type: ExprType | undefined;
  /** Problems, with offsets in the template text. */
  problems: ExprProblem[];
}

/** A cel-js environment with graphspec record types registered under readable names. */
class TypedEnv {
  readonly cel: Environment;
  readonly records: Map<string, RecordType>;
  private readonly names: Map<RecordType, string>;
  /** Check results by source (problems also by place: their messages name it). */
  readonly checked = new Map<string, CheckResult>();

  constructor(parent: TypedEnv | undefined) {
    this.cel = parent ? parent.cel.clone() : withNumericEquality(new Environment(CEL_OPTIONS));
    this.records = new Map(parent?.records);
    this.names = new Map(parent?.names);
  }

  /** The CEL type name of `t`, registering the records it contains. */
  typeName(t: ExprType): string {
    switch (t.kind) {
      case "list":
        return `list<${this.typeName(t.item)}>`;
      case "map":
        return `map<string, ${this.typeName(t.value)}>`;
      case "record":
        return this.register(t);
      case "timestamp":
        return "google.protobuf.Timestamp";
      case "duration":
        return "google.protobuf.Duration";
      case "union":
      case "opaque":
      case "null":
      case "type":
        return "dyn";
      default:
        return t.kind;
    }
  }

  private register(record: RecordType): string {
    const known = this.names.get(record);
    if (known) return known;
    const fields: Record<string, string> = {};
    for (const [key, type] of Object.entries(record.fields)) fields[key] = this.typeName(type);
    const base = record.name.replace(/[^\w.[\]#-]/g, "_").padEnd(2, "_");
    let name = base;
    for (let n = 2; this.records.has(name); n++) name = `${base}_${n}`;
    this.cel.registerType(name, { fields });
    this.records.set(name, record);
    this.names.set(record, name);
    return name;
  }
}

/** Environments of recently seen declarations: a repository's specs often share them. */
const RECENT = new Map<string, ExprEnvironment>();
const RECENT_MAX = 32;
/** Caches inside one environment stay bounded in long-lived processes (`graphspec dev`). */
const MAX_SCOPE_ENVS = 256;
const MAX_CHECKED = 4096;

export class ExprEnvironment {
  /** The type of `state`: a closed record of the declared channels. */
  readonly state: RecordType;
  /** The type of `context`: a closed record of the declared context values. */
  readonly context: RecordType;
  private readonly specTypes: TypedEnv;
  /** Scope environments by the structure of their variables, so equal scopes share one. */
  private readonly scopeEnvs = new Map<string, TypedEnv>();
  /** The same, by the variables object: a scope without locals shares one (`scope()`). */
  private readonly envsByVariables = new WeakMap<object, TypedEnv>();
  /** `state` and `context` alone: the variables of every scope without locals. */
  private plainVariables: Readonly<Record<string, ExprType>> | undefined;

  /** `state` and `context` as in a spec: maps from key to field declaration. Odd shapes are tolerated. */
  constructor(declarations: { state?: unknown; context?: unknown }) {
    this.state = recordOfFields("State", declarations.state);
    this.context = recordOfFields("Context", declarations.context);
    this.specTypes = new TypedEnv(rootEnv());
    for (const t of [this.state, this.context]) this.specTypes.typeName(t);
  }

  /** The environment for these declarations, reused while they stay among the recently seen. */
  static for(declarations: { state?: unknown; context?: unknown }): ExprEnvironment {
    let key: string;
    try {
      key = JSON.stringify([declarations.state ?? null, declarations.context ?? null]);
    } catch {
      return new ExprEnvironment(declarations);
    }
    let env = RECENT.get(key);
    if (env) RECENT.delete(key);
    else env = new ExprEnvironment(declarations);
    RECENT.set(key, env);
    if (RECENT.size > RECENT_MAX) RECENT.delete(RECENT.keys().next().value!);
    return env;
  }

  /** A scope with `state`, `context` and the given node-local variables. */
  scope(where: string, locals: Record<string, ExprType> = {}): Scope {
    // Most scopes have no locals (every `set` value, every route): one shared variables object
    // finds its environment by identity, not by a key built for each expression checked.
    if (Object.keys(locals).length === 0) {
      this.plainVariables ??= { state: this.state, context: this.context };
      return { where, variables: this.plainVariables };
    }
    return { where, variables: { state: this.state, context: this.context, ...locals } };
  }

  /**
   * `models`: the process environment, and the run's context (a tenant's key, its user) — never
   * `state`, so nothing a model or a person wrote reaches a credential or a header.
   */
  modelsScope(): Scope {
    return { where: "`models`", variables: { env: ENV_TYPE, context: this.context } };
  }

  private envFor(scope: Scope): TypedEnv {
    const known = this.envsByVariables.get(scope.variables);
    if (known) return known;
    const key = Object.entries(scope.variables)
      .map(([name, type]) => `${name}:${typeId(type)}`)
      .join(";");
    let env = this.scopeEnvs.get(key);
    if (!env) {
      env = new TypedEnv(this.specTypes);
      for (const [name, type] of Object.entries(scope.variables)) {
        env.cel.registerVariable(name, env.typeName(type));
      }
      if (this.scopeEnvs.size >= MAX_SCOPE_ENVS) this.scopeEnvs.clear();
      this.scopeEnvs.set(key, env);
    }
    this.envsByVariables.set(scope.variables, env);
    return env;
  }

  /** Type-checks a bare CEL expression in a scope. Offsets in problems are in `source`. */
  check(source: string, scope: Scope): CheckResult {
    if (source.length > EXPR_LIMITS.maxLength) {
      return {
        ok: false,
        problem: {
          kind: "syntax",
          message: `the expression is ${source.length} characters long; the limit is ${EXPR_LIMITS.maxLength}`,
          hint: "split it, or move the logic into a function node",
          start: 0,
          end: source.length,
        },
      };
    }
    const env = this.envFor(scope);
    const cached = env.checked.get(source) ?? env.checked.get(`${scope.where}\0${source}`);
    if (cached) return cached;
    const result = this.checkIn(env, source, scope);
    if (env.checked.size >= MAX_CHECKED) env.checked.clear();
    env.checked.set(result.ok ? source : `${scope.where}\0${source}`, result);
    return result;
  }

  private checkIn(env: TypedEnv, source: string, scope: Scope): CheckResult {
    let r: ReturnType<Environment["check"]>;
    try {
      r = env.cel.check(source);
    } catch (e) {
      r = { valid: false, error: e as never };
    }
    if (r.valid && r.type !== undefined) {
      const problem = literalProblems(env.cel, source)[0];
      if (problem) return { ok: false, problem };
      return { ok: true, type: parseCelType(r.type, env.records) };
    }
    // cel-js's errors carry a summary and a range; anything else it caught (a bug of its own) is
    // worded as it is, over the whole expression.
    const caught = r.error as Partial<CelErrorLike> | undefined;
    const error: CelErrorLike =
      caught?.range && typeof caught.summary === "string"
        ? (caught as CelErrorLike)
        : {
            summary: String((caught as Error | undefined)?.message ?? "the expression is invalid"),
            range: { start: 0, end: source.length },
          };
    const problem = diagnose(error, {
      source,
      scope,
      functions: celFunctions(),
      records: env.records,
      typeOf: (sub) => {
        const t = env.cel.check(sub);
        return t.valid && t.type ? parseCelType(t.type, env.records) : undefined;
      },
    });
    return { ok: false, problem };
  }

  /** Parses and type-checks a template. Offsets in problems are in `text`. */
  checkTemplate(text: string, scope: Scope): TemplateCheck {
    let template: ParsedTemplate;
    try {
      template = parseTemplate(text);
    } catch (e) {
      if (!(e instanceof ExprSyntaxError)) throw e;
      const { message, hint, start, end } = e;
      return {
        template: undefined,
        type: undefined,
        problems: [{ kind: "syntax", message, hint, start, end }],
      };
    }
    const problems: ExprProblem[] = [];
    let wholeType: ExprType | undefined;
    for (const part of template.parts) {
      if (part.kind !== "expr") continue;
      if (!part.source.trim()) {
        problems.push({
          kind: "syntax",
          message: "`${{ }}` is empty",
          start: part.open,
          end: part.close,
        });
        continue;
      }
      const r = this.check(part.source, scope);
      if (r.ok) wholeType = r.type;
      else
        problems.push({
          ...r.problem,
          start: r.problem.start + part.start,
          end: r.problem.end + part.start,
        });
    }
    const type = problems.length ? undefined : template.whole ? wholeType : T.string;
    return { template, type, problems };
  }

  /** A checked, evaluable program. Throws ExprSyntaxError or ExprTypeError. */
  compile(source: string, scope: Scope, options?: ProgramOptions): CompiledExpression {
    const r = this.check(source, scope);
    if (!r.ok) throw problemError(r.problem, source);
    return compileProgram(source, r.type, scope, options);
  }

  /** A checked, evaluable template. Throws ExprSyntaxError or ExprTypeError. */
  compileTemplate(text: string, scope: Scope, options?: ProgramOptions): CompiledTemplate {
    const r = this.checkTemplate(text, scope);
    const first = r.problems[0];
    if (first || !r.template || !r.type) {
      throw problemError(
        first ?? { kind: "syntax", message: "invalid template", start: 0, end: 0 },
        text,
      );
    }
    return compileTemplateProgram(r.template, r.type, scope, options);
  }
}
