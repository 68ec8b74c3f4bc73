/**
 * Who may ask, decided by `serverAuth` (the package's entry; src/server/auth.ts): an API-key file
 * refused with a message naming the file and the fix, a request without or with a wrong key
 * refused with 401, and a LangGraph `Auth` handler's every answer — a user, no identity, an
 * HTTPException, false, true, a filter, nonsense — turned into what the LangGraph server makes of
 * it. Issue 31: each case is a change to the code that a test would otherwise let through.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serverAuth } from "graphspec";
import { afterAll, describe, expect, it } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "graphspec-auth-refusals-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const AUTH = join(import.meta.dirname, "../fixtures/server/auth");

let n = 0;
/** An API-key file holding `text`. */
function keysFile(text: string): string {
  const file = join(dir, `keys-${n++}.json`);
  writeFileSync(file, text);
  return file;
}
const request = (headers: Record<string, string> = {}) =>
  new Request("http://127.0.0.1/threads", { headers });
/** What a refusal says: status, code, message, hint. */
async function refusal(p: Promise<unknown>) {
  const e = (await p.then(
    () => {
      throw new Error("not refused");
    },
    (err: unknown) => err,
  )) as { status: number; code: string; message: string; extra: { hint?: string } };
  return { status: e.status, code: e.code, message: e.message, hint: e.extra?.hint };
}

describe("an API-key file", () => {
  it("that cannot be read names the file and the reason", async () => {
    const file = join(dir, "missing.json");
    await expect(serverAuth({ apiKeys: file })).rejects.toThrow(
      `--api-keys ${file}: cannot read it (ENOENT); give the path of a JSON file from API key to tenant id`,
    );
  });

  it("that is not JSON says so, with its parser's reason", async () => {
    const file = keysFile("{ nope");
    await expect(serverAuth({ apiKeys: file })).rejects.toThrow(
      new RegExp(
        `^--api-keys ${file}: not valid JSON \\(.+\\); write it as \\{"<key of 16\\+ characters>": "tenant-a"\\}$`,
      ),
    );
  });

  for (const text of ["null", "[]", '"a string"', "42"]) {
    it(`of ${text} is refused: it must be an object`, async () => {
      const file = keysFile(text);
      await expect(serverAuth({ apiKeys: file })).rejects.toThrow(
        `--api-keys ${file}: must be a JSON object from API key to tenant id, as {"<key of 16+ characters>": "tenant-a"}`,
      );
    });
  }

  for (const tenant of ['""', "7", "null"]) {
    it(`with a tenant of ${tenant} is refused`, async () => {
      const file = keysFile(`{"0123456789abcdef": ${tenant}}`);
      await expect(serverAuth({ apiKeys: file })).rejects.toThrow(
        `--api-keys ${file}: the tenant of a key must be a non-empty string, as {"<key>": "tenant-a"}`,
      );
    });
  }

  it("with a key of 15 characters is refused, naming its length; 16 are enough", async () => {
    const file = keysFile('{"0123456789abcde": "a"}');
    await expect(serverAuth({ apiKeys: file })).rejects.toThrow(
      `--api-keys ${file}: a key must be at least 16 characters (one is 15); make one with \`openssl rand -hex 24\``,
    );
    await expect(
      serverAuth({ apiKeys: keysFile('{"0123456789abcdef": "a"}') }),
    ).resolves.toBeDefined();
  });

  it("with no keys is refused", async () => {
    const file = keysFile("{}");
    await expect(serverAuth({ apiKeys: file })).rejects.toThrow(
      `--api-keys ${file}: no keys; add one, as {"<key of 16+ characters>": "tenant-a"}`,
    );
  });
});

describe("a request against API keys", () => {
  const keys = { "key-of-tenant-a-0001": "tenant-a", "key-of-tenant-b-0002": "tenant-b" };
  const auth = () => serverAuth({ apiKeys: keysFile(JSON.stringify(keys)) });

  it("without a key is a 401 that says where the key goes", async () => {
    expect(await refusal((await auth()).authenticate(request()))).toEqual({
      status: 401,
      code: "unauthorized",
      message: "no API key",
      hint: "send the key in the `x-api-key` header (the SDK's `apiKey` option)",
    });
    expect(await refusal((await auth()).authenticate(request({ "x-api-key": "" })))).toMatchObject({
      status: 401,
      message: "no API key",
    });
  });

  it("with a wrong key is a 401; a key one character off is wrong", async () => {
    for (const key of [
      "nope",
      "key-of-tenant-a-000",
      "key-of-tenant-a-00011",
      "key-of-tenant-a-0003",
    ]) {
      expect(await refusal((await auth()).authenticate(request({ "x-api-key": key })))).toEqual({
        status: 401,
        code: "unauthorized",
        message: "the API key is not valid",
        hint: "check the key, or ask for one",
      });
    }
  });

  it("with a key is its tenant's, whichever key of the file it is", async () => {
    const a = await auth();
    expect(await a.authenticate(request({ "x-api-key": "key-of-tenant-a-0001" }))).toEqual({
      tenant: "tenant-a",
      user: { identity: "tenant-a" },
      permissions: [],
    });
    expect(await a.authenticate(request({ "x-api-key": "key-of-tenant-b-0002" }))).toMatchObject({
      tenant: "tenant-b",
    });
    const caller = await a.authenticate(request({ "x-api-key": "key-of-tenant-b-0002" }));
    expect(await a.authorize(caller, "threads", "delete", {})).toBeUndefined();
  });
});

describe("a LangGraph Auth handler", () => {
  const handler = (name = "verdicts.ts") => serverAuth({ handler: join(AUTH, name) });
  const bearer = (token: string) => request({ authorization: `Bearer ${token}` });

  it("that does not exist names the file and how to name one", async () => {
    await expect(serverAuth({ handler: "nowhere/auth.ts:auth", cwd: dir })).rejects.toThrow(
      `--auth nowhere/auth.ts:auth: no such file ${join(dir, "nowhere/auth.ts")}; give path/to/auth.ts:exportName, as langgraph.json's auth.path`,
    );
  });

  it("is the export named after the colon, `auth` without one, or the default export's", async () => {
    const user = bearer("user-dana");
    for (const spec of [
      "verdicts.ts",
      "verdicts.ts:auth",
      "verdicts.ts:other",
      "verdicts.ts:nested",
    ]) {
      const a = await serverAuth({ handler: spec, cwd: AUTH });
      expect((await a.authenticate(user)).tenant).toBe("dana");
    }
  });

  it("an export that is not an Auth with an authenticate handler is refused, named", async () => {
    const file = join(AUTH, "verdicts.ts");
    await expect(serverAuth({ handler: `${file}:notAuth` })).rejects.toThrow(
      `--auth ${file}:notAuth: no Auth export \`notAuth\` with an authenticate handler; export \`new Auth().authenticate(…)\` from @langchain/langgraph-sdk/auth under that name`,
    );
    await expect(serverAuth({ handler: `${file}:missing` })).rejects.toThrow(
      /no Auth export `missing`/,
    );
  });

  it("authenticates a user as the tenant of its identity, with its permissions and fields", async () => {
    const a = await handler();
    expect(await a.authenticate(bearer("user-dana"))).toEqual({
      tenant: "dana",
      user: { identity: "dana", permissions: ["threads:read"], team: "blue" },
      permissions: ["threads:read"],
    });
    // A bare string is the identity.
    expect(await a.authenticate(bearer("as-string"))).toEqual({
      tenant: "stringy",
      user: { identity: "stringy" },
      permissions: [],
    });
  });

  for (const token of ["no-identity", "empty-identity", "null", "number-identity"]) {
    it(`refuses a user without an identity (${token}) with a 401`, async () => {
      expect(await refusal((await handler()).authenticate(bearer(token)))).toEqual({
        status: 401,
        code: "unauthorized",
        message: "the Auth handler returned no identity",
        hint: "return { identity } from authenticate",
      });
    });
  }

  it("answers the handler's HTTPException with its status and message", async () => {
    const a = await handler();
    expect(await refusal(a.authenticate(bearer("wrong")))).toMatchObject({
      status: 401,
      code: "unauthorized",
      message: "Invalid token",
    });
    expect(await refusal(a.authenticate(bearer("conflict")))).toMatchObject({
      status: 409,
      code: "forbidden",
      message: "already signed in",
    });
    // A status an API error cannot have, or a plain error: a 401, never a 500.
    expect(await refusal(a.authenticate(bearer("teapot")))).toMatchObject({
      status: 401,
      code: "unauthorized",
      message: "short and stout",
    });
    expect(await refusal(a.authenticate(bearer("plain-error")))).toMatchObject({
      status: 401,
      code: "unauthorized",
      message: "not allowed",
    });
    expect(await refusal(a.authenticate(bearer("throw-nothing")))).toMatchObject({
      status: 401,
      code: "unauthorized",
      message: "not allowed",
    });
  });

  describe("its `on` callbacks", () => {
    const as = async () => {
      const a = await handler();
      return { a, caller: await a.authenticate(bearer("user-dana")) };
    };

    it("false refuses the action with a 403 naming it", async () => {
      const { a, caller } = await as();
      expect(await refusal(a.authorize(caller, "threads", "delete", {}))).toEqual({
        status: 403,
        code: "forbidden",
        message: "the Auth handler refused threads:delete",
        hint: undefined,
      });
    });

    it("true, null or nothing allows it with no filter", async () => {
      const { a, caller } = await as();
      expect(await a.authorize(caller, "threads", "update", {})).toBeUndefined();
      expect(await a.authorize(caller, "threads", "search", {})).toBeUndefined();
    });

    it("a filter object is the filter; the callback may stamp the value", async () => {
      const { a, caller } = await as();
      const value: Record<string, unknown> = {};
      expect(await a.authorize(caller, "threads", "create", value)).toEqual({ owner: "dana" });
      expect(value).toEqual({ metadata: { owner: "dana" } });
    });

    it("the most specific callback answers: resource:action, resource, *:action, *", async () => {
      const { a, caller } = await as();
      // threads:read has none of its own: `threads` answers before `*:read`.
      expect(await a.authorize(caller, "threads", "read", {})).toEqual({ team: "blue" });
      // assistants:read: `*:read`, called with the event, the user's permissions.
      expect(await a.authorize(caller, "assistants", "read", {})).toEqual({
        event: "assistants:read",
        resource: "assistants",
        action: "read",
        permissions: ["threads:read"],
      });
      const star = await handler("only-star.ts");
      const anyone = await star.authenticate(bearer("x"));
      expect(await star.authorize(anyone, "crons", "create", {})).toEqual({ seen: "crons:create" });
      // No callback at all: allowed, unfiltered.
      const none = await handler("no-callbacks.ts");
      expect(
        await none.authorize(await none.authenticate(bearer("x")), "threads", "read", {}),
      ).toBe(undefined);
      // A resource and action no callback names: allowed, unfiltered.
      expect(await a.authorize(caller, "store", "put", {})).toBeUndefined();
    });

    it("a thrown HTTPException is its status; any other error a 403", async () => {
      const { a, caller } = await as();
      expect(await refusal(a.authorize(caller, "assistants", "delete", {}))).toMatchObject({
        status: 404,
        code: "forbidden",
        message: "no such assistant here",
      });
      expect(await refusal(a.authorize(caller, "assistants", "update", {}))).toMatchObject({
        status: 403,
        code: "forbidden",
        message: "broken callback",
      });
    });

    it("an answer that is no filter is a 500 naming the callback and what it returned", async () => {
      const { a, caller } = await as();
      expect(await refusal(a.authorize(caller, "assistants", "search", {}))).toEqual({
        status: 500,
        code: "auth-handler-invalid",
        message: "the Auth handler's assistants:search callback returned an array",
        hint: "return a filter object, a boolean, or nothing",
      });
      expect(await refusal(a.authorize(caller, "assistants", "create", {}))).toMatchObject({
        status: 500,
        message: "the Auth handler's assistants:create callback returned string",
      });
    });
  });
});
