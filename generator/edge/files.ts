import { listPath } from "../contract/address.ts";
import { isDownloadPath } from "../contract/downloads.ts";
import { CONTENT_TYPES } from "../contract/headers.ts";
import { notFoundProblem } from "../contract/problem.ts";
import type { RouteResource } from "../contract/routes.ts";
import type { AssetStore } from "./assets.ts";
import type { ServeContext } from "./context.ts";
import { ifNoneMatch, type HeaderList, type ResponseFactory } from "./responses.ts";

/** An unpaged list: its file in the negotiated format, with the file's ETag. */
export async function serveList(ctx: ServeContext, resource: RouteResource): Promise<Response> {
  const { request, origin, store, respond, format, vary } = ctx;
  const asset = await store.require(origin, listPath(resource.id, format));
  const etag = asset.headers.get("ETag");
  const headers: HeaderList = [...(etag === null ? [] : [["ETag", etag] as const]), ...vary];
  if (ifNoneMatch(request, headers))
    return respond.empty(304, [["Content-Type", CONTENT_TYPES[format]], ...headers]);
  return await respond.asset(request.method, asset, vary);
}

/** A docs or download file, passed through with its `_headers` rules (the page has its own CSP), 304 included. */
export async function serveFile(
  request: Request,
  url: URL,
  store: AssetStore,
  respond: ResponseFactory,
  file: string,
): Promise<Response> {
  const asset = await store.fetch(url.origin, file);
  if (asset.status === 404 && isDownloadPath(file))
    return respond.problem(notFoundProblem(url.pathname));
  if (!asset.ok) throw new Error(`file ${file} missing: HTTP ${asset.status}`);
  const etag = asset.headers.get("ETag");
  if (etag !== null && ifNoneMatch(request, [["ETag", etag]]))
    return respond.assetNotModified(asset);
  return await respond.asset(request.method, asset, []);
}
