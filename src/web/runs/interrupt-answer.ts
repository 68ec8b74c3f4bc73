/**
 * What a pending interrupt asks, and the resume value that answers it. Two kinds:
 * - a tool approval (an agent's `approve`, LangChain's human-in-the-loop middleware): the value
 *   lists `actionRequests` (tool name and arguments) and `reviewConfigs` (the decisions allowed);
 *   it is answered with `{ decisions: [...] }`, one per action, in order;
 * - a question (an `interrupt` node): the value is its payload, or after a refused answer
 *   `{ payload, error: { message, hint, resume } }` (docs/spec.md "interrupt"); it is answered with
 *   a value matching its `response_schema`.
 * Pure, so it is tested without a browser.
 */
import { isJsonObject } from "../json-object.js";

export type DecisionType = "approve" | "edit" | "reject";

export interface ActionRequest {
  name: string;
  args: Record<string, unknown>;
  description: string | undefined;
  allowed: DecisionType[];
}

export interface Refusal {
  message: string;
  hint: string | undefined;
  resume: unknown;
}

export type InterruptAsk =
  | { kind: "approval"; actions: ActionRequest[] }
  | { kind: "question"; payload: unknown; refused: Refusal | undefined };

const ALL: DecisionType[] = ["approve", "edit", "reject"];

export function interruptAsk(value: unknown): InterruptAsk {
  if (isJsonObject(value) && Array.isArray(value.actionRequests)) {
    const configs = Array.isArray(value.reviewConfigs)
      ? value.reviewConfigs.filter(isJsonObject)
      : [];
    const actions = value.actionRequests.filter(isJsonObject).map((a): ActionRequest => {
      const name = String(a.name ?? "tool");
      const allowed = configs.find((c) => c.actionName === name)?.allowedDecisions;
      return {
        name,
        args: isJsonObject(a.args) ? a.args : {},
        description: typeof a.description === "string" ? a.description : undefined,
        allowed: Array.isArray(allowed) ? ALL.filter((d) => allowed.includes(d)) : ALL,
      };
    });
    return { kind: "approval", actions };
  }
  if (
    isJsonObject(value) &&
    "payload" in value &&
    isJsonObject(value.error) &&
    typeof value.error.message === "string" &&
    Object.keys(value).length === 2
  ) {
    const e = value.error;
    return {
      kind: "question",
      payload: value.payload,
      refused: {
        message: e.message as string,
        hint: typeof e.hint === "string" ? e.hint : undefined,
        resume: e.resume,
      },
    };
  }
  return { kind: "question", payload: value, refused: undefined };
}

export type Decision =
  | { type: "approve" }
  | { type: "edit"; editedAction: { name: string; args: Record<string, unknown> } }
  | { type: "reject"; message?: string };

/** What a person chose for one action: the decision, with edited arguments or a message. */
export interface Choice {
  type: DecisionType;
  args?: Record<string, unknown>;
  message?: string;
}

export function decisionOf(action: ActionRequest, choice: Choice): Decision {
  if (choice.type === "edit")
    return { type: "edit", editedAction: { name: action.name, args: choice.args ?? action.args } };
  if (choice.type === "reject")
    return choice.message?.trim()
      ? { type: "reject", message: choice.message.trim() }
      : { type: "reject" };
  return { type: "approve" };
}

/** The approval's answer, once every action has a choice. */
export function decisionsOf(
  actions: ActionRequest[],
  choices: (Choice | undefined)[],
): { decisions: Decision[] } | undefined {
  if (actions.some((_, i) => !choices[i])) return undefined;
  return { decisions: actions.map((a, i) => decisionOf(a, choices[i]!)) };
}

/**
 * The `command.resume` for one interrupt's answer: the bare value when it is the only one pending;
 * with several, a map by interrupt id (LangGraph resumes the ones named, the others stay pending).
 */
export const resumeFor = (pendingIds: string[], id: string, value: unknown): unknown =>
  pendingIds.length > 1 ? { [id]: value } : value;
