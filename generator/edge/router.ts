import { DOCS_ROUTES } from "../contract/address.ts";
import { DOWNLOADS_INDEX, isDownloadPath } from "../contract/downloads.ts";
import type { RouteResource } from "../contract/routes.ts";

/** What a path serves: a resource with its path parameters, or a file of the build served as it is (docs, downloads). */
export type Route = { readonly resource: RouteResource; readonly params: ReadonlyMap<string, string> } | { readonly file: string };

/** A resource path split into segments: literals lower-cased, `{name}` as parameters. */
interface PathTemplate {
  readonly resource: RouteResource;
  readonly segments: readonly ({ readonly literal: string } | { readonly param: string })[];
}

/**
 * Maps request paths onto the route table's resources and the build's plain files. Resources
 * match case-insensitively and with a trailing slash; files exactly (`/downloads/` is the manifest).
 */
export function createRouter(resources: readonly RouteResource[]): (pathname: string) => Route | undefined {
  const templatesByLength = new Map<number, PathTemplate[]>();
  for (const template of resources.map(compileTemplate)) templatesByLength.set(template.segments.length, [...(templatesByLength.get(template.segments.length) ?? []), template]);
  return (pathname) => {
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
}

function compileTemplate(resource: RouteResource): PathTemplate {
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
