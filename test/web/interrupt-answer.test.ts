/** What a pending interrupt asks and the resume that answers it (src/web/runs/interrupt-answer.ts). */
import { describe, expect, it } from "vitest";
import {
  decisionsOf,
  type InterruptAsk,
  interruptAsk,
  resumeFor,
} from "../../src/web/runs/interrupt-answer.js";

// The value graphs/ticket-agent.yaml pauses with (LangChain's human-in-the-loop middleware).
const approval = {
  actionRequests: [
    {
      name: "notify_customer",
      args: { message: "We are on it.", user_id: "u-7" },
      description: "Tool execution requires approval",
    },
    { name: "lookup_ticket", args: { ticket_id: "T-1" } },
  ],
  reviewConfigs: [
    { actionName: "notify_customer", allowedDecisions: ["approve", "edit", "reject"] },
    { actionName: "lookup_ticket", allowedDecisions: ["approve", "reject"] },
  ],
};

describe("interruptAsk", () => {
  it("reads a tool approval: each call's tool, arguments and allowed decisions", () => {
    const ask = interruptAsk(approval);
    expect(ask).toEqual({
      kind: "approval",
      actions: [
        {
          name: "notify_customer",
          args: { message: "We are on it.", user_id: "u-7" },
          description: "Tool execution requires approval",
          allowed: ["approve", "edit", "reject"],
        },
        {
          name: "lookup_ticket",
          args: { ticket_id: "T-1" },
          description: undefined,
          allowed: ["approve", "reject"],
        },
      ],
    });
  });

  it("reads an interrupt node's payload, and a refused answer's error (docs/spec.md interrupt)", () => {
    expect(interruptAsk({ question: "Escalate T-1?" })).toEqual({
      kind: "question",
      payload: { question: "Escalate T-1?" },
      refused: undefined,
    });
    const refused = {
      payload: { question: "Escalate T-1?" },
      error: {
        message:
          'the resume value was refused: `resume` must be true or false, not the string "yes"',
        hint: "resume again with a value that matches the `schema` of node `approval`",
        resume: "yes",
      },
    };
    expect(interruptAsk(refused)).toEqual({
      kind: "question",
      payload: { question: "Escalate T-1?" },
      refused: { ...refused.error },
    });
    expect(interruptAsk(null)).toEqual({ kind: "question", payload: null, refused: undefined });
  });
});

describe("decisionsOf", () => {
  const { actions } = interruptAsk(approval) as Extract<InterruptAsk, { kind: "approval" }>;

  it("waits for a choice for every call", () => {
    expect(decisionsOf(actions, [{ type: "approve" }, undefined])).toBeUndefined();
  });

  it("answers approve, edit (the tool's name with the edited arguments) and reject (with its message)", () => {
    expect(
      decisionsOf(actions, [
        { type: "edit", args: { message: "An engineer is on it." } },
        { type: "reject", message: "  Not yet. " },
      ]),
    ).toEqual({
      decisions: [
        {
          type: "edit",
          editedAction: { name: "notify_customer", args: { message: "An engineer is on it." } },
        },
        { type: "reject", message: "Not yet." },
      ],
    });
    expect(decisionsOf(actions, [{ type: "approve" }, { type: "reject", message: "" }])).toEqual({
      decisions: [{ type: "approve" }, { type: "reject" }],
    });
  });
});

describe("resumeFor", () => {
  it("resumes the only interrupt with the bare value, one of several by its id", () => {
    expect(resumeFor(["a"], "a", true)).toBe(true);
    expect(resumeFor(["a", "b"], "b", { x: 1 })).toEqual({ b: { x: 1 } });
  });
});
