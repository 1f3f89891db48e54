import { listPath, shardOf } from "../contract/address.ts";
import { csvHeader } from "../contract/csv.ts";
import { FORMATS } from "../contract/query.ts";
import { encodeShardEntry, slugShardKey } from "../contract/shard.ts";
import type { FileSink } from "../io/sink.ts";
import type { DownloadWriter } from "./downloads.ts";
import {
  encodeRecords,
  jsonRecordAt,
  jsonRecordsOf,
  pagePieces,
  viewHash,
  type EncodedRecords,
} from "./encode.ts";
import type { PackedView, PendingPages } from "./emit-pages.ts";
import { PackWriter } from "./pack-writer.ts";
import type { BuildPlan } from "./plan.ts";
import type { PreparedResource } from "./views.ts";

/**
 * Writes a paged resource's records, the half that does not depend on the page sizes: each view's
 * records into the packed streams (or inlined in its index shard), its index entry, and its records
 * into the downloads. Each view is rendered once and released when written, so memory stays per
 * view. Returns the first record of the view `sample.key` names that `sample.accepts` (the docs
 * show it), and what `writePages` (emit-pages.ts) needs for the page files and index shards.
 */
export async function emitPagedResource(
  prepared: PreparedResource,
  layout: Pick<BuildPlan, "shards" | "inlined">,
  sink: FileSink,
  downloads: DownloadWriter,
  sample: { readonly key: string | undefined; readonly accepts?: (record: unknown) => boolean },
  onView: () => void,
): Promise<{ sample: string | undefined; pending: PendingPages }> {
  const { resource, views } = prepared;
  const shardCount = layout.shards.get(resource.id) ?? 1;
  const inlined = layout.inlined.get(resource.id) ?? new Set<string>();
  const packs = {
    json: new PackWriter(sink, resource.id, "json"),
    csv: new PackWriter(sink, resource.id, "csv"),
  };
  const shards = new ShardTexts();
  const packed: PackedView[] = [];
  const dataset = downloads.dataset(resource);
  let sampleRecord: string | undefined;
  let done = 0;
  for (const view of views) {
    // Not kept past this view: what keeps records (the packs, the dataset) copies them.
    const encoded = view.encodedOnce();
    if (view.key === sample.key) sampleRecord = firstAccepted(encoded, sample.accepts);
    const entry = { slug: view.slug, total: view.count, hash: viewHash(encoded) };
    let where: Parameters<typeof encodeShardEntry>[2];
    if (inlined.has(view.key)) where = { inline: jsonRecordsOf(encoded) };
    else {
      const refs = { json: packs.json.append(encoded), csv: packs.csv.append(encoded) };
      packed.push({ slug: view.slug, count: view.count, refs, offsets: encoded.offsets });
      where = { packed: refs };
    }
    shards.entry(shardOf(view.key, shardCount), encodeShardEntry(view.key, entry, where));
    // Each record once in the dataset: most views give all theirs; a view under a second key gives those under their own.
    const datasetPart = view.datasetPart(encoded);
    if (datasetPart !== undefined) await dataset.add(datasetPart);
    if (resource.downloadsPerView === true && view.filter !== undefined) {
      shards.slug(shardOf(slugShardKey(view.slug), shardCount), view.slug, view.key);
      downloads.view(resource, view.slug, view.filter, encoded);
    }
    view.release();
    onView();
    // Now and then a turn of the event loop: the search index's files, coming from its thread,
    // are written then instead of waiting in memory until the records are done.
    if (++done % YIELD_EVERY_VIEWS === 0) await new Promise((turn) => setImmediate(turn));
  }
  packs.json.finish();
  packs.csv.finish();
  await dataset.finish();
  const header = Buffer.from(csvHeader(resource.record.columns));
  return {
    sample: sampleRecord,
    pending: { resource: resource.id, header, packed, shards: shards.all },
  };
}

/** Views written between two turns of the event loop. */
const YIELD_EVERY_VIEWS = 64;

function firstAccepted(
  encoded: EncodedRecords,
  accepts: ((record: unknown) => boolean) | undefined,
): string | undefined {
  if (accepts === undefined) return jsonRecordAt(encoded, 0);
  for (let i = 0; i < encoded.count; i++) {
    const json = jsonRecordAt(encoded, i);
    if (json !== undefined && accepts(JSON.parse(json))) return json;
  }
  return undefined;
}

/** A resource's index shards as they fill: entries and slugs per shard number. */
class ShardTexts {
  private readonly shards = new Map<number, { entries: string[]; slugs: [string, string][] }>();

  entry(shard: number, encoded: string): void {
    this.of(shard).entries.push(encoded);
  }

  slug(shard: number, slug: string, key: string): void {
    this.of(shard).slugs.push([slug, key]);
  }

  /** Every shard's entries and slugs (written by `writePages`, once the sizes are known). */
  get all(): ReadonlyMap<number, { entries: string[]; slugs: [string, string][] }> {
    return this.shards;
  }

  private of(shard: number): { entries: string[]; slugs: [string, string][] } {
    let found = this.shards.get(shard);
    if (found === undefined) {
      found = { entries: [], slugs: [] };
      this.shards.set(shard, found);
    }
    return found;
  }
}

/** An unpaged resource: its one view as a list file per format, and its download. */
export async function emitList(
  prepared: PreparedResource,
  sink: FileSink,
  downloads: DownloadWriter,
): Promise<string | undefined> {
  const { resource, views } = prepared;
  const view = views[0];
  const encoded = view?.encoded() ?? encodeRecords({ json: [], csv: [] });
  const header = Buffer.from(csvHeader(resource.record.columns));
  for (const format of FORMATS)
    sink.write(
      listPath(resource.id, format),
      Buffer.concat(pagePieces(encoded, format, 0, encoded.count, header)),
    );
  const dataset = downloads.dataset(resource);
  await dataset.add(encoded);
  await dataset.finish();
  view?.release();
  return jsonRecordAt(encoded, 0);
}
