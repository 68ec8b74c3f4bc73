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

/** The error for a feature whose packages are missing: what needs them, and the install command. */
export function missingPeer(feature: PeerFeature): PackageError {
  const { what, packages } = PEER_FEATURES[feature];
  return new PackageError(
    `${what} needs ${list(packages)}, which ${packages.length > 1 ? "are" : "is"} not installed`,
    `install ${packages.length > 1 ? "them" : "it"}: npm install ${packages.join(" ")}`,
    packages,
  );
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
