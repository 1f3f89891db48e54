import {
  datasetPath,
  DOWNLOADS_PREFIX,
  type DownloadFile,
  type DownloadsManifest,
} from "../contract/downloads.ts";

/** One complete dataset of a build as its downloads manifest lists it: its JSON parts in order. */
export interface PublishedDataset {
  readonly resource: string;
  readonly endpoint: string;
  readonly records: number;
  readonly bytes: number;
  readonly parts: readonly PublishedPart[];
}

export interface PublishedPart {
  readonly file: DownloadFile;
  /** Its gzip copy, when the build made one. */
  readonly gzip?: DownloadFile;
}

/**
 * The complete datasets of a manifest by resource, from their JSON files (`/downloads/{resource}.json`
 * or `.part-{n}.json`, contract/layout.ts): the views' downloads and gzip copies aside.
 */
export function publishedDatasets(manifest: DownloadsManifest): Map<string, PublishedDataset> {
  const gzipOf = new Map(
    manifest.files.flatMap((file) => (file.gzipOf === undefined ? [] : [[file.gzipOf, file]])),
  );
  const byResource = new Map<string, DownloadFile[]>();
  for (const file of manifest.files) {
    if (file.format !== "json" || file.gzipOf !== undefined || file.filter !== undefined) continue;
    const name = file.path.slice(DOWNLOADS_PREFIX.length);
    const resource = name.replace(/(\.part-\d+)?\.json$/, "");
    if (datasetPath(resource, "json", file.part) !== file.path) continue;
    byResource.set(resource, [...(byResource.get(resource) ?? []), file]);
  }
  const datasets = new Map<string, PublishedDataset>();
  for (const [resource, files] of [...byResource].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const parts = files.sort((a, b) => (a.part ?? 0) - (b.part ?? 0));
    const whole = parts.length === 1 && parts[0]?.part === undefined;
    if (!whole && parts.some((file, i) => file.part !== i + 1 || file.parts !== parts.length))
      throw new Error(
        `the downloads manifest lists parts ${parts.map((file) => file.part ?? "–").join(", ")} of ${resource}: not a complete dataset`,
      );
    datasets.set(resource, {
      resource,
      endpoint: parts[0]?.endpoint ?? "",
      records: parts.reduce((sum, file) => sum + file.records, 0),
      bytes: parts.reduce((sum, file) => sum + file.bytes, 0),
      parts: parts.map((file) => {
        const gzip = gzipOf.get(file.path);
        return gzip === undefined ? { file } : { file, gzip };
      }),
    });
  }
  return datasets;
}
