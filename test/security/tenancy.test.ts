/**
 * Thread ids scoped to a tenant (src/server/tenancy.ts): what the checkpointer stores for a
 * client's id, and which stored ids a tenant may see. The server's tests reach it through the SDK
 * (test/security/server-tenants.test.ts); ids whose text runs into another tenant's prefix are
 * only reachable here, as the HTTP API carries no `/` in a thread id.
 */
import { describe, expect, it } from "vitest";
import { tenancy } from "../../src/server/tenancy.js";

describe("with a tenant", () => {
  it("stores the client's id under the tenant's prefix, and gives it back", () => {
    const t = tenancy("acme");
    expect(t.tenant).toBe("acme");
    expect(t.stored("thread-1")).toBe("acme/thread-1");
    expect(t.client("acme/thread-1")).toBe("thread-1");
  });

  it("sees no other tenant's ids, nor ids stored without a tenant", () => {
    const t = tenancy("acme");
    expect(t.client("other/thread-1")).toBeUndefined();
    expect(t.client("thread-1")).toBeUndefined();
    expect(t.client("acmex/thread-1")).toBeUndefined();
  });

  it("percent-encodes the tenant, so that no tenant's prefix is another's", () => {
    const ab = tenancy("a/b");
    const a = tenancy("a");
    expect(ab.stored("c")).toBe("a%2Fb/c");
    expect(a.stored("b/c")).toBe("a/b/c");
    expect(ab.stored("c")).not.toBe(a.stored("b/c"));
    expect(a.client(ab.stored("c"))).toBeUndefined();
    expect(ab.client(a.stored("b/c"))).toBeUndefined();
  });

  it("remembers the ids it stored this request, to name them to the client", () => {
    const t = tenancy("acme");
    expect([...t.named]).toEqual([]);
    t.stored("one");
    t.stored("two");
    expect([...t.named]).toEqual([
      ["acme/one", "one"],
      ["acme/two", "two"],
    ]);
  });
});

describe("without authentication", () => {
  it("keeps ids as given, both ways, and names none", () => {
    const t = tenancy(undefined);
    expect(t.tenant).toBeUndefined();
    expect(t.stored("a/b")).toBe("a/b");
    expect(t.client("a/b")).toBe("a/b");
    expect([...t.named]).toEqual([]);
  });
});
