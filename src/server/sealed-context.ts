/**
 * A background run's context in the records: never in plaintext. A queued run waits in the
 * database for any replica, and its context holds what the run's nodes and models need — API keys,
 * `secret: true` values — so it is sealed there with AES-256-GCM under the records key the
 * replicas share (`GRAPHSPEC_RECORDS_KEY`), bound to the run's id (a sealed context copied onto
 * another run does not open). Without a key the context never leaves the memory of the replica
 * that accepted the run, which then drives it itself (docs/security.md, "Background runs").
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

export interface RecordsKey {
  readonly bytes: Buffer;
  /** A short fingerprint of the key, named when a sealed context cannot be opened. */
  readonly id: string;
}

/** The key from its text: 32 bytes as 64 hexadecimal digits or as base64. Throws a message saying what is wrong. */
export function recordsKey(text: string): RecordsKey {
  const t = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(t)
    ? Buffer.from(t, "hex")
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(t)
      ? Buffer.from(t, "base64")
      : undefined;
  if (bytes?.length !== 32)
    throw new Error(
      "the records key must be 32 random bytes, as 64 hexadecimal digits or base64 (`openssl rand -hex 32`)",
    );
  return { bytes, id: createHash("sha256").update(bytes).digest("hex").slice(0, 8) };
}

const PREFIX = "gs1";

/** `gs1:<key id>:<base64 of iv, tag, ciphertext>`; `bound` (the run id) is authenticated, not stored. */
export function seal(key: RecordsKey, value: unknown, bound: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key.bytes, iv);
  cipher.setAAD(Buffer.from(bound, "utf8"));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  const blob = Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
  return `${PREFIX}:${key.id}:${blob}`;
}

/** The sealed value, or a message saying why it cannot be opened here. */
export function unseal(
  key: RecordsKey | undefined,
  sealed: string,
  bound: string,
): { value: unknown } | { problem: string } {
  const [prefix, id, blob] = sealed.split(":");
  if (prefix !== PREFIX || !id || !blob) return { problem: "its sealed context is unreadable" };
  if (!key)
    return {
      problem: `its context is sealed with records key ${id}, and this replica has no GRAPHSPEC_RECORDS_KEY`,
    };
  if (key.id !== id)
    return {
      problem: `its context is sealed with records key ${id}, and this replica has key ${key.id}`,
    };
  try {
    const raw = Buffer.from(blob, "base64");
    const decipher = createDecipheriv("aes-256-gcm", key.bytes, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(bound, "utf8"));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
    return { value: JSON.parse(text.toString("utf8")) };
  } catch {
    return { problem: "its sealed context does not open with this replica's records key" };
  }
}
