import { selectView, shardOf } from "../contract/address.ts";
import { CONTENT_TYPES, fnv, pageEtag, pagingHeaders } from "../contract/headers.ts";
import { renderPage } from "../contract/page.ts";
import { pageBounds, pageCount } from "../contract/paging.ts";
import { validationProblem } from "../contract/problem.ts";
import type { ParsedQuery } from "../contract/query.ts";
import type { RouteResource } from "../contract/routes.ts";
import { headsAt, placesAt, pageFiles, tailFiles, tailOf } from "../contract/search/leaves.ts";
import { SearchTooBroad, type Found, type Reader } from "../contract/search/plan.ts";
import { findFullText } from "../contract/search/query.ts";
import { PatternTooBroad } from "../contract/search/names.ts";
import {
  withoutUniversal,
  PREFIX_PARAMETER,
  parseSearchRequest,
  parseStreetFilters,
  SEARCH_TERM_PARAMETER,
  STREET_FILTERS,
} from "../contract/search/request.ts";
import { headCsv, headJson } from "../contract/search/store.ts";
import { findStreets } from "../contract/search/streets.ts";
import type { ServeContext } from "./context.ts";
import { headerLine, servePaged } from "./paged.ts";
import { ifNoneMatch, type HeaderList } from "./responses.ts";
import { SearchFiles } from "./search-reader.ts";

/** `/{country}/FullTextSearch`: the page of streets that match the search term. */
export async function serveFullText(
  ctx: ServeContext,
  resource: RouteResource,
  query: ParsedQuery,
): Promise<Response> {
  const parsed = parseSearchRequest(
    query.filters.get(SEARCH_TERM_PARAMETER),
    query.filters.get(PREFIX_PARAMETER),
  );
  if (!parsed.ok) return ctx.respond.problem(validationProblem(parsed.errors, parsed.detail));
  const { root } = parsed.value;
  const files = await searchFilesOf(ctx, resource);
  return await answer(
    ctx,
    resource,
    files,
    query,
    root === null ? "" : JSON.stringify(root),
    [SEARCH_TERM_PARAMETER],
    "add a word, a postal code or a locality, or make the last word longer",
    (r, start, end) =>
      root === null
        ? Promise.resolve({ total: 0, positions: new Int32Array() })
        : findFullText(r, root, start, end),
  );
}

/**
 * `/{country}/Streets` with search: a value of `locality` alone that names a locality is its view
 * (as without search); any other combination of `name`, `postalCode` and `locality` is answered
 * from the index.
 */
export async function serveStreets(
  ctx: ServeContext,
  resource: RouteResource,
  params: ReadonlyMap<string, string>,
  query: ParsedQuery,
): Promise<Response> {
  const given = STREET_FILTERS.filter((p) => query.filters.has(p));
  if (given.length === 1 && given[0] === "locality" && (await hasView(ctx, resource, query)))
    return await servePaged(ctx, resource, params, query);
  const files = await searchFilesOf(ctx, resource);
  const { meta } = files;
  const parsed = parseStreetFilters(
    query.filters,
    resource.selectors.find((s) => s.param === "locality")?.missing ??
      "No name, postal code or locality given.",
    {
      name: meta.nameCharacters,
      postalCode: meta.columns.postalCode.characters,
      locality: meta.columns.locality.characters,
    },
  );
  if (!parsed.ok) return ctx.respond.problem(validationProblem(parsed.errors, parsed.detail));
  const filters = withoutUniversal(parsed.value, meta);
  return await answer(
    ctx,
    resource,
    files,
    query,
    JSON.stringify(given.map((p) => [p, query.filters.get(p)?.normalize("NFC")])),
    given,
    "add postalCode or locality, or give a longer name",
    (r, start, end) => findStreets(r, filters, start, end),
  );
}

/**
 * The page a search finds, as JSON or CSV with the paging headers and an ETag of the index and the
 * question; everything read charged to one request's budget: a search that would read more is a
 * 400 naming `parameters` and saying how to narrow them.
 */
async function answer(
  ctx: ServeContext,
  resource: RouteResource,
  files: SearchFiles,
  query: ParsedQuery,
  question: string,
  parameters: readonly string[],
  narrower: string,
  find: (r: Reader, start: number, end: number) => Promise<Found>,
): Promise<Response> {
  const { respond } = ctx;
  const r = files.reader();
  try {
    const { start, end } = pageBounds(query.page, query.pageSize, Number.MAX_SAFE_INTEGER);
    return await answerFound(ctx, resource, r, await find(r, start, end), query, question);
  } catch (error) {
    if (error instanceof PatternTooBroad)
      return respond.problem(
        validationProblem({ [error.parameter]: [error.message] }, error.message),
      );
    if (!(error instanceof SearchTooBroad)) throw error;
    const message = `This search matches too broadly to be answered: it would read more than ${Math.floor(r.meta.readBudget / 1024)} KiB of the search index. To narrow it, ${narrower}.`;
    return respond.problem(
      validationProblem(Object.fromEntries(parameters.map((p) => [p, [message]])), message),
    );
  }
}

/**
 * The page of streets a search found (`found.positions`, of the query's page), as JSON or CSV with
 * the paging headers and an ETag of the index and the question; its reads charged to `r`
 * (SearchTooBroad past the budget). Suggestions answer their pages through it too.
 */
export async function answerFound(
  ctx: ServeContext,
  resource: RouteResource,
  r: Reader,
  found: Found,
  query: ParsedQuery,
  question: string,
): Promise<Response> {
  const { request, respond, format } = ctx;
  const { page, pageSize } = query;
  // The page's places and heads, from the record and head tables where the plan did not read them.
  const { positions } = found;
  await r.need(pageFiles(r.meta, found));
  const places = found.places ?? placesAt(r, positions);
  const heads = found.heads ?? headsAt(r, positions);
  const etag = pageEtag(
    `${r.meta.hash.slice(0, 8)}${fnv(`${resource.id}\u0000${question}`)}`,
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
  const rows = Array.from(
    places.subarray(0, page > pageCount(found.total, pageSize) ? 0 : places.length),
  );
  await r.need(tailFiles(r.meta, rows));
  const keys = r.meta.headKeys;
  const rendered = rows.map((place, i) =>
    format === "json"
      ? headJson(keys, heads[i] ?? []) + tailOf(r, place, 0)
      : headCsv(heads[i] ?? []) + tailOf(r, place, 1),
  );
  return respond.body(200, renderPage(format, headerLine(resource).text, rendered), headers);
}

async function hasView(ctx: ServeContext, resource: RouteResource, query: ParsedQuery) {
  const selection = selectView(resource.selectors, (s) => query.filters.get(s.param));
  if (!selection.ok) return false;
  const shard = await ctx.store.shard(
    ctx.origin,
    resource.id,
    shardOf(selection.key, resource.shards),
  );
  return shard.entries.has(selection.key);
}

const searchFilesOf = (ctx: ServeContext, resource: RouteResource) =>
  SearchFiles.open(ctx.store, ctx.origin, resource.search?.country ?? "");
