import { hasPageFiles, indexPath, listPath, pagePath, shardOf } from "../contract/address.ts";
import { csvHeader } from "../contract/csv.ts";
import { renderPage } from "../contract/page.ts";
import { pageBounds, pageCount } from "../contract/paging.ts";
import { encodeShard, encodeShardEntry } from "../contract/shard.ts";
import type { FileSink } from "../io/sink.ts";
import type { DownloadWriter } from "./downloads.ts";
import type { BuildPlan } from "./plan.ts";
import { contentHash, type PreparedResource } from "./views.ts";

/**
 * Writes a paged resource: each view's page files of every materialised size (none for an
 * inlined view), its entry in its index shard, and its records into the downloads. Each view is
 * rendered once and released when written, so memory stays per view. Returns the first record of
 * the view `sampleKey` names (the docs show it).
 */
export async function emitPagedResource(prepared: PreparedResource, plan: BuildPlan, sink: FileSink, downloads: DownloadWriter, sampleKey: string | undefined, onView: () => void): Promise<string | undefined> {
  const { resource, views } = prepared;
  const sizes = plan.sizes.get(resource.id) ?? [];
  const sizeSet = new Set(sizes);
  const header = csvHeader(resource.record.columns);
  const inlined = plan.inlined.get(resource.id) ?? new Set<string>();
  const shards = new Map<number, string[]>();
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
        for (const format of ["json", "csv"] as const) sink.write(pagePath({ ...address, format }), renderPage(format, header, rendered[format].slice(start, end)));
      }
    }
    const shard = shardOf(view.key);
    const entries = shards.get(shard) ?? [];
    entries.push(encodeShardEntry(view.key, { slug: view.slug, total: view.count, hash: contentHash(rendered.json) }, inline ? rendered.json : undefined));
    shards.set(shard, entries);
    const datasetPart = view.datasetPart();
    if (datasetPart !== undefined) await dataset.add(datasetPart);
    if (resource.downloadsPerView === true && view.filter !== undefined) await downloads.view(resource, view.slug, view.filter, rendered);
    view.release();
    onView();
  }
  await dataset.finish();
  for (const [shard, entries] of [...shards].sort((a, b) => a[0] - b[0])) sink.write(indexPath(resource.id, shard), encodeShard(sizes, entries));
  return sample;
}

/** An unpaged resource: its one view as a list file per format, and its download. */
export async function emitList(prepared: PreparedResource, sink: FileSink, downloads: DownloadWriter): Promise<string | undefined> {
  const { resource, views } = prepared;
  const view = views[0];
  const rendered = view?.rendered() ?? { json: [], csv: [] };
  const header = csvHeader(resource.record.columns);
  for (const format of ["json", "csv"] as const) sink.write(listPath(resource.id, format), renderPage(format, header, rendered[format]));
  const dataset = downloads.dataset(resource);
  await dataset.add(rendered);
  await dataset.finish();
  view?.release();
  return rendered.json[0];
}
