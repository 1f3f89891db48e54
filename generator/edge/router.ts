import { DOCS_ROUTES } from "../contract/address.ts";
import { DOWNLOADS_INDEX, isDownloadPath } from "../contract/downloads.ts";
import type { Format } from "../contract/query.ts";
import type { NotServedRoute, RouteResource, RouteTable } from "../contract/routes.ts";

/**
 * What a path serves: a resource with its path parameters, a file of the build served as it is
 * (docs, downloads), or an endpoint of the original API the build does not serve.
 */
export type Route =
  | { readonly resource: RouteResource; readonly params: ReadonlyMap<string, string> }
  | { readonly file: string }
  | {
      readonly viewDownload: {
        readonly resource: RouteResource;
        readonly slug: string;
        readonly format: Format;
      };
    }
  | { readonly notServed: NotServedRoute };

/** `/downloads/{resource}/{slug}.{json|csv}`: one view's records, assembled by the Worker. */
const VIEW_DOWNLOAD = /^\/downloads\/([a-z0-9.]+)\/([a-z0-9_-]+)\.(json|csv)$/;

/** An endpoint's path split into segments: literals lower-cased, `{name}` as parameters. */
interface PathTemplate<T> {
  readonly target: T;
  readonly segments: readonly ({ readonly literal: string } | { readonly param: string })[];
}

/**
 * Maps request paths onto the route table's resources, the build's plain files and the endpoints
 * it does not serve. Endpoints match case-insensitively and with a trailing slash; files exactly
 * (`/downloads/` is the manifest).
 */
export function createRouter(
  table: Pick<RouteTable, "resources" | "notServed">,
): (pathname: string) => Route | undefined {
  const resources = templateMatcher(table.resources);
  const notServed = templateMatcher(table.notServed);
  const viewDownloads = new Map(
    table.resources.filter((r) => r.viewDownloads).map((r) => [r.id, r]),
  );
  return (pathname) => {
    const path = pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
    const segments = path.split("/").slice(1);
    const served = resources(segments);
    if (served !== undefined) return { resource: served.target, params: served.params };
    if (path === "/downloads") return { file: DOWNLOADS_INDEX };
    const [, id = "", slug = "", format] = VIEW_DOWNLOAD.exec(pathname) ?? [];
    const downloadable = viewDownloads.get(id);
    if (downloadable !== undefined && (format === "json" || format === "csv"))
      return { viewDownload: { resource: downloadable, slug, format } };
    if (isDownloadPath(pathname)) return { file: pathname };
    const file = DOCS_ROUTES.get(pathname);
    if (file !== undefined) return { file };
    const unserved = notServed(segments);
    return unserved === undefined ? undefined : { notServed: unserved.target };
  };
}

/** The first of `targets` whose path template matches the segments, with its path parameters. */
function templateMatcher<T extends { readonly path: string }>(
  targets: readonly T[],
): (segments: readonly string[]) => { target: T; params: Map<string, string> } | undefined {
  const templatesByLength = new Map<number, PathTemplate<T>[]>();
  for (const template of targets.map(compileTemplate))
    templatesByLength.set(template.segments.length, [
      ...(templatesByLength.get(template.segments.length) ?? []),
      template,
    ]);
  return (segments) => {
    for (const template of templatesByLength.get(segments.length) ?? []) {
      // Literal segments first (no allocation); then the parameters of the matching template.
      const matches = template.segments.every((part, i) =>
        "literal" in part ? part.literal === (segments[i] ?? "").toLowerCase() : segments[i] !== "",
      );
      if (!matches) continue;
      const params = new Map<string, string>();
      template.segments.forEach((part, i) => {
        if ("param" in part) params.set(part.param, decodeSegment(segments[i] ?? ""));
      });
      return { target: template.target, params };
    }
    return undefined;
  };
}

function compileTemplate<T extends { readonly path: string }>(target: T): PathTemplate<T> {
  const segments = target.path
    .split("/")
    .slice(1)
    .map((segment) => {
      const param = /^\{([A-Za-z]+)\}$/.exec(segment)?.[1];
      return param === undefined ? { literal: segment.toLowerCase() } : { param };
    });
  return { target, segments };
}

/** A path segment's value: percent-decoded, or as sent when it is not valid percent-encoding (it then matches nothing). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
