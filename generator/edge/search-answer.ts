/** A search's answer: the found page rendered as JSON or CSV with its paging headers and ETag. */
import { CONTENT_TYPES, pageEtag, pagingHeaders } from "../contract/headers.ts";
import { renderPage } from "../contract/page.ts";
import { pageCount } from "../contract/paging.ts";
import type { ParsedQuery } from "../contract/query.ts";
import type { RouteResource } from "../contract/routes.ts";
import type { ReadBudget } from "../contract/search/budget.ts";
import { headCsv, headJson } from "../contract/search/store.ts";
import type { ServeContext } from "./context.ts";
import { headerLine } from "./paged.ts";
import { ifNoneMatch, type HeaderList } from "./responses.ts";
import type { Found } from "./search-filters.ts";
import type { SearchIndex } from "./search-index.ts";

/** The page as JSON or CSV, with the paging headers and an ETag of the index and the question. */
export async function answer(
  ctx: ServeContext,
  resource: RouteResource,
  index: SearchIndex,
  budget: ReadBudget,
  found: Found,
  query: ParsedQuery,
  question: string,
): Promise<Response> {
  const { request, respond, format } = ctx;
  const { page, pageSize } = query;
  const etag = pageEtag(
    `${index.meta.hash.slice(0, 8)}${fnv(`${resource.id}\u0000${question}`)}`,
    pageSize,
    page,
    format,
  );
  const headers: HeaderList = [
    ["Content-Type", CONTENT_TYPES[format]],
    ["ETag", etag],
    ...pagingHeaders(page, pageSize, found.total),
    ...ctx.vary,
  ];
  if (ifNoneMatch(request, headers)) return respond.empty(304, headers);
  const rows = page > pageCount(found.total, pageSize) ? [] : found.page;
  const tailOf = await index.tailsOf(
    rows.map((entry) => entry.place),
    budget,
  );
  const keys = index.meta.headKeys;
  const rendered =
    format === "json"
      ? rows.map((entry) => headJson(keys, entry.head) + tailOf(entry.place, 0))
      : rows.map((entry) => headCsv(entry.head) + tailOf(entry.place, 1));
  return respond.body(200, renderPage(format, headerLine(resource).text, rendered), headers);
}

function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, "0");
}
