/** Whether a path stays inside a directory: the rule behind `path-escape` for specs and their references. */
import { isAbsolute, relative, sep } from "node:path";

/** Whether `path` is `root` or lies below it, lexically (resolve symbolic links first where they matter). */
export const isInside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
};
