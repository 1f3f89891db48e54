import { buildDocs, packageVersion } from "../docs/site.ts";
import type { DocsResource } from "../docs/model.ts";
import { viewsOf, contentHash } from "../model/views.ts";
import { csvHeader, csvRow } from "../render/csv.ts";
import { jsonArray, jsonRecord } from "../render/json.ts";
import { DOCS_FILES, hasPageFiles, indexPath, listPath, listHeaderRules, normalizeFilterValue, pageHeaderRules, pagePath, shardOf, type IndexShard } from "../routes/files.ts";
import { CONTENT_TYPES, parseHeadersFile } from "../routes/headers.ts";
import { pageBounds, pageCount } from "../routes/paging.ts";
import type { AnyResource, Resource } from "../resources/resource.ts";
import { choosePageSizes, type SizePlan } from "./budget.ts";
import type { FileSink } from "./sink.ts";

/** A resource's records grouped into views, rendered only when written (memory stays per view). */
export interface PreparedResource {
  readonly resource: AnyResource;
  readonly records: number;
  readonly views: readonly PreparedView[];
}
export interface PreparedView {
  readonly key: string;
  readonly slug: string;
  readonly count: number;
  render(): { json: string[]; csv: string[] };
}

export function prepare<R>(resource: Resource<R>, records: readonly R[]): PreparedResource {
  const views = viewsOf(resource, records).map((view) => ({
    key: view.key,
    slug: view.slug,
    count: view.records.length,
    render: () => ({ json: view.records.map(jsonRecord), csv: view.records.map((r) => csvRow(resource.columns, r)) }),
  }));
  return { resource: resource as unknown as AnyResource, records: records.length, views };
}

export interface EmitOptions {
  readonly maxFiles: number;
  /** The project's `_headers` (common headers for every response); page rules are appended. */
  readonly headersTemplate: string;
  readonly onProgress?: (done: number, total: number) => void;
  /** Facts about the inputs recorded in `/_build.json` (must be deterministic). */
  readonly stamp?: Readonly<Record<string, unknown>>;
}

export interface EmitResult {
  readonly plan: SizePlan;
  readonly views: ReadonlyMap<string, number>;
}

/** Writes every page, index shard and list of a build, the docs, and `_headers` into `sink`. */
export function emitBuild(resources: readonly PreparedResource[], options: EmitOptions, sink: FileSink): EmitResult {
  const paged = resources.filter((r) => r.resource.query.paged);
  const lists = resources.filter((r) => !r.resource.query.paged);
  const shardFiles = paged.reduce((sum, r) => sum + new Set(r.views.map((v) => shardOf(v.key))).size, 0);
  const otherFiles = lists.length * 2 + shardFiles + DOCS_FILES.length + 2; // + _headers, _build.json
  const plan = choosePageSizes(
    paged.map((r) => ({ resource: r.resource.id, viewSizes: r.views.map((v) => v.count) })),
    otherFiles,
    options.maxFiles,
  );

  const totalViews = paged.reduce((sum, r) => sum + r.views.length, 0);
  let doneViews = 0;
  /** One real record per resource for the docs' examples: the first of the first example's view. */
  const samples = new Map<string, string>();
  for (const { resource, views } of paged) {
    const sampleKey = sampleViewKey(resource, views);
    const sizes = plan.sizes.get(resource.id) ?? [];
    const sizeSet = new Set(sizes);
    const header = csvHeader(resource.columns);
    const shards = new Map<number, [string, string, number, string][]>();
    for (const view of views) {
      const { json, csv } = view.render();
      if (view.key === sampleKey && json[0] !== undefined) samples.set(resource.id, json[0]);
      for (const pageSize of sizes) {
        if (!hasPageFiles(sizeSet, pageSize, view.count)) continue;
        for (let page = 1; page <= pageCount(view.count, pageSize); page++) {
          const { start, end } = pageBounds(page, pageSize, view.count);
          const address = { resource: resource.id, slug: view.slug, total: view.count, pageSize, page };
          sink.write(pagePath({ ...address, format: "json" }), jsonArray(json.slice(start, end)));
          sink.write(pagePath({ ...address, format: "csv" }), header + csv.slice(start, end).join(""));
        }
      }
      const shard = shardOf(view.key);
      const entries = shards.get(shard) ?? [];
      entries.push([view.key, view.slug, view.count, contentHash(json)]);
      shards.set(shard, entries);
      options.onProgress?.(++doneViews, totalViews);
    }
    for (const [shard, entries] of [...shards].sort((a, b) => a[0] - b[0])) {
      const index: IndexShard = { sizes, entries };
      sink.write(indexPath(resource.id, shard), JSON.stringify(index));
    }
  }

  for (const { resource, views } of lists) {
    const { json, csv } = views[0]?.render() ?? { json: [], csv: [] };
    if (json[0] !== undefined) samples.set(resource.id, json[0]);
    sink.write(listPath(resource.id, "json"), jsonArray(json));
    sink.write(listPath(resource.id, "csv"), csvHeader(resource.columns) + csv.join(""));
  }

  const docs = buildDocs({
    version: packageVersion(),
    resources: resources.map(({ resource, records, views }): DocsResource => {
      const sample = samples.get(resource.id);
      return { resource, records, views: views.length, ...(sample === undefined ? {} : { sample: JSON.parse(sample) as unknown }) };
    }),
  });
  for (const path of DOCS_FILES) sink.write(path, docs.files[path]);

  sink.write("/_headers", headersFile(options.headersTemplate, docs.headerRules));
  const views = new Map(paged.map((r) => [r.resource.id, r.views.length]));
  sink.write(
    "/_build.json",
    JSON.stringify({ ...options.stamp, pageSizes: Object.fromEntries(plan.sizes), views: Object.fromEntries(views) }, null, 2),
  );
  return { plan, views };
}

/** The view whose first record the docs show: the one the resource's first example asks for, else the first. */
function sampleViewKey(resource: AnyResource, views: readonly PreparedView[]): string | undefined {
  const param = resource.requiredFilter?.param;
  const wanted = param === undefined ? undefined : resource.examples[0]?.query[param];
  const key = wanted === undefined ? undefined : normalizeFilterValue(wanted);
  return views.find((view) => view.key === key)?.key ?? views[0]?.key;
}

function headersFile(template: string, docsRules: string): string {
  const text = `${template.trimEnd()}\n\n# Generated: paging headers from the page file's path.\n${pageHeaderRules(CONTENT_TYPES)}\n\n${listHeaderRules(CONTENT_TYPES)}\n\n# Generated: the docs.\n${docsRules}\n`;
  const parsed = parseHeadersFile(text);
  if (!parsed.ok) throw new Error(`_headers line ${parsed.line}: ${parsed.message}`);
  return text;
}
