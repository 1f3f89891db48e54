import { DOCS_FILES, shardOf } from "../contract/address.ts";
import { GZIP_THRESHOLD, MAX_DOWNLOAD_BYTES } from "../contract/downloads.ts";
import { CANONICAL_PAGE_SIZE } from "../contract/paging.ts";
import { choosePageSizes, type SizePlan } from "./budget.ts";
import type { PreparedResource, PreparedView } from "./views.ts";

/** What a build writes, decided before anything is written. */
export interface BuildPlan extends SizePlan {
  /** Per resource id, the keys of the views inlined in their index shard (no page files). */
  readonly inlined: ReadonlyMap<string, ReadonlySet<string>>;
  /** Files the downloads were estimated to need when the page sizes were chosen. */
  readonly downloadFilesReserved: number;
}

export interface PlanOptions {
  readonly maxFiles: number;
  /**
   * Bytes of inlined records per index shard (default `INLINE_SHARD_BYTES`; 0 inlines nothing).
   * Views of at most one canonical page are inlined smallest first while the shard stays within it.
   */
  readonly inlineShardBytes?: number;
}

/** Default bytes of inlined records per index shard: shards stay a few tens of KB. */
export const INLINE_SHARD_BYTES = 32 * 1024;

/** Files besides pages, shards, lists and downloads: `_headers`, `_redirects`, `_build.json` and the route table. */
const SITE_FILES = DOCS_FILES.length + 4;

/**
 * Plans a build: which views are inlined, how many files the downloads take, and which page sizes
 * fill what the file budget leaves. Renders only what it sizes (small views, a sample), and those
 * renders are kept for the writing.
 */
export function planBuild(resources: readonly PreparedResource[], options: PlanOptions): BuildPlan {
  const paged = resources.filter((r) => r.resource.query.paged);
  const lists = resources.length - paged.length;
  const shardFiles = paged.reduce((sum, r) => sum + new Set(r.views.map((v) => shardOf(v.key))).size, 0);
  const downloadFilesReserved = resources.reduce((sum, r) => sum + estimateDownloadFiles(r), 1); // + index.json
  const otherFiles = lists * 2 + shardFiles + SITE_FILES + downloadFilesReserved;
  const inlineBudget = options.inlineShardBytes ?? INLINE_SHARD_BYTES;
  const inlined = new Map(paged.map((r) => [r.resource.id, chooseInlined(r.views, inlineBudget)]));
  const sizes = choosePageSizes(
    paged.map((r) => {
      const keys = inlined.get(r.resource.id);
      return { resource: r.resource.id, viewSizes: r.views.filter((v) => !keys?.has(v.key)).map((v) => v.count) };
    }),
    otherFiles,
    options.maxFiles,
  );
  return { ...sizes, inlined, downloadFilesReserved };
}

/**
 * Which views to inline: per shard, views that fit in one canonical page, smallest (in rendered
 * JSON bytes) first, while the shard's inlined bytes stay within `budget`. Independent of the file
 * budget, so a tight and a generous build inline the same views.
 */
export function chooseInlined(views: readonly PreparedView[], budget: number): Set<string> {
  const byShard = new Map<number, { key: string; bytes: number }[]>();
  for (const view of views) {
    if (view.count > CANONICAL_PAGE_SIZE || budget <= 0) continue;
    const bytes = view.rendered().json.reduce((sum, record) => sum + record.length + 1, 0);
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
 * Files a resource's downloads will take, estimated before the page sizes are chosen: bytes per
 * record are measured on a sample of views, with a margin.
 */
export function estimateDownloadFiles(prepared: PreparedResource): number {
  const { resource, views } = prepared;
  const sample = views.slice(0, 20).map((view) => view.rendered());
  const sampled = sample.reduce((sum, { json }) => sum + json.length, 0);
  const perRecord = (rows: (s: { json: readonly string[]; csv: readonly string[] }) => readonly string[]) =>
    sampled === 0 ? 0 : (1.25 * sample.reduce((sum, s) => sum + rows(s).reduce((n, row) => n + Buffer.byteLength(row) + 1, 0), 0)) / sampled;
  const jsonBytes = perRecord((s) => s.json);
  const csvBytes = perRecord((s) => s.csv);
  const filesFor = (bytes: number) => (bytes <= GZIP_THRESHOLD ? 1 : 2 * Math.ceil(bytes / MAX_DOWNLOAD_BYTES));
  let files = filesFor(prepared.records * jsonBytes) + filesFor(prepared.records * csvBytes);
  if (resource.downloadsPerView === true) for (const view of views) files += filesFor(view.count * jsonBytes) + filesFor(view.count * csvBytes);
  return files;
}
