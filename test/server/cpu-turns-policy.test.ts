/**
 * Fair turns' policy (src/compile/cpu-turns.ts), on the scheduler itself: orders, not times.
 *
 * - A slice: a tenant granted the turn, whose next chunk asks for it again before the event
 *   loop's next check phase while it is still the tenant that used the least, takes it at once.
 *   Before, under contention each chunk of a small run waited for a check phase (and all the
 *   event loop's other work): ~40 of them per run of the soak's three-node graph.
 * - Back from idle: a tenant that starts asking after a quiet while is owed at most a little
 *   CPU over the lightest active tenant, not all the time it was idle — else it was granted every
 *   turn, its chunks one after another, until its use caught up with a tenant running all along.
 */
import { expect, it } from "vitest";
import { CpuTurns } from "../../src/compile/cpu-turns.js";

const checkPhase = () => new Promise<void>((r) => setImmediate(r));
/** Holds the thread for `ms` (a chunk of CPU). */
const spin = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

it("a light tenant's chunks that follow each other run without a check phase between them", async () => {
  const turns = new CpuTurns();
  // A heavy tenant with chunks waiting all along.
  let heavyDone = 0;
  const heavy = Array.from({ length: 3 }, async () => {
    for (let i = 0; i < 5; i++) {
      await turns.take("heavy");
      spin(2);
      turns.release();
      heavyDone++;
    }
  });
  await checkPhase();
  // The light tenant: ten tiny chunks in a row, each asking as the last releases.
  let phases = 0;
  let counting = true;
  const count = (async () => {
    while (counting) {
      await checkPhase();
      phases++;
    }
  })();
  const before = heavyDone;
  for (let i = 0; i < 10; i++) {
    await turns.take("light");
    turns.release();
  }
  const heavyBetween = heavyDone - before;
  counting = false;
  await count;
  await Promise.all(heavy);
  // At most the heavy chunk running when the light tenant first asked, and one check phase.
  expect(heavyBetween).toBeLessThanOrEqual(1);
  expect(phases, "check phases during the light tenant's ten chunks").toBeLessThanOrEqual(2);
});

it("a tenant back from idle is not granted every turn ahead of a tenant that ran all along", async () => {
  const turns = new CpuTurns();
  // The steady tenant has used ~300 ms in turns lately.
  for (let i = 0; i < 30; i++) {
    await turns.take("steady");
    spin(10);
    turns.release();
  }
  // The other arrives with many 10 ms chunks; the steady tenant asks once they wait.
  const order: string[] = [];
  const arriving = Array.from({ length: 30 }, async () => {
    await turns.take("arriving");
    spin(10);
    order.push("arriving");
    turns.release();
  });
  await Promise.resolve();
  const steady = (async () => {
    await turns.take("steady");
    order.push("steady");
    turns.release();
  })();
  await Promise.all([...arriving, steady]);
  // Owed 100 ms over the steady tenant's use, the arriving one goes first for about that long
  // (10 chunks), not until its use catches up with the steady tenant's 300 ms (30, all of them).
  expect(order.indexOf("steady")).toBeLessThanOrEqual(12);
});
