import { PackageError } from "./package-error.js";

/**
 * Node.js majors by NODE_MODULE_VERSION (Node's doc/abi_version_registry.json), so the message can
 * say "built for Node.js 20" rather than a bare ABI number. An unknown number is shown as it is.
 */
const NODE_OF_ABI: Record<string, string> = {
  "108": "18",
  "115": "20",
  "120": "21",
  "127": "22",
  "131": "23",
  "137": "24",
  "141": "25",
};

const nodeOf = (abi: string) =>
  NODE_OF_ABI[abi] ? `Node.js ${NODE_OF_ABI[abi]}` : "another Node.js";

/**
 * A native addon compiled for another Node.js than the one running — a project installed on Node
 * 20 or 22 and then run on Node 24 — as a PackageError naming the package and the one command that
 * rebuilds it, instead of Node's dlopen message. Undefined for any other error.
 */
export function nativeAddonError(e: unknown): PackageError | undefined {
  const err = e as { code?: string; message?: string };
  const message = String(err?.message ?? "");
  const abi =
    /NODE_MODULE_VERSION (\d+)\.\s+This version of Node\.js requires\s+NODE_MODULE_VERSION (\d+)/.exec(
      message,
    );
  if (!abi) return undefined;
  const [, built, needed] = abi;
  // The addon's file lies in its package: …/node_modules/<name or @scope/name>/build/Release/x.node
  const name = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/](?!.*node_modules)/
    .exec(message)?.[1]
    ?.replace(/\\/g, "/");
  const pkg = name ?? "a native module";
  return new PackageError(
    `${pkg} was built for ${nodeOf(built!)} (NODE_MODULE_VERSION ${built}); this is Node.js ${process.version} (NODE_MODULE_VERSION ${needed})`,
    `rebuild it for this Node.js: npm rebuild ${name ?? ""}`.trimEnd(),
    name ? [name] : [],
  );
}
