/**
 * `X-Pagination-Next` and `X-Pagination-Total` on a search's page, as LangGraph's server sends
 * them: the SDK's `assistants.search({ includePagination: true })` gives `next` from the first.
 * With the whole count known they are exact; without it (a thread search reads one page), a
 * full page says there may be more, as LangGraph's server says it: next is the offset after it,
 * the total one more than that.
 */
import type { Context } from "hono";

export function paginationHeaders(
  c: Context,
  offset: number,
  count: number,
  limit: number,
  total?: number,
): void {
  const after = offset + count;
  const more = total === undefined ? count === limit : after < total;
  if (more) c.header("x-pagination-next", String(after));
  c.header("x-pagination-total", String(total ?? (more ? after + 1 : after)));
}
