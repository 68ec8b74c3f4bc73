/** A cache shared by the specs of one run, so that a module is parsed, loaded or imported (and a child spec read) once. */
export type Shared = <T>(key: string, compute: () => T) => T;

/** A `Shared` over a plain map, for callers without a CheckContext. */
export const sharedIn =
  (cache: Map<string, unknown>): Shared =>
  <T>(key: string, compute: () => T): T => {
    if (!cache.has(key)) cache.set(key, compute());
    return cache.get(key) as T;
  };
