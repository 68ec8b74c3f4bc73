/**
 * Which of the page's precompressed forms a request takes (its `Accept-Encoding`), and whether its
 * `If-None-Match` already names what would be sent: the HTTP parts of serving the page's files,
 * kept apart from which files there are (web-page.ts).
 */

export type PageEncoding = "br" | "gzip" | "identity";

/** The codings a client accepts, with their q-values (RFC 9110 §12.5.3). */
function accepted(header: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    out.set(name === "x-gzip" ? "gzip" : name, q === undefined ? 1 : Number(q));
  }
  return out;
}

/** brotli where taken, else gzip, else the file as it is; `available` lists what was built. */
export function pickEncoding(
  header: string | undefined,
  available: ReadonlySet<PageEncoding>,
): PageEncoding {
  if (!header) return "identity";
  const codings = accepted(header);
  const star = codings.get("*");
  for (const coding of ["br", "gzip"] as const) {
    const q = codings.get(coding) ?? star ?? 0;
    if (q > 0 && available.has(coding)) return coding;
  }
  return "identity";
}

/** Whether `If-None-Match` names `etag` (weak comparison, as RFC 9110 §13.1.2 asks), or is `*`. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => t.trim() === "*" || bare(t) === bare(etag));
}
