import { hasPageFiles, indexPath, pagePath } from "../contract/address.ts";
import { chunkPayload, PACK_CHUNK_BYTES, packPath, type PackRef } from "../contract/pack.ts";
import { pageBounds, pageCount } from "../contract/paging.ts";
import { FORMATS, type Format } from "../contract/query.ts";
import { encodeShard } from "../contract/shard.ts";
import type { FileSink } from "../io/sink.ts";
import { pagePieces, type EncodedRecords } from "./encode.ts";
import type { BuildPlan } from "./plan.ts";

/**
 * The second half of writing a paged resource: what depends on the page sizes the file budget
 * buys, decided only once the search indexes are written (their file count is known then). The
 * first half (emit-records.ts) wrote each view's records into the packs and kept where they are;
 * the page files are cut from the packs here, the same bytes a render would give, and the index
 * shards (which list the sizes) are written.
 */

/** A packed view: where its records are in the packs, and where each record starts. */
export interface PackedView {
  readonly slug: string;
  readonly count: number;
  readonly refs: Readonly<Record<Format, PackRef>>;
  readonly offsets: Readonly<Record<Format, Float64Array>>;
}

/** What the first half leaves for the second: the packed views, and the shards' entries and slugs. */
export interface PendingPages {
  readonly resource: string;
  readonly header: Buffer;
  readonly packed: readonly PackedView[];
  readonly shards: ReadonlyMap<number, { entries: string[]; slugs: [string, string][] }>;
}

/** Writes a resource's page files of the planned sizes and its index shards. */
export function writePages(pending: PendingPages, plan: BuildPlan, sink: FileSink): void {
  const sizes = plan.sizes.get(pending.resource) ?? [];
  const sizeSet = new Set(sizes);
  const packs = {
    json: new PackReader(sink, pending.resource, "json"),
    csv: new PackReader(sink, pending.resource, "csv"),
  };
  for (const view of pending.packed) {
    const wanted = sizes.filter((size) => hasPageFiles(sizeSet, size, view.count));
    if (wanted.length === 0) continue;
    const encoded: EncodedRecords = {
      count: view.count,
      bytes: { json: packs.json.slice(view.refs.json), csv: packs.csv.slice(view.refs.csv) },
      offsets: view.offsets,
    };
    for (const pageSize of wanted) {
      for (let page = 1; page <= pageCount(view.count, pageSize); page++) {
        const { start, end } = pageBounds(page, pageSize, view.count);
        const address = {
          resource: pending.resource,
          slug: view.slug,
          total: view.count,
          pageSize,
          page,
        };
        for (const format of FORMATS)
          sink.write(
            pagePath({ ...address, format }),
            Buffer.concat(pagePieces(encoded, format, start, end, pending.header)),
          );
      }
    }
  }
  for (const [number, { entries, slugs }] of [...pending.shards].sort((a, b) => a[0] - b[0]))
    sink.write(indexPath(pending.resource, number), encodeShard(sizes, entries, slugs));
}

/**
 * A resource's packed stream in one format, read back from the sink chunk by chunk (views come in
 * stream order: the last chunks read are kept). A sink that keeps no bytes (a count, for `plan`)
 * gives zeros of the right length: only the sizes are counted there.
 */
class PackReader {
  private readonly chunks = new Map<number, Uint8Array>();

  constructor(
    private readonly sink: FileSink,
    private readonly resource: string,
    private readonly format: Format,
  ) {}

  /** A view's bytes in the stream. */
  slice(ref: PackRef): Buffer {
    const end = ref.start + ref.bytes;
    const first = Math.floor(ref.start / PACK_CHUNK_BYTES);
    const last = Math.floor(Math.max(ref.start, end - 1) / PACK_CHUNK_BYTES);
    const pieces: Uint8Array[] = [];
    for (let chunk = first; chunk <= last; chunk++) {
      const payload = this.chunk(chunk);
      if (payload === undefined) return Buffer.alloc(ref.bytes);
      const base = chunk * PACK_CHUNK_BYTES;
      pieces.push(
        payload.subarray(Math.max(0, ref.start - base), Math.min(PACK_CHUNK_BYTES, end - base)),
      );
    }
    const [only] = pieces;
    return pieces.length === 1 && only !== undefined
      ? Buffer.from(only.buffer, only.byteOffset, only.byteLength)
      : Buffer.concat(pieces);
  }

  private chunk(n: number): Uint8Array | undefined {
    let payload = this.chunks.get(n);
    if (payload === undefined) {
      const file = this.sink.read?.(packPath(this.resource, this.format, n));
      if (file === undefined) return undefined;
      payload = chunkPayload(file);
      if (this.chunks.size >= 2) this.chunks.delete(this.chunks.keys().next().value as number);
      this.chunks.set(n, payload);
    }
    return payload;
  }
}
