/**
 * A package graphspec needs cannot be used here: an optional peer that is not installed, or a
 * native addon built for another Node.js. A file of its own so the package entry exports it
 * without loading anything else.
 */
export class PackageError extends Error {
  override readonly name = "PackageError";
  readonly hint: string;
  /** The packages to install or rebuild. */
  readonly packages: readonly string[];
  constructor(message: string, hint: string, packages: readonly string[]) {
    super(message);
    this.hint = hint;
    this.packages = packages;
  }
}
