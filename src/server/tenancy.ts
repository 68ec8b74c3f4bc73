/**
 * Thread ids scoped to a tenant. The checkpointer stores `tenant/threadId` (the tenant
 * percent-encoded, so no tenant's prefix is another's: `a/b` + `c` and `a` + `b/c` differ); the
 * client sees only its own id. Without authentication there is no tenant and ids are kept as
 * given. Any string is a client thread id.
 */
export interface Tenancy {
  /** The tenant, or undefined when the server runs without authentication. */
  readonly tenant: string | undefined;
  /** The id the checkpointer keeps for the client's thread id. */
  stored(threadId: string): string;
  /** The client's id of a stored id, or undefined when it is another tenant's. */
  client(storedId: string): string | undefined;
  /** The stored ids `stored` gave (this request's), to their client ids: errors name the latter. */
  readonly named: ReadonlyMap<string, string>;
}

export function tenancy(tenant: string | undefined): Tenancy {
  const named = new Map<string, string>();
  if (tenant === undefined) {
    return { tenant, stored: (id) => id, client: (id) => id, named };
  }
  const prefix = `${encodeURIComponent(tenant)}/`;
  return {
    tenant,
    named,
    stored: (id) => {
      named.set(prefix + id, id);
      return prefix + id;
    },
    client: (id) => (id.startsWith(prefix) ? id.slice(prefix.length) : undefined),
  };
}
