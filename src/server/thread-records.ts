/**
 * What the API keeps of a thread beyond its checkpoints: when it was created and its metadata
 * (threads made by `threads.create` before any run have no checkpoint yet). Kept in this process;
 * a thread the checkpointer knows but this process does not (a restart, another replica) is still
 * found through the executor, with empty metadata.
 */
export interface ThreadRecord {
  created_at: string;
  updated_at: string;
  metadata: Record<string, unknown>;
}

export class ThreadRecords {
  private readonly records = new Map<string, ThreadRecord>();

  get(storedId: string): ThreadRecord | undefined {
    return this.records.get(storedId);
  }

  /** The record, created when missing. */
  ensure(storedId: string, metadata: Record<string, unknown> = {}): ThreadRecord {
    let r = this.records.get(storedId);
    if (!r) {
      const now = new Date().toISOString();
      r = { created_at: now, updated_at: now, metadata: { ...metadata } };
      this.records.set(storedId, r);
    }
    return r;
  }

  patch(storedId: string, metadata: Record<string, unknown>): ThreadRecord {
    const r = this.ensure(storedId);
    r.metadata = { ...r.metadata, ...metadata };
    r.updated_at = new Date().toISOString();
    return r;
  }

  touch(storedId: string): void {
    const r = this.records.get(storedId);
    if (r) r.updated_at = new Date().toISOString();
  }

  delete(storedId: string): boolean {
    return this.records.delete(storedId);
  }

  /** Stored ids with a record, whose id starts with `prefix`. */
  ids(prefix = ""): string[] {
    return [...this.records.keys()].filter((id) => id.startsWith(prefix));
  }
}
