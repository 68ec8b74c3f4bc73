/** A database of its own for a test file, on the server the global set-up started. */
import { inject } from "vitest";

/** The server's URL, or "" when the PostgreSQL tests are skipped (no server here). */
export const serverUrl = (): string => inject("databaseUrl");

/** Creates an empty database named `name` (dropping one left from before) and gives its URL. */
export async function freshDatabase(name: string): Promise<string> {
  const { default: pg } = await import("pg");
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return url.toString();
}
