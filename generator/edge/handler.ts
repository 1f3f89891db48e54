import { DOCS_ROUTES, hasPageFiles, indexPath, listPath, normalizeSelectorValue, pagePath, shardOf, viewKey, type DocsFile, type IndexShard } from "../routes/files.ts";
import { DOWNLOADS_INDEX, isDownloadPath } from "../routes/downloads.ts";
import { CONTENT_TYPES, pagingHeaders } from "../routes/headers.ts";
import { formatFromAccept } from "../routes/negotiate.ts";
import { CANONICAL_PAGE_SIZE, pageBounds, pageCount } from "../routes/paging.ts";
import { internalErrorProblem, methodNotAllowedProblem, notFoundProblem, validationProblem } from "../routes/problem.ts";
import { parseQuery, type Format, type ParsedQuery } from "../routes/query.ts";
import { canonicalPagesFor, slicePage } from "../routes/slice.ts";
import type { AnyResource } from "../resources/resource.ts";
import { csvHeader, csvRow } from "../render/csv.ts";
import { ResponseFactory, type HeaderList } from "./responses.ts";

/** The static-assets binding: fetches a file of the build, with its `_headers` rules applied. */
export interface Assets {
  fetch(request: Request): Promise<Response>;
}

interface IndexEntry {
  readonly slug: string;
  readonly total: number;
  readonly hash: string;
  /** An inlined view's records (it has no page files). */
  readonly records: readonly unknown[] | undefined;
}
interface ShardLookup {
  readonly sizes: ReadonlySet<number>;
  readonly entries: ReadonlyMap<string, IndexEntry>;
}

const ALLOW = "GET, HEAD, OPTIONS";

/** What a path serves: a resource with its path parameters, or a file of the build served as it is (docs, downloads). */
type Route = { readonly resource: AnyResource; readonly params: ReadonlyMap<string, string> } | { readonly file: DocsFile | string };

/** A resource path split into segments: literals lower-cased, `{name}` as parameters. */
interface PathTemplate {
  readonly resource: AnyResource;
  readonly segments: readonly ({ readonly literal: string } | { readonly param: string })[];
}

function compileTemplate(resource: AnyResource): PathTemplate {
  const segments = resource.path
    .split("/")
    .slice(1)
    .map((segment) => {
      const param = /^\{([A-Za-z]+)\}$/.exec(segment)?.[1];
      return param === undefined ? { literal: segment.toLowerCase() } : { param };
    });
  return { resource, segments };
}

/** A path segment's value: percent-decoded, or as sent when it is not valid percent-encoding (it then matches nothing). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Maps API requests onto the build's files. Per isolate it caches the index shards it has read,
 * so a warm request fetches one page file (two when a page is cut from canonical pages).
 */
export function createHandler(resources: readonly AnyResource[], commonHeaders: HeaderList, assets: Assets): (request: Request) => Promise<Response> {
  const respond = new ResponseFactory(commonHeaders);
  const templatesByLength = new Map<number, PathTemplate[]>();
  for (const template of resources.map(compileTemplate)) templatesByLength.set(template.segments.length, [...(templatesByLength.get(template.segments.length) ?? []), template]);
  const emptyCsv = new Map(resources.map((resource) => [resource.id, csvHeader(resource.columns)]));
  // Only resolved data is cached: a promise started by one request must not be awaited by another
  // (workerd cancels such a request as hung), so concurrent cold requests each read the shard.
  const shards = new Map<string, ShardLookup>();

  const fetchAsset = (origin: string, path: string) => assets.fetch(new Request(new URL(path, origin)));

  const loadShard = async (origin: string, resource: string, shard: number): Promise<ShardLookup> => {
    const path = indexPath(resource, shard);
    const cached = shards.get(path);
    if (cached !== undefined) return cached;
    const response = await fetchAsset(origin, path);
    let lookup: ShardLookup;
    if (response.status === 404) lookup = { sizes: new Set<number>(), entries: new Map<string, IndexEntry>() };
    else if (!response.ok) throw new Error(`index ${path}: HTTP ${response.status}`);
    else {
      const index = (await response.json()) as IndexShard;
      lookup = {
        sizes: new Set(index.sizes),
        entries: new Map(index.entries.map(([key, slug, total, hash, records]) => [key, { slug, total, hash, records }])),
      };
    }
    shards.set(path, lookup);
    return lookup;
  };

  const servePaged = async (request: Request, url: URL, resource: AnyResource, params: ReadonlyMap<string, string>, query: ParsedQuery, format: Format, vary: HeaderList): Promise<Response> => {
    const method = request.method;
    // Selector values in selector order; one that is empty after normalisation counts as absent.
    const values: (string | undefined)[] = [];
    for (const selector of resource.selectors ?? []) {
      const raw = selector.in === "path" ? params.get(selector.param) : query.filters.get(selector.param);
      const value = raw === undefined ? "" : normalizeSelectorValue(selector.match, raw);
      if (value === "" && selector.required) {
        return respond.problem(validationProblem({ [selector.param]: [`The ${selector.param} field is required.`] }, selector.missing ?? `No ${selector.param} given.`));
      }
      values.push(value === "" ? undefined : value);
    }
    const key = viewKey(values);
    const shard = await loadShard(url.origin, resource.id, shardOf(key));
    const entry = shard.entries.get(key);
    const total = entry?.total ?? 0;
    const { page, pageSize } = query;
    const headers: HeaderList = [
      ["Content-Type", CONTENT_TYPES[format]],
      ["ETag", `"${entry?.hash ?? "0"}.${pageSize}.${page}.${format}"`],
      ...pagingHeaders(page, pageSize, total),
      ...vary,
    ];
    if (ifNoneMatch(request, headers)) return respond.empty(304, headers);
    if (entry === undefined || page > pageCount(total, pageSize)) {
      return respond.body(200, format === "json" ? "[]" : (emptyCsv.get(resource.id) ?? ""), headers);
    }
    if (entry.records !== undefined) {
      const { start, end } = pageBounds(page, pageSize, total);
      const records = entry.records.slice(start, end);
      const body = format === "json" ? `[${records.map((record) => JSON.stringify(record)).join(",")}]` : (emptyCsv.get(resource.id) ?? "") + records.map((record) => csvRow(resource.columns, record as never)).join("");
      return respond.body(200, body, headers);
    }
    const address = { resource: resource.id, slug: entry.slug, total, format };
    if (hasPageFiles(shard.sizes, pageSize, total)) {
      const asset = await fetchAsset(url.origin, pagePath({ ...address, pageSize, page }));
      if (!asset.ok) throw new Error(`page file missing: HTTP ${asset.status}`);
      return await respond.asset(method, asset, headers.filter(([name]) => name === "ETag" || name === "Vary"));
    }
    const canonical = canonicalPagesFor(page, pageSize, total, CANONICAL_PAGE_SIZE);
    if (canonical === undefined) throw new Error("unreachable: a page within the total has records");
    const bodies: Promise<string>[] = [];
    for (let p = canonical.first; p <= canonical.last; p++) {
      bodies.push(
        fetchAsset(url.origin, pagePath({ ...address, pageSize: CANONICAL_PAGE_SIZE, page: p })).then((asset) => {
          if (!asset.ok) throw new Error(`canonical page missing: HTTP ${asset.status}`);
          return asset.text();
        }),
      );
    }
    const body = slicePage(format, await Promise.all(bodies), canonical.first, CANONICAL_PAGE_SIZE, page, pageSize, total);
    return respond.body(200, body, headers);
  };

  const serveList = async (request: Request, url: URL, resource: AnyResource, format: Format, vary: HeaderList): Promise<Response> => {
    const asset = await fetchAsset(url.origin, listPath(resource.id, format));
    if (!asset.ok) throw new Error(`list file missing: HTTP ${asset.status}`);
    const etag = asset.headers.get("ETag");
    const headers: HeaderList = [...(etag === null ? [] : [["ETag", etag] as const]), ...vary];
    if (ifNoneMatch(request, headers)) return respond.empty(304, [["Content-Type", CONTENT_TYPES[format]], ...headers]);
    return await respond.asset(request.method, asset, vary);
  };

  /** A docs or download file, passed through with its `_headers` rules (the page has its own CSP), 304 included. */
  const serveFile = async (request: Request, url: URL, file: string): Promise<Response> => {
    const asset = await fetchAsset(url.origin, file);
    if (asset.status === 404 && isDownloadPath(file)) return respond.problem(notFoundProblem(url.pathname));
    if (!asset.ok) throw new Error(`file ${file} missing: HTTP ${asset.status}`);
    const etag = asset.headers.get("ETag");
    if (etag !== null && ifNoneMatch(request, [["ETag", etag]])) return respond.assetNotModified(asset);
    return await respond.asset(request.method, asset, []);
  };

  /** Resources match case-insensitively and with a trailing slash; files exactly (`/downloads/` is the manifest). */
  const routeOf = (pathname: string): Route | undefined => {
    const path = pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
    const segments = path.split("/").slice(1);
    for (const template of templatesByLength.get(segments.length) ?? []) {
      // Literal segments first (no allocation); then the parameters of the matching template.
      const matches = template.segments.every((part, i) => ("literal" in part ? part.literal === (segments[i] ?? "").toLowerCase() : segments[i] !== ""));
      if (!matches) continue;
      const params = new Map<string, string>();
      template.segments.forEach((part, i) => {
        if ("param" in part) params.set(part.param, decodeSegment(segments[i] ?? ""));
      });
      return { resource: template.resource, params };
    }
    if (path === "/downloads") return { file: DOWNLOADS_INDEX };
    if (isDownloadPath(pathname)) return { file: pathname };
    const file = DOCS_ROUTES.get(pathname);
    return file === undefined ? undefined : { file };
  };

  return async (request) => {
    const url = new URL(request.url);
    const method = request.method;
    const route = routeOf(url.pathname);
    try {
      if (route === undefined) return respond.problem(notFoundProblem(url.pathname));
      if (method === "OPTIONS") {
        return respond.empty(204, [
          ["Access-Control-Allow-Methods", ALLOW],
          ["Access-Control-Allow-Headers", "Accept"],
          ["Access-Control-Max-Age", "86400"],
        ]);
      }
      if (method !== "GET" && method !== "HEAD") return respond.problem(methodNotAllowedProblem(method, ALLOW), [["Allow", ALLOW]]);
      if ("file" in route) return await serveFile(request, url, route.file);
      const { resource, params } = route;
      const parsed = parseQuery(url.searchParams, resource.query);
      if (!parsed.ok) return respond.problem(validationProblem(parsed.errors, "The query string has invalid parameters; see errors."));
      const format = parsed.query.format ?? formatFromAccept(request.headers.get("Accept"));
      const vary: HeaderList = parsed.query.format === undefined ? [["Vary", "Accept"]] : [];
      return resource.query.paged
        ? await servePaged(request, url, resource, params, parsed.query, format, vary)
        : await serveList(request, url, resource, format, vary);
    } catch (error) {
      console.error(error);
      return respond.problem(internalErrorProblem());
    }
  };
}

function ifNoneMatch(request: Request, headers: HeaderList): boolean {
  const condition = request.headers.get("If-None-Match");
  const etag = headers.find(([name]) => name === "ETag")?.[1];
  if (condition === null || etag === undefined) return false;
  return condition.trim() === "*" || condition.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}
