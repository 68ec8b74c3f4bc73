/**
 * What answers for a graph's models in a run started on the page (docs/dev.md, "Standing in for
 * models"): the stand-ins `graphspec dev` offers in the assistant's `metadata.graphspec.stand_ins`
 * — a fixture test's scripts, a recording — or the real provider. The choice goes with each run
 * as `config.configurable.graphspec_stand_in`; the page remembers it per graph for the tab.
 */
import { isJsonObject } from "../json-object.js";

export interface StandInOffer {
  id: string;
  kind: "scripts" | "recording";
  file: string;
  test?: string;
}

/** The stand-ins an assistant's metadata offers (none on a server that offers none). */
export function standInsOfMetadata(metadata: unknown): StandInOffer[] {
  const offers =
    isJsonObject(metadata) && isJsonObject(metadata.graphspec)
      ? metadata.graphspec.stand_ins
      : undefined;
  if (!Array.isArray(offers)) return [];
  return offers.filter(
    (o): o is StandInOffer =>
      isJsonObject(o) &&
      typeof o.id === "string" &&
      (o.kind === "scripts" || o.kind === "recording") &&
      typeof o.file === "string",
  );
}

/** What a run that chooses no stand-in gets: the providers, or dev's own --scripts / --replay. */
export type WithoutStandIn = "provider" | "scripts" | "recording";

export function withoutStandInOf(metadata: unknown): WithoutStandIn {
  const v =
    isJsonObject(metadata) && isJsonObject(metadata.graphspec)
      ? metadata.graphspec.without_stand_in
      : undefined;
  return v === "scripts" || v === "recording" ? v : "provider";
}

/** How the control names an offer: what it is, then where it comes from. */
export const standInLabel = (o: StandInOffer): string =>
  o.kind === "scripts"
    ? `Scripts of “${o.test}” (${o.file})`
    : o.test
      ? `Recording of “${o.test}” (${o.file})`
      : `Recording ${o.file}`;

const storageKey = (graph: string) => `graphspec.standIn.${graph}`;

/**
 * The choice a run form starts with: the one made earlier in this tab for the graph (if still
 * offered), else — for a graph with models, whose provider may have no key here — the first
 * fixture test's scripts, so a first run works offline; "" is the real provider.
 */
export function initialStandIn(
  graph: string,
  offers: readonly StandInOffer[],
  hasModels: boolean,
  /** dev given --scripts or --replay answers every run without a choice offline already. */
  withoutOne: WithoutStandIn = "provider",
): string {
  const kept = globalThis.sessionStorage?.getItem(storageKey(graph));
  if (kept !== null && kept !== undefined && (kept === "" || offers.some((o) => o.id === kept)))
    return kept;
  if (!hasModels || withoutOne !== "provider") return "";
  return (offers.find((o) => o.kind === "scripts") ?? offers[0])?.id ?? "";
}

/** Remembers the choice for the graph, for this tab. */
export function keepStandIn(graph: string, id: string): void {
  globalThis.sessionStorage?.setItem(storageKey(graph), id);
}
