import { hasPageFiles, indexPath, listPath, pagePath, shardOf } from "../contract/address.ts";
import { csvHeader } from "../contract/csv.ts";
import { pageBounds, pageCount } from "../contract/paging.ts";
import { FORMATS } from "../contract/query.ts";
import { encodeShard, encodeShardEntry, slugShardKey } from "../contract/shard.ts";
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
import { PackWriter } from "./pack-writer.ts";
import type { BuildPlan } from "./plan.ts";
import type { PreparedResource } from "./views.ts";

/**
 * Writes a paged resource: each view's records into the packed streams (or inlined in its index
 * shard), its page files of every materialised size, its index entry, and its records into the
 * downloads. Each view is rendered once and released when written, so memory stays per view.
 * Returns the first record of the view `sample.key` names that `sample.accepts` (the docs show it).
 */
export async function emitPagedResource(
  prepared: PreparedResource,
  plan: BuildPlan,
  sink: FileSink,
  downloads: DownloadWriter,
  sample: { readonly key: string | undefined; readonly accepts?: (record: unknown) => boolean },
  onView: () => void,
): Promise<string | undefined> {
  const { resource, views } = prepared;
  const sizes = plan.sizes.get(resource.id) ?? [];
  const sizeSet = new Set(sizes);
  const shardCount = plan.shards.get(resource.id) ?? 1;
  const header = Buffer.from(csvHeader(resource.record.columns));
  const inlined = plan.inlined.get(resource.id) ?? new Set<string>();
  const packs = {
    json: new PackWriter(sink, resource.id, "json"),
    csv: new PackWriter(sink, resource.id, "csv"),
  };
  const shards = new ShardTexts();
  const dataset = downloads.dataset(resource);
  let sampleRecord: string | undefined;
  for (const view of views) {
    const encoded = view.encoded();
    if (view.key === sample.key) sampleRecord = firstAccepted(encoded, sample.accepts);
    const inline = inlined.has(view.key);
    for (const pageSize of inline ? [] : sizes) {
      if (!hasPageFiles(sizeSet, pageSize, view.count)) continue;
      for (let page = 1; page <= pageCount(view.count, pageSize); page++) {
        const { start, end } = pageBounds(page, pageSize, view.count);
        const address = {
          resource: resource.id,
          slug: view.slug,
          total: view.count,
          pageSize,
          page,
        };
        for (const format of FORMATS)
          sink.write(
            pagePath({ ...address, format }),
            Buffer.concat(pagePieces(encoded, format, start, end, header)),
          );
      }
    }
    const entry = { slug: view.slug, total: view.count, hash: viewHash(encoded) };
    const where = inline
      ? { inline: jsonRecordsOf(encoded) }
      : { packed: { json: packs.json.append(encoded), csv: packs.csv.append(encoded) } };
    shards.entry(shardOf(view.key, shardCount), encodeShardEntry(view.key, entry, where));
    // Each record once in the dataset: most views give all theirs; a view under a second key gives those under their own.
    const datasetPart = view.datasetPart();
    if (datasetPart !== undefined) await dataset.add(datasetPart);
    if (resource.downloadsPerView === true && view.filter !== undefined) {
      shards.slug(shardOf(slugShardKey(view.slug), shardCount), view.slug, view.key);
      downloads.view(resource, view.slug, view.filter, encoded);
    }
    view.release();
    onView();
  }
  packs.json.finish();
  packs.csv.finish();
  await dataset.finish();
  for (const [number, text] of shards.encode(sizes))
    sink.write(indexPath(resource.id, number), text);
  return sampleRecord;
}

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

  /** Every shard's text, in shard order. */
  encode(sizes: readonly number[]): [number, string][] {
    return [...this.shards]
      .sort((a, b) => a[0] - b[0])
      .map(([shard, { entries, slugs }]) => [shard, encodeShard(sizes, entries, slugs)]);
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
