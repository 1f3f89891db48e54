import { describe, expect, it } from "vitest";
import { encodeRecords } from "../../generator/build/encode.ts";
import { PackWriter } from "../../generator/build/pack-writer.ts";
import { csvHeader, csvRow } from "../../generator/contract/csv.ts";
import { jsonRecord, renderPage } from "../../generator/contract/page.ts";
import { pageBounds, pageCount } from "../../generator/contract/paging.ts";
import { decodeShard, encodeShard, encodeShardEntry } from "../../generator/contract/shard.ts";
import { AssetStore, urlOf } from "../../generator/edge/assets.ts";
import {
  readPackedPage,
  streamPackedView,
  type PackedStream,
} from "../../generator/edge/packed.ts";
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
const views = [1, 7, 50, 51, 137].map((count, v) =>
  Array.from({ length: count }, (_, i) => ({
    name: `${names[(i + v) % names.length]} ${i}`,
    n: String(i),
  })),
);

async function packed(chunkBytes: number) {
  const sink = new MemorySink();
  const writers = {
    json: new PackWriter(sink, "t", "json", chunkBytes),
    csv: new PackWriter(sink, "t", "csv", chunkBytes),
  };
  const entries = views.map((records, i) =>
    encodeShardEntry(
      `v${i}`,
      { slug: `v${i}`, total: records.length, hash: "h" },
      {
        packed: ((encoded) => ({
          json: writers.json.append(encoded),
          csv: writers.csv.append(encoded),
        }))(
          encodeRecords({
            json: records.map(jsonRecord),
            csv: records.map((r) => csvRow(columns, r)),
          }),
        ),
      },
    ),
  );
  writers.json.finish();
  writers.csv.finish();
  const shard = decodeShard(encodeShard([], entries, []));
  const stream = (format: "json" | "csv", store = storeOver(sink)): PackedStream => ({
    store,
    origin: "http://t",
    resource: "t",
    format,
    csvHeaderLine: new TextEncoder().encode(header),
    chunkBytes,
  });
  return { shard, stream, sink, chunks: [...sink.files.keys()].length };
}

/** The written files as the Worker's asset store, noting in `fetched` each path it reads. */
function storeOver(sink: MemorySink, fetched = new Set<string>()): AssetStore {
  return new AssetStore({
    fetch: async (input) => {
      const path = new URL(urlOf(input)).pathname;
      fetched.add(path);
      const data = sink.files.get(path);
      return data === undefined
        ? new Response(null, { status: 404 })
        : new Response(typeof data === "string" ? data : new Uint8Array(data));
    },
  });
}

describe("packed records", () => {
  it.each([7, 64, 65_536])(
    "give every page of every size of every view, byte for byte, in chunks of %i bytes",
    async (chunkBytes) => {
      const { shard, stream, chunks } = await packed(chunkBytes);
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
              const body = new TextDecoder().decode(
                await readPackedPage(stream(format), packedRecords, records.length, start, end),
              );
              const rows = records
                .slice(start, end)
                .map((r) => (format === "json" ? jsonRecord(r) : csvRow(columns, r)));
              expect(body, `view ${i} size ${size} page ${page} ${format}`).toBe(
                renderPage(format, header, rows),
              );
              compared++;
            }
          }
        }
      }
      expect(compared).toBeGreaterThan(2_000);
    },
  );

  it.each([7, 64])(
    "streams every whole view as its download, with the length its index entry gives, in chunks of %i bytes",
    async (chunkBytes) => {
      const { shard, stream } = await packed(chunkBytes);
      for (const [i, records] of views.entries()) {
        for (const format of ["json", "csv"] as const) {
          const packedRecords = shard.entries.get(`v${i}`)?.packed?.[format];
          if (packedRecords === undefined) throw new Error("not packed");
          const view = streamPackedView(stream(format), packedRecords);
          const text = await new Response(view.body()).text();
          expect(text, `view ${i} ${format}`).toBe(
            renderPage(
              format,
              header,
              records.map((r) => (format === "json" ? jsonRecord(r) : csvRow(columns, r))),
            ),
          );
          expect(view.length).toBe(Buffer.byteLength(text));
        }
      }
    },
  );

  it.each([0, 3, 137])("reads no records as an empty page (from record %i)", async (at) => {
    const { shard, stream } = await packed(7);
    for (const format of ["json", "csv"] as const) {
      const ref = shard.entries.get("v4")?.packed?.[format];
      if (ref === undefined) throw new Error("not packed");
      expect(new TextDecoder().decode(await readPackedPage(stream(format), ref, 137, at, at))).toBe(
        renderPage(format, header, []),
      );
    }
  });

  it("reads a page from the chunks that hold its bytes and no others", async () => {
    const { shard, stream, sink } = await packed(64);
    const records = views[4] ?? [];
    const rendered = (format: "json" | "csv") =>
      records.map((r) => (format === "json" ? `${jsonRecord(r)},` : csvRow(columns, r)));
    let checked = 0;
    for (const format of ["json", "csv"] as const) {
      const ref = shard.entries.get("v4")?.packed?.[format];
      if (ref === undefined) throw new Error("not packed");
      for (let size = 1; size <= 50; size++) {
        for (let page = 1; page <= pageCount(records.length, size); page++) {
          const { start, end } = pageBounds(page, size, records.length);
          const fetched = new Set<string>();
          await readPackedPage(
            stream(format, storeOver(sink, fetched)),
            ref,
            records.length,
            start,
            end,
          );
          // The page's bytes, without a JSON page's last comma, are [from, to) of the stream.
          const from = ref.start + Buffer.byteLength(rendered(format).slice(0, start).join(""));
          const to =
            ref.start +
            Buffer.byteLength(rendered(format).slice(0, end).join("")) -
            (format === "json" ? 1 : 0);
          const holding = new Set(
            Array.from(
              { length: to - from },
              (_, i) => `/_c/t/${format}/${Math.floor((from + i) / 64)}.bin`,
            ),
          );
          expect(fetched, `size ${size} page ${page} ${format}`).toEqual(holding);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  });
});
