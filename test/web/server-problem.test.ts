/** How the run view reads the server's refusals from the SDK's HTTPError (src/web/runs/server-problem.ts). */
import { describe, expect, it } from "vitest";
import { formOfProblem, serverProblem } from "../../src/web/runs/server-problem.js";

const body = {
  error: "invalid-input",
  message: "the run's input wrote 5 to `ticket`: `ticket` must be a string, not 5",
  field: "ticket",
  hint: "write a value that matches the declaration of `ticket` in `state`",
};

describe("serverProblem", () => {
  it("reads graphspec's error body from the SDK's HTTPError (status, text)", () => {
    const e = Object.assign(new Error(`HTTP 422: ${JSON.stringify(body)}`), {
      status: 422,
      text: JSON.stringify(body),
    });
    const p = serverProblem(e);
    expect(p).toEqual({
      message: body.message,
      status: 422,
      code: "invalid-input",
      field: "ticket",
      hint: body.hint,
    });
    expect(formOfProblem(p)).toBe("input");
    expect(formOfProblem({ ...p, code: "invalid-context" })).toBe("context");
  });

  it("reads the body from the message when the error has no text", () => {
    expect(serverProblem(new Error(`HTTP 422: ${JSON.stringify(body)}`)).field).toBe("ticket");
  });

  it("keeps the message of an error without a JSON body", () => {
    const p = serverProblem(new Error("Unable to connect to LangGraph server."));
    expect(p).toMatchObject({
      message: "Unable to connect to LangGraph server.",
      field: undefined,
    });
    expect(formOfProblem(p)).toBeUndefined();
  });
});
