import { ALLOWED_METHODS, CORS_PREFLIGHT_HEADERS } from "../contract/headers.ts";
import { formatMismatch } from "../contract/layout.ts";
import { formatFromAccept } from "../contract/negotiate.ts";
import {
  internalErrorProblem,
  methodNotAllowedProblem,
  notFoundProblem,
  notServedProblem,
  validationProblem,
} from "../contract/problem.ts";
import { parseQuery, pathParameterErrors } from "../contract/query.ts";
import {
  isFullTextSearch,
  isSearchedStreets,
  isSuggesting,
  type RouteTable,
} from "../contract/routes.ts";
import { AssetStore, type Assets } from "./assets.ts";
import type { ServeContext } from "./context.ts";
import { serveViewDownload } from "./downloads.ts";
import { serveFile, serveList } from "./files.ts";
import { serveMatched } from "./matched.ts";
import { servePaged } from "./paged.ts";
import { serveFullText, serveStreets } from "./search.ts";
import { serveAddressCheck, serveSuggestions } from "./suggest.ts";
import { ResponseFactory, type HeaderList, type MakeResponse } from "./responses.ts";
import { createRouter, type Route } from "./router.ts";

export type Handler = (request: Request) => Promise<Response>;

/** A build's API as served: its router and the responses carrying its common headers. */
interface Api {
  readonly route: (pathname: string) => Route | undefined;
  readonly respond: ResponseFactory;
}

/**
 * Maps API requests onto the build's files. The route table comes from the build (read once per
 * isolate); every answer, errors included, carries the common headers it lists.
 */
export function createHandler(assets: Assets, make?: MakeResponse): Handler {
  const store = new AssetStore(assets);
  let api: Api | undefined;
  return async (request) => {
    const url = new URL(request.url);
    try {
      if (api === undefined) {
        const table = await store.routeTable(url.origin);
        const mismatch = formatMismatch("this deployment", table.formatVersion);
        if (mismatch !== undefined) {
          console.error(mismatch);
          return new ResponseFactory([], make).problem({
            ...internalErrorProblem(),
            detail: mismatch,
          });
        }
        api ??= compile(table, make);
      }
    } catch (error) {
      logFailure(error);
      return new ResponseFactory([], make).problem(internalErrorProblem());
    }
    return handle(api, store, request, url);
  };
}

function compile(table: RouteTable, make?: MakeResponse): Api {
  return { route: createRouter(table), respond: new ResponseFactory(table.commonHeaders, make) };
}

async function handle(
  { route: routeOf, respond }: Api,
  store: AssetStore,
  request: Request,
  url: URL,
): Promise<Response> {
  const method = request.method;
  const route = routeOf(url.pathname);
  try {
    // A preflight is answered alike for every path: the CORS policy is the API's, and a script
    // must be able to read the 404 of a path that is not served as well as any other answer.
    if (method === "OPTIONS") return respond.empty(204, CORS_PREFLIGHT_HEADERS);
    if (route === undefined) return respond.problem(notFoundProblem(url.pathname));
    if ("notServed" in route)
      return respond.problem(notServedProblem(route.notServed.path, route.notServed.reason));
    if (method !== "GET" && method !== "HEAD")
      return respond.problem(methodNotAllowedProblem(method, ALLOWED_METHODS), [
        ["Allow", ALLOWED_METHODS],
      ]);
    if ("file" in route) return await serveFile(request, url, store, respond, route.file);
    if ("viewDownload" in route)
      return await serveViewDownload(
        request,
        url,
        store,
        respond,
        route.viewDownload.resource,
        route.viewDownload.slug,
        route.viewDownload.format,
      );
    const { resource, params } = route;
    const tooLong = pathParameterErrors(params);
    if (Object.keys(tooLong).length > 0)
      return respond.problem(
        validationProblem(tooLong, "The path has invalid parameters; see errors."),
      );
    const parsed = parseQuery(url.searchParams, resource.query);
    if (!parsed.ok)
      return respond.problem(
        validationProblem(parsed.errors, "The query string has invalid parameters; see errors."),
      );
    const vary: HeaderList = parsed.query.format === undefined ? [["Vary", "Accept"]] : [];
    const ctx: ServeContext = {
      request,
      origin: url.origin,
      store,
      respond,
      format: parsed.query.format ?? formatFromAccept(request.headers.get("Accept")),
      vary,
    };
    if (isFullTextSearch(resource)) return await serveFullText(ctx, resource, parsed.query);
    if (isSuggesting(resource))
      return resource.search.role === "suggestions"
        ? await serveSuggestions(ctx, resource, parsed.query)
        : await serveAddressCheck(ctx, resource, parsed.query);
    if (isSearchedStreets(resource)) return await serveStreets(ctx, resource, params, parsed.query);
    if (resource.patterns !== undefined)
      return await serveMatched(ctx, resource, resource.patterns, parsed.query);
    return resource.query.paged
      ? await servePaged(ctx, resource, params, parsed.query)
      : await serveList(ctx, resource);
  } catch (error) {
    logFailure(error);
    return respond.problem(internalErrorProblem());
  }
}

/** Characters of a failure's description that reach the log. */
const MAX_LOGGED = 1000;

/**
 * Logs an unexpected failure, clipped: an error's message can quote the request (a regular
 * expression built from a parameter), and no request should write more than a line's worth to
 * the log, however long its values.
 */
function logFailure(error: unknown): void {
  const text =
    error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  console.error(
    text.length > MAX_LOGGED ? `${text.slice(0, MAX_LOGGED)}… (${text.length} characters)` : text,
  );
}
