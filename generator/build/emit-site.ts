import { DOCS_FILES, DOCS_ROUTES } from "../contract/address.ts";
import { listHeaderRules, pageHeaderRules, downloadHeaderRules } from "../contract/header-rules.ts";
import { commonHeaders, parseHeadersFile } from "../contract/headers.ts";
import {
  BUILD_STAMP_PATH,
  FORMAT_VERSION,
  HEADERS_PATH,
  REDIRECTS_PATH,
} from "../contract/layout.ts";
import { ROUTE_TABLE_PATH, type RouteTable } from "../contract/routes.ts";
import type { DownloadsManifest } from "../contract/downloads.ts";
import { buildDocs } from "../docs/site.ts";
import type { DocsResource } from "../docs/input.ts";
import { packageVersion, readProjectText } from "../io/read.ts";
import type { FileSink } from "../io/sink.ts";
import { notServedRoutes } from "../resources/original.ts";
import { routeOf } from "../resources/resource.ts";
import type { BuildPlan } from "./plan.ts";

export interface SiteInput {
  readonly resources: readonly DocsResource[];
  readonly downloads: DownloadsManifest;
  /** The project's `_headers`: the headers of every response; the build's rules are appended. */
  readonly headersTemplate: string;
  readonly plan: BuildPlan;
  /** Deterministic facts about the inputs for `/_build.json`. */
  readonly stamp: Readonly<Record<string, unknown>>;
}

/** The files around the records: the docs, `_headers`, `_redirects`, the route table and `/_build.json`. */
export function emitSite(sink: FileSink, input: SiteInput): void {
  const notServed = notServedRoutes(input.resources.map((r) => r.resource.path));
  const docs = buildDocs({
    resources: input.resources,
    notServed,
    downloads: input.downloads,
    version: packageVersion(),
    script: readProjectText("generator/docs/client.js"),
  });
  for (const path of DOCS_FILES) sink.write(path, docs.files[path]);
  sink.write(HEADERS_PATH, headersFile(input.headersTemplate, docs.headerRules));
  sink.write(REDIRECTS_PATH, redirectsFile());
  const table: RouteTable = {
    formatVersion: FORMAT_VERSION,
    commonHeaders: commonHeaders(input.headersTemplate),
    resources: input.resources.map((r) =>
      routeOf(r.resource, input.plan.shards.get(r.resource.id) ?? 1),
    ),
    notServed,
  };
  sink.write(ROUTE_TABLE_PATH, JSON.stringify(table));
  const paged = input.resources.filter((r) => r.resource.query.paged);
  sink.write(
    BUILD_STAMP_PATH,
    JSON.stringify(
      {
        ...input.stamp,
        pageSizes: Object.fromEntries(input.plan.sizes),
        views: Object.fromEntries(paged.map((r) => [r.resource.id, r.views])),
        inlinedViews: Object.fromEntries(
          [...input.plan.inlined].map(([id, keys]) => [id, keys.size]),
        ),
      },
      null,
      2,
    ),
  );
}

/**
 * `_redirects`: the docs page at `/` too, served by the CDN as a plain asset (a rewrite, status
 * 200), so that the page costs no Worker invocation (the Worker runs first only for the API).
 */
function redirectsFile(): string {
  const aliases = [...DOCS_ROUTES].filter(([path, file]) => path !== file);
  return `# Generated: public paths served as another file of the build.\n${aliases.map(([path, file]) => `${path} ${file} 200\n`).join("")}`;
}

/** The project's `_headers` with the rules for the build's own files appended; checked against the CDN's limits. */
function headersFile(template: string, docsRules: string): string {
  const text = `${template.trimEnd()}\n\n# Generated: paging headers from the page file's path.\n${pageHeaderRules()}\n\n${listHeaderRules()}\n\n# Generated: the downloads.\n${downloadHeaderRules()}\n\n# Generated: the docs.\n${docsRules}\n`;
  const parsed = parseHeadersFile(text);
  if (!parsed.ok) throw new Error(`_headers line ${parsed.line}: ${parsed.message}`);
  return text;
}
