import { isAbsolute, relative, resolve, sep } from "node:path";

/**
 * A file as CI consumers want it: relative to the working directory (the repository root, in CI),
 * with `/` separators and no `./` or `..` detours, however the user spelled it — or `undefined`
 * when it lies outside the working directory and no relative name is true.
 */
export function workingPath(file: string, cwd: string): string | undefined {
  const rel = relative(resolve(cwd), resolve(cwd, file));
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join("/");
}
