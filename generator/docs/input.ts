import type { AnyResource } from "../resources/resource.ts";
import type { DownloadsManifest } from "../contract/downloads.ts";
import { isFullTextSearch, isSuggesting, type NotServedRoute } from "../contract/routes.ts";

/** A served resource as the docs see it: its definition plus facts of the build. */
export interface DocsResource {
  readonly resource: AnyResource;
  /** Records in the build. */
  readonly records: number;
  /** Distinct filter values (localities) of a filtered resource; 1 for a list. */
  readonly views: number;
  /** One real record of the build, for response examples (absent when the resource is empty). */
  readonly sample?: unknown;
  /** A few real views of the build (selector values as clients write them), for parameter examples. */
  readonly exampleViews?: readonly {
    readonly filter: Readonly<Record<string, string>>;
    readonly records: number;
  }[];
}

export interface DocsInput {
  readonly resources: readonly DocsResource[];
  /** Endpoints of the original API this build does not serve, and why (the route table's list). */
  readonly notServed: readonly NotServedRoute[];
  /** The build's downloads (the docs page links them). */
  readonly downloads?: DownloadsManifest;
  /** Version of the API description (the package version). */
  readonly version: string;
}

/** What the docs site is made of besides the resources: the page's script. */
export interface DocsSiteInput extends DocsInput {
  /** The docs page's script (`/docs.js`), served as it is. */
  readonly script: string;
}

/** `/de/Streets` → `Germany`: the country a path's first segment names. */
export function countryOf(path: string): string {
  const code = path.split("/")[1] ?? "";
  return COUNTRIES[code] ?? code;
}
const COUNTRIES: Readonly<Record<string, string>> = {
  de: "Germany",
  at: "Austria",
  ch: "Switzerland",
  li: "Liechtenstein",
};

/** `/de/Streets` → `de-streets`: an id for anchors, operation names and example keys. */
export function slugOf(text: string): string {
  return text
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .toLowerCase();
}

/** `11,920 records in 1 locality`: how much a build serves of a resource. */
export function sizeOf({ resource, records, views }: DocsResource): string {
  const recordText = `${records.toLocaleString("en")} ${records === 1 ? "record" : "records"}`;
  if (
    !resource.query.paged ||
    isFullTextSearch(resource) ||
    isSuggesting(resource) ||
    resource.patterns !== undefined
  )
    return recordText;
  const first = resource.selectors?.[0];
  const [one, many] =
    first?.in === "path"
      ? ["key", "keys"]
      : first?.param === "locality"
        ? ["locality", "localities"]
        : ["filter selection", "filter selections"];
  return `${recordText} in ${views.toLocaleString("en")} ${views === 1 ? one : many}`;
}
