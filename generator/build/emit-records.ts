import { hasPageFiles, indexPath, listPath, pagePath, shardOf } from "../contract/address.ts";
import { csvHeader } from "../contract/csv.ts";
import { renderPage } from "../contract/page.ts";
import { pageBounds, pageCount } from "../contract/paging.ts";
import { FORMATS } from "../contract/query.ts";
import { encodeShard, encodeShardEntry, slugShardKey } from "../contract/shard.ts";
import type { FileSink } from "../io/sink.ts";
import type { DownloadWriter } from "./downloads.ts";
import { PackWriter } from "./packs.ts";
import type { BuildPlan } from "./plan.ts";
import { contentHash, type PreparedResource } from "./views.ts";

/**
 * Writes a paged resource: each view's records into the packed streams (or inlined in its index
 * shard), its page files of every materialised size, its index entry, and its records into the
 * downloads. Each view is rendered once and released when written, so memory stays per view.
 * Returns the first record of the view `sampleKey` names (the docs show it).
 */
export async function emitPagedResource(prepared: PreparedResource, plan: BuildPlan, sink: FileSink, downloads: DownloadWriter, sampleKey: string | undefined, onView: () => void): Promise<string | undefined> {
  const { resource, views } = prepared;
  const sizes = plan.sizes.get(resource.id) ?? [];
  const sizeSet = new Set(sizes);
  const shardCount = plan.shards.get(resource.id) ?? 1;
  const header = csvHeader(resource.record.columns);
  const inlined = plan.inlined.get(resource.id) ?? new Set<string>();
  const packs = { json: new PackWriter(sink, resource.id, "json"), csv: new PackWriter(sink, resource.id, "csv") };
  const shards = new Map<number, { entries: string[]; slugs: [string, string][] }>();
  const shard = (number: number) => shards.get(number) ?? (shards.set(number, { entries: [], slugs: [] }).get(number) as { entries: string[]; slugs: [string, string][] });
  const dataset = downloads.dataset(resource);
  let sample: string | undefined;
  for (const view of views) {
    const rendered = view.rendered();
    if (view.key === sampleKey) sample = rendered.json[0];
    const inline = inlined.has(view.key);
    for (const pageSize of inline ? [] : sizes) {
      if (!hasPageFiles(sizeSet, pageSize, view.count)) continue;
      for (let page = 1; page <= pageCount(view.count, pageSize); page++) {
        const { start, end } = pageBounds(page, pageSize, view.count);
        const address = { resource: resource.id, slug: view.slug, total: view.count, pageSize, page };
        for (const format of FORMATS) sink.write(pagePath({ ...address, format }), renderPage(format, header, rendered[format].slice(start, end)));
      }
    }
    const entry = { slug: view.slug, total: view.count, hash: contentHash(rendered.json) };
    const where = inline ? { inline: rendered.json } : { packed: { json: packs.json.append(rendered.json), csv: packs.csv.append(rendered.csv) } };
    shard(shardOf(view.key, shardCount)).entries.push(encodeShardEntry(view.key, entry, where));
    if (view.inDataset) await dataset.add(rendered);
    if (resource.downloadsPerView === true && view.filter !== undefined) {
      shard(shardOf(slugShardKey(view.slug), shardCount)).slugs.push([view.slug, view.key]);
      downloads.view(resource, view.slug, view.filter, rendered);
    }
    view.release();
    onView();
  }
  packs.json.finish();
  packs.csv.finish();
  await dataset.finish();
  for (const [number, { entries, slugs }] of [...shards].sort((a, b) => a[0] - b[0])) sink.write(indexPath(resource.id, number), encodeShard(sizes, entries, slugs));
  return sample;
}

/** An unpaged resource: its one view as a list file per format, and its download. */
export async function emitList(prepared: PreparedResource, sink: FileSink, downloads: DownloadWriter): Promise<string | undefined> {
  const { resource, views } = prepared;
  const view = views[0];
  const rendered = view?.rendered() ?? { json: [], csv: [] };
  const header = csvHeader(resource.record.columns);
  for (const format of FORMATS) sink.write(listPath(resource.id, format), renderPage(format, header, rendered[format]));
  const dataset = downloads.dataset(resource);
  await dataset.add(rendered);
  await dataset.finish();
  view?.release();
  return rendered.json[0];
}
