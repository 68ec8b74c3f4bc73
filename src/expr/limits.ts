/** Bounds on the work one expression may cause; a spec is untrusted input. */
export const EXPR_LIMITS = {
  /** Characters in one CEL expression (one `${{ }}` or one bare `when`). */
  maxLength: 4096,
  /** Structural limits passed to cel-js at parse time. */
  cel: {
    maxAstNodes: 2000,
    maxDepth: 64,
    maxListElements: 1000,
    maxMapEntries: 1000,
    maxCallArguments: 32,
  },
  /** Nesting of run-time values converted at the boundary (state, results). */
  maxValueDepth: 128,
  /** Nesting of JSON Schemas turned into types; deeper parts are `dyn`. */
  maxSchemaDepth: 32,
} as const;
