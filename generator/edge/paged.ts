import { pageFileSize, pagePath, selectView, shardOf } from "../contract/address.ts";
import { csvHeader, csvRow } from "../contract/csv.ts";
import { CONTENT_TYPES, pageEtag, pagingHeaders } from "../contract/headers.ts";
import { jsonRecord, renderPage } from "../contract/page.ts";
import { pageBounds, pageCount } from "../contract/paging.ts";
import { validationProblem } from "../contract/problem.ts";
import type { Format, ParsedQuery } from "../contract/query.ts";
import type { RouteResource } from "../contract/routes.ts";
import type { ShardEntry } from "../contract/shard.ts";
import type { ServeContext } from "./context.ts";
import { readPackedPage, type PackedStream } from "./packed.ts";
import { ifNoneMatch, type HeaderList } from "./responses.ts";

/** A resource's CSV header line, as text and as bytes: built once per resource. */
const csvHeaders = new WeakMap<
  RouteResource,
  { readonly text: string; readonly bytes: Uint8Array }
>();
export function headerLine(resource: RouteResource): {
  readonly text: string;
  readonly bytes: Uint8Array;
} {
  let line = csvHeaders.get(resource);
  if (line === undefined) {
    const text = csvHeader(resource.columns);
    line = { text, bytes: new TextEncoder().encode(text) };
    csvHeaders.set(resource, line);
  }
  return line;
}

/** An inlined view's records [start, end) rendered as the page files would hold them. */
export function inlinePage(
  resource: RouteResource,
  records: readonly unknown[],
  format: Format,
): string {
  return renderPage(
    format,
    headerLine(resource).text,
    format === "json" ? records.map(jsonRecord) : records.map((r) => csvRow(resource.columns, r)),
  );
}

/**
 * One page of a view: the view's index entry gives its total and where its records are; the page
 * is rendered from the entry's inlined records, is a page file of its own, or is sliced out of the
 * packed records. All three are the same bytes with the same headers.
 */
export async function servePaged(
  ctx: ServeContext,
  resource: RouteResource,
  params: ReadonlyMap<string, string>,
  query: ParsedQuery,
): Promise<Response> {
  const { request, origin, store, respond, format } = ctx;
  const selection = selectView(resource.selectors, (s) =>
    s.in === "path" ? params.get(s.param) : query.filters.get(s.param),
  );
  if (!selection.ok) {
    const { param, missing } = selection.missing;
    return respond.problem(
      validationProblem(
        { [param]: [`The ${param} field is required.`] },
        missing ?? `No ${param} given.`,
      ),
    );
  }
  const shard = await store.shard(origin, resource.id, shardOf(selection.key, resource.shards));
  const entry = shard.entries.get(selection.key);
  const total = entry?.total ?? 0;
  const { page, pageSize } = query;
  const headers: HeaderList = [
    ["Content-Type", CONTENT_TYPES[format]],
    ["ETag", pageEtag(entry?.hash ?? "0", pageSize, page, format)],
    ...pagingHeaders(page, pageSize, total),
    ...ctx.vary,
  ];
  if (ifNoneMatch(request, headers)) return respond.empty(304, headers);
  if (entry === undefined || page > pageCount(total, pageSize))
    return respond.body(200, renderPage(format, headerLine(resource).text, []), headers);
  const { start, end } = pageBounds(page, pageSize, total);
  if (entry.records !== undefined)
    return respond.body(
      200,
      inlinePage(resource, entry.records.slice(start, end), format),
      headers,
    );
  const fileSize = pageFileSize(shard.sizes, pageSize, total);
  if (fileSize !== undefined) {
    const asset = await store.require(
      origin,
      pagePath({
        resource: resource.id,
        slug: entry.slug,
        total,
        pageSize: fileSize,
        page,
        format,
      }),
    );
    // The file's own paging headers (from its path) are right only for its own page size.
    if (fileSize === pageSize)
      return await respond.asset(
        request.method,
        asset,
        headers.filter(([name]) => name === "ETag" || name === "Vary"),
      );
    return respond.body(200, new Uint8Array(await asset.arrayBuffer()), headers);
  }
  return respond.body(
    200,
    await readPackedPage(
      packedStream(ctx, resource, format),
      packedOf(entry, format),
      total,
      start,
      end,
    ),
    headers,
  );
}

/** A resource's packed stream in one format, as this request reads it. */
export function packedStream(
  ctx: Pick<ServeContext, "store" | "origin">,
  resource: RouteResource,
  format: Format,
): PackedStream {
  return {
    store: ctx.store,
    origin: ctx.origin,
    resource: resource.id,
    format,
    csvHeaderLine: headerLine(resource).bytes,
  };
}

export function packedOf(entry: ShardEntry, format: Format) {
  const packed = entry.packed?.[format];
  if (packed === undefined) throw new Error(`view ${entry.slug} is neither inlined nor packed`);
  return packed;
}
