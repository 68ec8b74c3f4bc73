/**
 * The gates of the `gated` fixture graph's node (test/fixtures/server/nodes/gate.mjs): each run at
 * its node waits on one until the test calls it. The server runs in the test's process, so the
 * test holds them. Files that use them run isolated (vitest.config.ts): a gate a failed test left
 * waiting must not be the next file's.
 */
import { afterEach } from "vitest";

/** The runs waiting at the gate, oldest first: call one to let it go. */
export const gates = (): (() => void)[] =>
  ((globalThis as { __graphspecGates?: (() => void)[] }).__graphspecGates ??= []);

/** After each test, lets every run still waiting go: a failed test does not hold the next one's. */
export function openGatesAfterEach(): void {
  afterEach(() => {
    for (const open of gates().splice(0)) open();
  });
}
