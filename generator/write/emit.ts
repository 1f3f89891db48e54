import { buildDocs, packageVersion } from "../docs/site.ts";
import type { DocsResource } from "../docs/model.ts";
import { viewsOf, contentHash } from "../model/views.ts";
import { csvHeader, csvRow } from "../render/csv.ts";
import { jsonArray, jsonRecord } from "../render/json.ts";
import { DOCS_FILES, hasPageFiles, indexPath, listPath, listHeaderRules, normalizeSelectorValue, pageHeaderRules, pagePath, shardOf, viewKey, type IndexEntryTuple } from "../routes/files.ts";
import { CONTENT_TYPES, parseHeadersFile } from "../routes/headers.ts";
import { CANONICAL_PAGE_SIZE, pageBounds, pageCount } from "../routes/paging.ts";
import type { AnyResource, Resource } from "../resources/resource.ts";
import { GZIP_THRESHOLD, MAX_DOWNLOAD_BYTES, downloadHeaderRules } from "../routes/downloads.ts";
import { choosePageSizes, type SizePlan } from "./budget.ts";
import { DownloadWriter, type DownloadsManifest } from "./downloads.ts";
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
  /** The view's selector values as clients write them (the first record's spelling), for the downloads manifest. */
  readonly filter?: Readonly<Record<string, string>>;
  /**
   * Whether the view's records go into the resource's whole dataset: the views that give every
   * path key and required filter and no optional filter hold each record exactly once
   * (`/de/Localities`: only the view of all localities).
   */
  readonly inDataset: boolean;
  render(): { json: string[]; csv: string[] };
  /** The JSON records alone (what sizing a view needs, without its CSV). */
  renderJson(): string[];
}

export function prepare<R>(resource: Resource<R>, records: readonly R[]): PreparedResource {
  const selectors = resource.selectors ?? [];
  const views = viewsOf(resource, records).map((view): PreparedView => {
    const first = view.records[0];
    const given = selectors.flatMap((s, i) => {
      const value = view.values[i] === undefined || first === undefined ? undefined : s.value(first);
      return value === undefined ? [] : [[s.param, value] as const];
    });
    return {
      key: view.key,
      slug: view.slug,
      count: view.records.length,
      ...(given.length === 0 ? {} : { filter: Object.fromEntries(given) }),
      inDataset: selectors.every((s, i) => s.in === "path" || s.required || view.values[i] === undefined),
      render: () => ({ json: view.records.map(jsonRecord), csv: view.records.map((r) => csvRow(resource.columns, r)) }),
      renderJson: () => view.records.map(jsonRecord),
    };
  });
  return { resource: resource as unknown as AnyResource, records: records.length, views };
}

export interface EmitOptions {
  readonly maxFiles: number;
  /**
   * Bytes of inlined records per index shard (default `INLINE_SHARD_BYTES`; 0 inlines nothing).
   * Views of at most one canonical page are inlined smallest first while the shard stays within it.
   */
  readonly inlineShardBytes?: number;
  /** The project's `_headers` (common headers for every response); page rules are appended. */
  readonly headersTemplate: string;
  readonly onProgress?: (done: number, total: number) => void;
  /** Facts about the inputs recorded in `/_build.json` (must be deterministic). */
  readonly stamp?: Readonly<Record<string, unknown>>;
  /** When the data was built: the downloads manifest says so. */
  readonly builtAt: string;
  /** Where each source came from, for the downloads manifest. */
  readonly sources: readonly unknown[];
}

export interface EmitResult {
  readonly plan: SizePlan;
  readonly views: ReadonlyMap<string, number>;
  readonly downloads: DownloadsManifest;
  /** Files the downloads were estimated to need when the page sizes were chosen. */
  readonly downloadFilesReserved: number;
  /** Views per resource whose records are inlined in their index shard (no page files). */
  readonly inlined: ReadonlyMap<string, number>;
}

/** Default bytes of inlined records per index shard: shards stay a few tens of KB. */
export const INLINE_SHARD_BYTES = 32 * 1024;

/**
 * Which views to inline: per shard, views that fit in one canonical page, smallest (in rendered
 * JSON bytes) first, while the shard's inlined bytes stay within `budget`. Independent of the file
 * budget, so a tight and a generous build inline the same views.
 */
export function chooseInlined(views: readonly PreparedView[], budget: number): Set<string> {
  const byShard = new Map<number, { key: string; bytes: number }[]>();
  for (const view of views) {
    if (view.count > CANONICAL_PAGE_SIZE || budget <= 0) continue;
    const bytes = view.renderJson().reduce((sum, record) => sum + record.length + 1, 0);
    const list = byShard.get(shardOf(view.key)) ?? [];
    list.push({ key: view.key, bytes });
    byShard.set(shardOf(view.key), list);
  }
  const inlined = new Set<string>();
  for (const list of byShard.values()) {
    list.sort((a, b) => a.bytes - b.bytes || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    let used = 0;
    for (const { key, bytes } of list) {
      if (used + bytes > budget) break;
      used += bytes;
      inlined.add(key);
    }
  }
  return inlined;
}

/**
 * Writes every page, index shard and list of a build, the downloads, the docs, and `_headers` into
 * `sink`. The page sizes beyond the canonical one fill what the file budget leaves.
 */
export async function emitBuild(resources: readonly PreparedResource[], options: EmitOptions, sink: FileSink): Promise<EmitResult> {
  let written = 0;
  const counted: FileSink = { write: (path, data) => (written++, sink.write(path, data)) };
  const paged = resources.filter((r) => r.resource.query.paged);
  const lists = resources.filter((r) => !r.resource.query.paged);
  const shardFiles = paged.reduce((sum, r) => sum + new Set(r.views.map((v) => shardOf(v.key))).size, 0);
  const downloadFilesReserved = resources.reduce((sum, r) => sum + estimateDownloadFiles(r), 1); // + index.json
  const otherFiles = lists.length * 2 + shardFiles + DOCS_FILES.length + 2 + downloadFilesReserved; // + _headers, _build.json
  const inlineBudget = options.inlineShardBytes ?? INLINE_SHARD_BYTES;
  const inlinedBy = new Map(paged.map((r) => [r.resource.id, chooseInlined(r.views, inlineBudget)]));
  const plan = choosePageSizes(
    paged.map((r) => {
      const inlined = inlinedBy.get(r.resource.id);
      return { resource: r.resource.id, viewSizes: r.views.filter((v) => !inlined?.has(v.key)).map((v) => v.count) };
    }),
    otherFiles,
    options.maxFiles,
  );

  const downloads = new DownloadWriter(counted);
  const totalViews = paged.reduce((sum, r) => sum + r.views.length, 0);
  let doneViews = 0;
  /** One real record per resource for the docs' examples: the first of the first example's view. */
  const samples = new Map<string, string>();
  for (const { resource, views } of paged) {
    const sampleKey = sampleViewKey(resource, views);
    const sizes = plan.sizes.get(resource.id) ?? [];
    const sizeSet = new Set(sizes);
    const header = csvHeader(resource.columns);
    const inlined = inlinedBy.get(resource.id) ?? new Set<string>();
    /** Each shard's entries as JSON text: inlined records go in as rendered, so the Worker re-renders them byte for byte. */
    const shards = new Map<number, string[]>();
    const dataset = downloads.dataset(resource);
    for (const view of views) {
      const { json, csv } = view.render();
      if (view.key === sampleKey && json[0] !== undefined) samples.set(resource.id, json[0]);
      const inline = inlined.has(view.key);
      for (const pageSize of inline ? [] : sizes) {
        if (!hasPageFiles(sizeSet, pageSize, view.count)) continue;
        for (let page = 1; page <= pageCount(view.count, pageSize); page++) {
          const { start, end } = pageBounds(page, pageSize, view.count);
          const address = { resource: resource.id, slug: view.slug, total: view.count, pageSize, page };
          counted.write(pagePath({ ...address, format: "json" }), jsonArray(json.slice(start, end)));
          counted.write(pagePath({ ...address, format: "csv" }), header + csv.slice(start, end).join(""));
        }
      }
      const shard = shardOf(view.key);
      const entries = shards.get(shard) ?? [];
      const entry = JSON.stringify([view.key, view.slug, view.count, contentHash(json)] satisfies IndexEntryTuple);
      entries.push(inline ? `${entry.slice(0, -1)},${jsonArray(json)}]` : entry);
      shards.set(shard, entries);
      if (view.inDataset) await dataset.add(json, csv);
      if (resource.downloadsPerView === true && view.filter !== undefined) await downloads.view(resource, view.slug, view.filter, json, csv);
      options.onProgress?.(++doneViews, totalViews);
    }
    await dataset.finish();
    for (const [shard, entries] of [...shards].sort((a, b) => a[0] - b[0])) {
      // Written by hand to splice in the rendered records; parses as an IndexShard.
      counted.write(indexPath(resource.id, shard), `{"sizes":${JSON.stringify(sizes)},"entries":[${entries.join(",")}]}`);
    }
  }

  for (const { resource, views } of lists) {
    const { json, csv } = views[0]?.render() ?? { json: [], csv: [] };
    if (json[0] !== undefined) samples.set(resource.id, json[0]);
    counted.write(listPath(resource.id, "json"), jsonArray(json));
    counted.write(listPath(resource.id, "csv"), csvHeader(resource.columns) + csv.join(""));
    const dataset = downloads.dataset(resource);
    await dataset.add(json, csv);
    await dataset.finish();
  }
  const manifest = await downloads.finish(options.builtAt, options.sources);

  const docs = buildDocs({
    version: packageVersion(),
    resources: resources.map(({ resource, records, views }): DocsResource => {
      const sample = samples.get(resource.id);
      return { resource, records, views: views.length, ...(sample === undefined ? {} : { sample: JSON.parse(sample) as unknown }) };
    }),
    downloads: manifest,
  });
  for (const path of DOCS_FILES) counted.write(path, docs.files[path]);

  counted.write("/_headers", headersFile(options.headersTemplate, docs.headerRules));
  const views = new Map(paged.map((r) => [r.resource.id, r.views.length]));
  const inlined = new Map([...inlinedBy].map(([id, keys]) => [id, keys.size]));
  counted.write(
    "/_build.json",
    JSON.stringify({ ...options.stamp, pageSizes: Object.fromEntries(plan.sizes), views: Object.fromEntries(views), inlinedViews: Object.fromEntries(inlined) }, null, 2),
  );
  if (written > options.maxFiles) {
    throw new Error(`the build came to ${written} files, over the budget of ${options.maxFiles}: the downloads needed more files than the ${downloadFilesReserved} estimated`);
  }
  return { plan, views, downloads: manifest, downloadFilesReserved, inlined };
}

/**
 * Files a resource's downloads will take, estimated before anything is rendered (the page sizes
 * are chosen first): bytes per record are measured on a sample of views, with a margin.
 */
export function estimateDownloadFiles(prepared: PreparedResource): number {
  const { resource, views } = prepared;
  const sample = views.slice(0, 20).map((view) => view.render());
  const sampled = sample.reduce((sum, { json }) => sum + json.length, 0);
  const perRecord = (rows: (s: { json: string[]; csv: string[] }) => string[]) =>
    sampled === 0 ? 0 : (1.25 * sample.reduce((sum, s) => sum + rows(s).reduce((n, row) => n + Buffer.byteLength(row) + 1, 0), 0)) / sampled;
  const jsonBytes = perRecord((s) => s.json);
  const csvBytes = perRecord((s) => s.csv);
  const filesFor = (bytes: number) => (bytes <= GZIP_THRESHOLD ? 1 : 2 * Math.ceil(bytes / MAX_DOWNLOAD_BYTES));
  let files = filesFor(prepared.records * jsonBytes) + filesFor(prepared.records * csvBytes);
  if (resource.downloadsPerView === true) for (const view of views) files += filesFor(view.count * jsonBytes) + filesFor(view.count * csvBytes);
  return files;
}

/** The view whose first record the docs show: the one the resource's first example asks for, else the first. */
function sampleViewKey(resource: AnyResource, views: readonly PreparedView[]): string | undefined {
  const example = resource.examples[0];
  const selectors = resource.selectors ?? [];
  const values = selectors.map((s) => {
    const raw = s.in === "path" ? example?.path?.[s.param] : example?.query[s.param];
    return raw === undefined || raw === "" ? undefined : normalizeSelectorValue(s.match, raw);
  });
  const key = viewKey(values);
  return views.find((view) => view.key === key)?.key ?? views[0]?.key;
}

function headersFile(template: string, docsRules: string): string {
  const text = `${template.trimEnd()}\n\n# Generated: paging headers from the page file's path.\n${pageHeaderRules(CONTENT_TYPES)}\n\n${listHeaderRules(CONTENT_TYPES)}\n\n# Generated: the downloads.\n${downloadHeaderRules(CONTENT_TYPES)}\n\n# Generated: the docs.\n${docsRules}\n`;
  const parsed = parseHeadersFile(text);
  if (!parsed.ok) throw new Error(`_headers line ${parsed.line}: ${parsed.message}`);
  return text;
}
