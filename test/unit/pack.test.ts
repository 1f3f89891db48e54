import { describe, expect, it } from "vitest";
import { encodeRecords } from "../../generator/build/encode.ts";
import { PackWriter } from "../../generator/build/packs.ts";
import { csvHeader, csvRow } from "../../generator/contract/csv.ts";
import { jsonRecord, renderPage } from "../../generator/contract/page.ts";
import { pageBounds, pageCount } from "../../generator/contract/paging.ts";
import { decodeShard, encodeShard, encodeShardEntry } from "../../generator/contract/shard.ts";
import { AssetStore } from "../../generator/edge/assets.ts";
import { packedSlice, readSlice, streamSlice } from "../../generator/edge/packed.ts";
import { MemorySink } from "../../generator/io/sink.ts";

/**
 * Packed records in-process: views written by the build's writer into chunk files, every page of
 * every size read back by the Worker's slicing, against the page the build would render. Small
 * chunks make pages cross chunk boundaries; names with quotes, commas and multi-byte characters
 * make byte and character offsets differ.
 */
const columns = [
  { header: "Name", path: ["name"] },
  { header: "N", path: ["n"] },
];
const header = csvHeader(columns);
const names = ['Weg "A", Nord', "Straße", "Chemin de l’Église", "𝄞 Musikweg", "Allee"];
const views = [1, 7, 50, 51, 137].map((count, v) => Array.from({ length: count }, (_, i) => ({ name: `${names[(i + v) % names.length]} ${i}`, n: String(i) })));

async function packed(chunkBytes: number) {
  const sink = new MemorySink();
  const writers = { json: new PackWriter(sink, "t", "json", chunkBytes), csv: new PackWriter(sink, "t", "csv", chunkBytes) };
  const entries = views.map((records, i) =>
    encodeShardEntry(`v${i}`, { slug: `v${i}`, total: records.length, hash: "h" }, { packed: ((encoded) => ({ json: writers.json.append(encoded), csv: writers.csv.append(encoded) }))(encodeRecords({ json: records.map(jsonRecord), csv: records.map((r) => csvRow(columns, r)) })) }),
  );
  writers.json.finish();
  writers.csv.finish();
  const shard = decodeShard(encodeShard([], entries, []));
  const store = new AssetStore({
    fetch: async (request) => {
      const data = sink.files.get(new URL(request.url).pathname);
      return data === undefined ? new Response(null, { status: 404 }) : new Response(typeof data === "string" ? data : new Uint8Array(data));
    },
  });
  return { shard, store, chunks: [...sink.files.keys()].length };
}

describe("packed records", () => {
  it.each([7, 64, 1_000_000])("give every page of every size of every view, byte for byte, in chunks of %i bytes", async (chunkBytes) => {
    const { shard, store, chunks } = await packed(chunkBytes);
    if (chunkBytes === 7) expect(chunks).toBeGreaterThan(1000);
    let compared = 0;
    for (const [i, records] of views.entries()) {
      const entry = shard.entries.get(`v${i}`);
      for (let size = 1; size <= 50; size++) {
        for (let page = 1; page <= pageCount(records.length, size); page++) {
          const { start, end } = pageBounds(page, size, records.length);
          for (const format of ["json", "csv"] as const) {
            const packedRecords = entry?.packed?.[format];
            if (packedRecords === undefined) throw new Error("not packed");
            const slice = packedSlice(packedRecords, format, start, end, new TextEncoder().encode(header), chunkBytes);
            const body = new TextDecoder().decode(await readSlice(store, "http://t", "t", format, slice));
            const rows = records.slice(start, end).map((r) => (format === "json" ? jsonRecord(r) : csvRow(columns, r)));
            expect(body, `view ${i} size ${size} page ${page} ${format}`).toBe(renderPage(format, header, rows));
            expect(slice.length).toBe(Buffer.byteLength(body));
            compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(2_000);
  });

  it("streams a whole view as its download, across chunks", async () => {
    const { shard, store } = await packed(64);
    const records = views[4] ?? [];
    const entry = shard.entries.get("v4");
    for (const format of ["json", "csv"] as const) {
      const packedRecords = entry?.packed?.[format];
      if (packedRecords === undefined) throw new Error("not packed");
      const slice = packedSlice(packedRecords, format, 0, records.length, new TextEncoder().encode(header), 64);
      const text = await new Response(streamSlice(store, "http://t", "t", format, slice)).text();
      expect(text).toBe(renderPage(format, header, records.map((r) => (format === "json" ? jsonRecord(r) : csvRow(columns, r)))));
    }
  });
});
