import { shardOf } from "../contract/address.ts";
import { CONTENT_TYPES } from "../contract/headers.ts";
import { notFoundProblem } from "../contract/problem.ts";
import type { Format } from "../contract/query.ts";
import type { RouteResource } from "../contract/routes.ts";
import { slugShardKey } from "../contract/shard.ts";
import type { AssetStore } from "./assets.ts";
import { streamPackedView } from "./packed.ts";
import { inlinePage, packedOf, packedStream } from "./paged.ts";
import { ifNoneMatch, type HeaderList, type ResponseFactory } from "./responses.ts";

/**
 * One view's complete records as a download (`/downloads/de.streets/berlin.json`): the slug's
 * index entry names the view, and the Worker streams its packed records (or renders its inlined
 * ones), the same bytes the downloads manifest describes.
 */
export async function serveViewDownload(
  request: Request,
  url: URL,
  store: AssetStore,
  respond: ResponseFactory,
  resource: RouteResource,
  slug: string,
  format: Format,
): Promise<Response> {
  const origin = url.origin;
  const key = (
    await store.shard(origin, resource.id, shardOf(slugShardKey(slug), resource.shards))
  ).slugs.get(slug);
  const entry =
    key === undefined
      ? undefined
      : (await store.shard(origin, resource.id, shardOf(key, resource.shards))).entries.get(key);
  if (entry === undefined) return respond.problem(notFoundProblem(url.pathname));
  const headers: HeaderList = [
    ["Content-Type", CONTENT_TYPES[format]],
    ["ETag", `"${entry.hash}.${format}"`],
  ];
  if (ifNoneMatch(request, headers)) return respond.empty(304, headers);
  if (entry.records !== undefined)
    return respond.body(200, inlinePage(resource, entry.records, format), headers);
  const view = streamPackedView(
    packedStream({ store, origin }, resource, format),
    packedOf(entry, format),
  );
  return respond.stream(200, request.method === "HEAD" ? null : view.body(), view.length, headers);
}
