import { DOCS_FILES, shardCount, shardOf } from "../contract/address.ts";
import { GZIP_THRESHOLD, MAX_DOWNLOAD_BYTES } from "../contract/downloads.ts";
import { PACK_CHUNK_BYTES } from "../contract/pack.ts";
import { CANONICAL_PAGE_SIZE } from "../contract/paging.ts";
import { slugShardKey } from "../contract/shard.ts";
import { choosePageSizes, type SizePlan } from "./file-budget.ts";
import type { EncodedRecords } from "./encode.ts";
import type { PreparedResource, PreparedView } from "./views.ts";

/** What a build writes, decided before anything is written. */
export interface BuildPlan extends SizePlan {
  /** Per paged resource id, how many index shards its views are spread over. */
  readonly shards: ReadonlyMap<string, number>;
  /** Per resource id, the keys of the views inlined in their index shard (not packed, no page files). */
  readonly inlined: ReadonlyMap<string, ReadonlySet<string>>;
  /** Files the downloads were estimated to need when the page sizes were chosen. */
  readonly downloadFilesReserved: number;
  /** Chunk files the packed records were estimated to need. */
  readonly packFilesReserved: number;
}

export interface PlanOptions {
  readonly maxFiles: number;
  /**
   * False: no page files, only the files every build needs (the minimum; every page is cut from
   * the packed records, with the same bytes and headers), whatever `maxFiles` allows. Default true.
   */
  readonly pageFiles?: boolean;
  /**
   * Bytes of inlined records per index shard (default `INLINE_SHARD_BYTES`; 0 inlines nothing).
   * Views of at most one canonical page are inlined smallest first while the shard stays within it.
   */
  readonly inlineShardBytes?: number;
  /**
   * Files written before the plan (the search indexes and match tables: a search index's file
   * count is known only once written), counted against the budget.
   */
  readonly writtenFiles?: number;
  /** Files the change feed may write (see `feedFilesBound`), reserved with the downloads; 1 (the feed) by default. */
  readonly feedFiles?: number;
}

/** Default bytes of inlined records per index shard: shards stay a few tens of KB. */
export const INLINE_SHARD_BYTES = 32 * 1024;

/** Files besides pages, shards, packs, lists and downloads: `_headers`, `_redirects`, `_build.json` and the route table. */
const SITE_FILES = DOCS_FILES.length + 4;

/** Estimates of bytes per record are taken with this margin, so that the budget is not overrun. */
const MARGIN = 1.25;

/**
 * Plans a build: how many shards each resource has, which views are inlined, how many files the
 * packed records and the downloads take, and which page sizes fill what the file budget leaves.
 * Renders only what it sizes (small views, a sample), and those renders are kept for the writing.
 */
export function planBuild(resources: readonly PreparedResource[], options: PlanOptions): BuildPlan {
  return planSizes(planLayout(resources, options), resources, options);
}

/** What a plan decides before the file budget is applied: shards, inlined views, reserves. */
export type BuildLayout = Omit<BuildPlan, keyof SizePlan> & { readonly otherFiles: number };

/**
 * The part of the plan the file budget does not change (shards, inlining, the files packs and
 * downloads take): known before the search indexes are written, so the records can be written
 * while they are. `otherFiles` does not count `writtenFiles` yet.
 */
export function planLayout(
  resources: readonly PreparedResource[],
  options: Omit<PlanOptions, "writtenFiles">,
  /** What the caller worked out before (the build: each resource's inlined views as it wrote it). */
  known: Partial<Pick<BuildLayout, "inlined" | "shards">> & { readonly sizes?: RecordSizes } = {},
): BuildLayout {
  const paged = resources.filter((r) => r.resource.query.paged);
  const lists = resources.length - paged.length;
  const shards = known.shards ?? shardsOf(resources);
  const inlined =
    known.inlined ?? new Map(paged.map((r) => [r.resource.id, inlinedOf(r, options)]));
  const shardFiles = paged.reduce(
    (sum, r) => sum + shardFilesOf(r, shards.get(r.resource.id) ?? 1),
    0,
  );
  const sizes = known.sizes ?? recordSizes(resources);
  const downloadFilesReserved = resources.reduce(
    (sum, r) => sum + datasetFiles(r, sizes.get(r.resource.id) ?? { json: 0, csv: 0 }),
    1 + (options.feedFiles ?? 1),
  ); // + index.json
  const packFilesReserved = paged.reduce((sum, r) => {
    const keys = inlined.get(r.resource.id);
    const records = r.views.reduce(
      (n, view) => n + (keys?.has(view.key) === true ? 0 : view.count),
      0,
    );
    const perRecord = sizes.get(r.resource.id) ?? { json: 0, csv: 0 };
    return (
      sum +
      (records === 0
        ? 0
        : Math.ceil((records * perRecord.json) / PACK_CHUNK_BYTES) +
          Math.ceil((records * perRecord.csv) / PACK_CHUNK_BYTES))
    );
  }, 0);
  const otherFiles =
    lists * 2 + shardFiles + packFilesReserved + SITE_FILES + downloadFilesReserved;
  return { shards, inlined, downloadFilesReserved, packFilesReserved, otherFiles };
}

/** Per paged resource id, its index shards. */
export function shardsOf(resources: readonly PreparedResource[]): Map<string, number> {
  const paged = resources.filter((r) => r.resource.query.paged);
  return new Map(paged.map((r) => [r.resource.id, shardCount(r.views.length)]));
}

/** Which of a paged resource's views are inlined (`chooseInlined`: renders its small views). */
export function inlinedOf(
  { views }: PreparedResource,
  options: Pick<PlanOptions, "inlineShardBytes">,
): Set<string> {
  const budget = options.inlineShardBytes ?? INLINE_SHARD_BYTES;
  return chooseInlined(views, shardCount(views.length), budget);
}

/** Per resource id, the bytes a record takes, measured on its first 20 views (`bytesPerRecord`). */
export type RecordSizes = ReadonlyMap<string, { json: number; csv: number }>;

export function recordSizes(resources: readonly PreparedResource[]): RecordSizes {
  return new Map(
    resources.map((r) => [
      r.resource.id,
      bytesPerRecord(r.views.slice(0, 20).map((view) => view.encoded())),
    ]),
  );
}

/** The page sizes within what the budget leaves once `writtenFiles` (the search indexes, match tables) are counted. */
export function planSizes(
  layout: BuildLayout,
  resources: readonly PreparedResource[],
  options: PlanOptions,
): BuildPlan {
  const { inlined, shards, downloadFilesReserved, packFilesReserved } = layout;
  const paged = resources.filter((r) => r.resource.query.paged);
  const otherFiles = layout.otherFiles + (options.writtenFiles ?? 0);
  const plan = choosePageSizes(
    paged.map((r) => {
      const keys = inlined.get(r.resource.id);
      return {
        resource: r.resource.id,
        viewSizes: r.views.filter((v) => !keys?.has(v.key)).map((v) => v.count),
      };
    }),
    otherFiles,
    options.pageFiles === false ? otherFiles : options.maxFiles,
  );
  return { ...plan, shards, inlined, downloadFilesReserved, packFilesReserved };
}

/** The shard files a resource writes: those its views and, for per-view downloads, its slugs hash to. */
function shardFilesOf({ resource, views }: PreparedResource, shards: number): number {
  const used = new Set(views.map((view) => shardOf(view.key, shards)));
  if (resource.downloadsPerView === true)
    for (const view of views) used.add(shardOf(slugShardKey(view.slug), shards));
  return used.size;
}

/**
 * Which views to inline: per shard, views that fit in one canonical page, smallest (in rendered
 * JSON bytes) first, while the shard's inlined bytes stay within `budget`. Independent of the file
 * budget, so a tight and a generous build inline the same views.
 */
export function chooseInlined(
  views: readonly PreparedView[],
  shards: number,
  budget: number,
): Set<string> {
  const byShard = new Map<number, { key: string; bytes: number }[]>();
  for (const view of views) {
    if (view.count > CANONICAL_PAGE_SIZE || budget <= 0) continue;
    const bytes = view.encoded().bytes.json.length;
    const shard = shardOf(view.key, shards);
    const list = byShard.get(shard) ?? [];
    list.push({ key: view.key, bytes });
    byShard.set(shard, list);
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

/** Bytes a record takes in each format (a JSON record with its comma), measured on sample views, with a margin. */
export function bytesPerRecord(sample: readonly EncodedRecords[]): { json: number; csv: number } {
  const records = sample.reduce((sum, { count }) => sum + count, 0);
  // A JSON record's bytes include its comma; a CSV row is counted with one more byte, as a JSON record is.
  const json = sample.reduce((sum, s) => sum + s.bytes.json.length, 0);
  const csv = sample.reduce((sum, s) => sum + s.bytes.csv.length + s.count, 0);
  return records === 0
    ? { json: 0, csv: 0 }
    : { json: (MARGIN * json) / records, csv: (MARGIN * csv) / records };
}

/** Files a resource's whole-dataset downloads take: parts under the size limit, each with a gzip copy when over the threshold. */
function datasetFiles(
  prepared: PreparedResource,
  perRecord: { json: number; csv: number },
): number {
  const filesFor = (bytes: number) =>
    bytes <= GZIP_THRESHOLD ? 1 : 2 * Math.ceil(bytes / MAX_DOWNLOAD_BYTES);
  return filesFor(prepared.records * perRecord.json) + filesFor(prepared.records * perRecord.csv);
}
