/** `int == double` for CEL, as cel-go allows since heterogeneous equality. */
import type { Environment } from "@marcbachmann/cel-js";

/**
 * Lets `int` and `double` compare for equality (`state.score == 3` on a `number` channel), as
 * cel-go has since CEL's heterogeneous-equality change. One overload gives `==` and `!=` in both
 * orders. Mixed arithmetic (`score + 1`) stays a type error, as in CEL.
 */
export function withNumericEquality(env: Environment): Environment {
  return env.registerOperator("double == int", (a: number, b: bigint) => a === Number(b));
}
