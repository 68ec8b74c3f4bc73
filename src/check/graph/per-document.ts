/**
 * The graph analyses of the document being checked, each computed once and shared by the graph
 * rules through the CheckContext's memo: the model, what START reaches, and the step analysis.
 * The analyses themselves (spec/control-flow.ts, steps.ts) know nothing of CheckContext.
 */

import { buildGraph, type GraphModel, reach, START } from "../../spec/control-flow.js";
import type { CheckContext } from "../check-context.js";
import { analyseSteps, type StepAnalysis } from "./steps.js";

/** The model for the document being checked, built once. */
export const graphOf = (ctx: CheckContext): GraphModel =>
  ctx.memo("graph", () => buildGraph(ctx.spec));

/** Nodes a run can get to from START (through any edge or error handler). */
export const reachableOf = (ctx: CheckContext): Set<string> =>
  ctx.memo("graph.reachable", () => reach([START], graphOf(ctx).anyFlow));

/** The step analysis for the document being checked, computed once. */
export const stepsOf = (ctx: CheckContext): StepAnalysis =>
  ctx.memo("graph.steps", () => analyseSteps(graphOf(ctx)));
