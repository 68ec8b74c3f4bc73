import { nativeAddonError } from "./native-addon.js";
import { PackageError } from "./package-error.js";
import { PEER_FEATURES, type PeerFeature } from "./peer-packages.js";

const list = (names: readonly string[]) =>
  names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;

/** Whether an import failed because `name` itself (not something inside it) is not installed. */
function notInstalled(e: unknown, name: string): boolean {
  const err = e as { code?: string; message?: string };
  if (err?.code !== "ERR_MODULE_NOT_FOUND" && err?.code !== "MODULE_NOT_FOUND") return false;
  const message = String(err.message ?? "");
  // Node: "Cannot find package 'hono' imported from …"; "Cannot find module 'hono/streaming'"
  return message.includes(`'${name}'`) || message.includes(`'${name}/`);
}

/** The error for features whose packages are missing: what needs them, and one install command. */
function missingPackages(
  features: readonly PeerFeature[],
  packages: readonly string[],
): PackageError {
  const what = list(features.map((f) => PEER_FEATURES[f].what));
  const many = packages.length > 1;
  return new PackageError(
    `${what} need${features.length > 1 ? "" : "s"} ${list(packages)}, which ${many ? "are" : "is"} not installed`,
    `install ${many ? "them" : "it"}: npm install ${packages.join(" ")}`,
    packages,
  );
}

const missingPeer = (feature: PeerFeature) =>
  missingPackages([feature], PEER_FEATURES[feature].packages);

/**
 * Checks, before a command starts, that the packages of every feature it will use are installed,
 * so that one error names all that are missing (`graphspec dev` with none of its peers: the
 * server's, the watcher's and the checkpointer's, in one install line).
 */
export async function requirePeers(features: readonly PeerFeature[]): Promise<void> {
  const missing: string[] = [];
  const needing: PeerFeature[] = [];
  for (const feature of features) {
    for (const name of PEER_FEATURES[feature].packages) {
      try {
        await import(name);
      } catch (e) {
        if (!notInstalled(e, name)) {
          // Installed but not loadable (a binary for another platform, …): the feature's own
          // loading says so where it is used; a native module for another Node is said here.
          const wrongNode = nativeAddonError(e);
          if (wrongNode) throw wrongNode;
          continue;
        }
        missing.push(name);
        if (!needing.includes(feature)) needing.push(feature);
      }
    }
  }
  if (missing.length) throw missingPackages(needing, missing);
}

/**
 * Loads what a feature needs (`load` imports the peer package, or a module of ours that imports
 * it). A missing peer becomes a PackageError naming the packages to install; a native addon built
 * for another Node.js, one naming the rebuild. Anything else is thrown as it was.
 */
export async function loadPeer<T>(feature: PeerFeature, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (e) {
    throw peerError(feature, e) ?? e;
  }
}

/** The same for code that has loaded its peer already and fails when it first uses it (a native addon opened lazily). */
export function peerError(feature: PeerFeature, e: unknown): PackageError | undefined {
  if (PEER_FEATURES[feature].packages.some((name) => notInstalled(e, name)))
    return missingPeer(feature);
  return nativeAddonError(e);
}
