/**
 * What `graphspec dev` offers a run to answer for its graph's models instead of their providers
 * (docs/dev.md, "Standing in for models"): each test of the project's fixtures for the graph that
 * has `scripts` or a `recording`, and each recording beside the spec named after it
 * (`NAME.recording.json`, `NAME.LABEL.recording.json` for `NAME.yaml`). A run chooses one by its
 * id, from this list only: a client never names a file, so nothing outside the project is read.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, extname, join, relative, resolve, sep } from "node:path";
import { ProviderRecording } from "../compile/models/recording.js";
import type { RunStandIn } from "../compile/models/run-stand-in.js";
import type { Scripts } from "../compile/models/script.js";
import type { StandInCatalog, StandInOffer } from "../run/executor-api.js";
import { type Fixture, findFixtures, loadFixture } from "../run/fixtures/load.js";
import { isInside } from "../spec/inside-root.js";
import { findProjectRoot } from "../spec/project-root.js";
import { secretValues } from "../spec/secrets.js";

/** A recording of spec `NAME.yaml`: `NAME.recording.json` or `NAME.LABEL.recording.json` beside it. */
const recordingNameOf = (specPath: string): RegExp => {
  const stem = basename(specPath, extname(specPath)).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${stem}(\\.[^.]+)?\\.recording\\.json$`);
};

interface Offered extends StandInOffer {
  /** The file's absolute path (a recording), or the test's scripts. */
  abs?: string;
  scripts?: Scripts;
}

export function standInCatalog(
  dir: string,
  options: {
    /** Masked in a recording's requests before they are matched (the project's .env secrets). */
    secrets?: readonly string[];
    /** What a run choosing none gets (dev's own --scripts or --replay). Default: the provider. */
    withoutOne?: StandInCatalog["withoutOne"];
  } = {},
): StandInCatalog {
  const { secrets = [], withoutOne = "provider" } = options;
  const root = findProjectRoot(dir);
  const shown = (abs: string) => relative(root, abs).split(sep).join("/");
  // Read again only when a file changes: the page asks on every look at a graph.
  const fixtures = new Map<string, { mtimeMs: number; fixture: Fixture | undefined }>();
  const recordings = new Map<string, { mtimeMs: number; recording: ProviderRecording }>();
  const standIns = new WeakMap<object, RunStandIn>();

  async function fixtureAt(path: string): Promise<Fixture | undefined> {
    const { mtimeMs } = statSync(path);
    const known = fixtures.get(path);
    if (known?.mtimeMs === mtimeMs) return known.fixture;
    const { fixture } = await loadFixture(path, shown(path));
    fixtures.set(path, { mtimeMs, fixture });
    return fixture;
  }

  async function offered(specPath: string): Promise<Offered[]> {
    const spec = resolve(specPath);
    const out: Offered[] = [];
    for (const path of existsSync(dir) ? findFixtures([dir]) : []) {
      const fixture = await fixtureAt(path).catch(() => undefined);
      if (fixture?.graph !== spec) continue;
      for (const test of fixture.tests) {
        const id = `${shown(path)}#${test.name}`;
        if (test.recording !== undefined) {
          const abs = resolve(dirname(path), test.recording);
          if (isInside(root, abs))
            out.push({ id, kind: "recording", file: shown(abs), test: test.name, abs });
        } else if (test.scripts) {
          // The fixture's own object while the file is unchanged (fixtureAt): one per version.
          const scripts = test.scripts as Scripts;
          out.push({ id, kind: "scripts", file: shown(path), test: test.name, scripts });
        }
      }
    }
    const named = recordingNameOf(spec);
    const beside = dirname(spec);
    for (const entry of existsSync(beside) ? readdirSync(beside).sort() : []) {
      const abs = join(beside, entry);
      if (named.test(entry) && isInside(root, abs))
        out.push({ id: shown(abs), kind: "recording", file: shown(abs), abs });
    }
    return out;
  }

  function recordingAt(abs: string, file: string): ProviderRecording {
    const { mtimeMs } = statSync(abs);
    const known = recordings.get(abs);
    if (known?.mtimeMs === mtimeMs) return known.recording;
    // dev's runs are tried again and again: a recorded call may answer more than once.
    const recording = ProviderRecording.replay(
      readFileSync(abs, "utf8"),
      file,
      [...secrets, ...secretValues(process.env)],
      { reuse: true },
    );
    recordings.set(abs, { mtimeMs, recording });
    return recording;
  }

  return {
    withoutOne,
    async offers(specPath) {
      return (await offered(specPath)).map(({ abs: _abs, scripts: _scripts, ...offer }) => offer);
    },
    async choose(specPath, id): Promise<RunStandIn | undefined> {
      const offer = (await offered(specPath)).find((o) => o.id === id);
      if (!offer) return undefined;
      // The same object for the same file: the compiled graph builds each stand-in's models once.
      const of = offer.scripts ?? (offer.abs ? recordingAt(offer.abs, offer.file) : undefined);
      if (!of) return undefined;
      let standIn = standIns.get(of);
      if (!standIn) {
        standIn = of instanceof ProviderRecording ? { recording: of } : { scripts: of };
        standIns.set(of, standIn);
      }
      return standIn;
    },
  };
}
