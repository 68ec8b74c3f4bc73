/**
 * A run's `standIn` choice (an id the executor's StandInCatalog offers for the graph) as the
 * stand-in its models answer from, or the run's error when the graph is offered no such stand-in.
 * Checked before anything runs, as the run's other choices are.
 */
import type { RunStandIn } from "../compile/models/run-stand-in.js";
import type { StandInCatalog } from "./executor-api.js";
import type { RunError } from "./result.js";

export async function chosenStandIn(
  catalog: StandInCatalog | undefined,
  specPath: string,
  id: string | undefined,
): Promise<{ standIn?: RunStandIn; error?: RunError }> {
  if (id === undefined) return {};
  const refused = (message: string, hint: string): { error: RunError } => ({
    error: { code: "invalid-run-option", phase: "input", field: "standIn", message, hint },
  });
  if (!catalog)
    return refused(
      `the run chose the stand-in \`${id}\`, but this executor offers none`,
      "stand-ins are offered by `graphspec dev` (docs/dev.md); leave `standIn` out to run the spec's models",
    );
  let standIn: RunStandIn | undefined;
  try {
    standIn = await catalog.choose(specPath, id);
  } catch (e) {
    // A recording that is not one (edited by hand, cut short): its file says what is wrong.
    return refused(
      `the stand-in \`${id}\` cannot be used: ${(e as Error).message}`,
      "fix the file, or record it again with `graphspec run --record FILE`",
    );
  }
  if (standIn) return { standIn };
  const offered = (await catalog.offers(specPath)).map((o) => `\`${o.id}\``);
  return refused(
    `the run chose the stand-in \`${id}\`, which this graph is not offered`,
    offered.length
      ? `choose one of ${offered.join(", ")}`
      : "the graph has no fixture test with scripts or recording, and no recording beside it (docs/dev.md)",
  );
}
