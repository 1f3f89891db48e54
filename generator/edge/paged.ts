import { hasPageFiles, pagePath, selectView } from "../contract/address.ts";
import { csvHeader, csvRow } from "../contract/csv.ts";
import { CONTENT_TYPES, pageEtag, pagingHeaders } from "../contract/headers.ts";
import { canonicalPagesFor, cutPage, jsonRecord, renderPage } from "../contract/page.ts";
import { CANONICAL_PAGE_SIZE, pageBounds, pageCount } from "../contract/paging.ts";
import { validationProblem } from "../contract/problem.ts";
import type { ParsedQuery } from "../contract/query.ts";
import type { RouteResource } from "../contract/routes.ts";
import type { ServeContext } from "./context.ts";
import { ifNoneMatch, type HeaderList } from "./responses.ts";

/** The CSV header line of a resource: the body of an empty CSV page, built once per resource. */
const csvHeaders = new WeakMap<RouteResource, string>();
function headerLine(resource: RouteResource): string {
  let line = csvHeaders.get(resource);
  if (line === undefined) {
    line = csvHeader(resource.columns);
    csvHeaders.set(resource, line);
  }
  return line;
}

/**
 * One page of a view: the view's index entry gives its total and where its records are; the page
 * is its own file, rendered from the entry's inlined records, or cut from the canonical pages that
 * hold its records. All three are the same bytes with the same headers.
 */
export async function servePaged(ctx: ServeContext, resource: RouteResource, params: ReadonlyMap<string, string>, query: ParsedQuery): Promise<Response> {
  const { request, origin, store, respond, format } = ctx;
  const selection = selectView(resource.selectors, (s) => (s.in === "path" ? params.get(s.param) : query.filters.get(s.param)));
  if (!selection.ok) {
    const { param, missing } = selection.missing;
    return respond.problem(validationProblem({ [param]: [`The ${param} field is required.`] }, missing ?? `No ${param} given.`));
  }
  const shard = await store.shard(origin, resource.id, selection.shard);
  const entry = shard.entries.get(selection.key);
  const total = entry?.total ?? 0;
  const { page, pageSize } = query;
  const headers: HeaderList = [["Content-Type", CONTENT_TYPES[format]], ["ETag", pageEtag(entry?.hash ?? "0", pageSize, page, format)], ...pagingHeaders(page, pageSize, total), ...ctx.vary];
  if (ifNoneMatch(request, headers)) return respond.empty(304, headers);
  if (entry === undefined || page > pageCount(total, pageSize)) return respond.body(200, renderPage(format, headerLine(resource), []), headers);
  if (entry.records !== undefined) {
    const { start, end } = pageBounds(page, pageSize, total);
    const records = entry.records.slice(start, end);
    return respond.body(200, renderPage(format, headerLine(resource), format === "json" ? records.map(jsonRecord) : records.map((r) => csvRow(resource.columns, r))), headers);
  }
  const address = { resource: resource.id, slug: entry.slug, total, format };
  if (hasPageFiles(shard.sizes, pageSize, total)) {
    const asset = await store.require(origin, pagePath({ ...address, pageSize, page }));
    return await respond.asset(request.method, asset, headers.filter(([name]) => name === "ETag" || name === "Vary"));
  }
  const canonical = canonicalPagesFor(page, pageSize, total, CANONICAL_PAGE_SIZE);
  if (canonical === undefined) throw new Error("unreachable: a page within the total has records");
  const bodies: Promise<string>[] = [];
  for (let p = canonical.first; p <= canonical.last; p++) bodies.push(store.require(origin, pagePath({ ...address, pageSize: CANONICAL_PAGE_SIZE, page: p })).then((asset) => asset.text()));
  return respond.body(200, cutPage(format, await Promise.all(bodies), canonical.first, CANONICAL_PAGE_SIZE, page, pageSize, total), headers);
}
