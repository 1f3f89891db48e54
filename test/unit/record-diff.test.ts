import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvRow, type CsvColumn } from "../../generator/contract/csv.ts";
import { encodeRecords } from "../../generator/build/encode.ts";
import type { OldDataset } from "../../generator/build/old-cursor.ts";
import { localPredecessor } from "../../generator/build/local-predecessor.ts";
import { asManifest, oldDatasetOf, type Predecessor } from "../../generator/build/predecessor.ts";
import { datasetPath, FILE_LIST_PATH } from "../../generator/contract/layout.ts";
import type { DownloadsManifest } from "../../generator/contract/downloads.ts";
import { RecordDiff, type RecordChange } from "../../generator/build/record-diff.ts";

/**
 * The streaming diff against what it must equal: the multiset difference of the two datasets
 * (records that differ, paired by key when one on each side), however the records moved, however
 * the parts fall, and without reading an old part whose bytes a new part has.
 */
const columns: CsvColumn[] = [
  { header: "Key", path: ["key"] },
  { header: "Name", path: ["name"] },
];
const rec = (key: string, name = `n${key}`) => JSON.stringify({ key, name });
const range = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => rec(String(from + i).padStart(3, "0")));
const sha = (records: readonly string[]) =>
  createHash("sha256")
    .update(`[${records.join(",")}]`)
    .digest("hex");

/** Records cut into parts of `size` records, as a dataset's parts (the old side counts its reads). */
function partsOf(records: readonly string[], size: number): string[][] {
  const parts: string[][] = [];
  for (let i = 0; i < records.length || parts.length === 0; i += size)
    parts.push(records.slice(i, i + size));
  return parts;
}

/** The old parts as a local predecessor reads them: each into the same buffer, over the last one. */
function oldDataset(parts: readonly string[][]): OldDataset & { reads: number[] } {
  const reads: number[] = [];
  const texts = parts.map((records) => `[${records.join(",")}]`);
  const scratch = Buffer.alloc(Math.max(...texts.map((text) => Buffer.byteLength(text))));
  return {
    reads,
    parts: parts.map((records) => ({ records: records.length, sha256: sha(records) })),
    read: (part) => {
      reads.push(part);
      scratch.fill(0x20);
      return Promise.resolve(scratch.subarray(0, scratch.write(texts[part] ?? "")));
    },
  };
}

async function diff(
  before: readonly string[],
  after: readonly string[],
  size = 4,
  limit?: number,
): Promise<{ changes: RecordChange[]; reads: number[]; spilled: boolean }> {
  const old = oldDataset(partsOf(before, size));
  const records = new RecordDiff(old, columns, limit);
  for (const part of partsOf(after, size)) {
    // The part's records in two slices of different views, as the dataset writer hands them over.
    const cut = Math.floor(part.length / 2);
    const slices = [part.slice(0, cut), part.slice(cut)].map((json) => {
      const encoded = encodeRecords({
        json,
        csv: json.map((r) => csvRow(columns, JSON.parse(r))),
      });
      // The records a few bytes into the buffer, as a dataset part holds them after its opening.
      return {
        json: Buffer.concat([Buffer.from("[,"), encoded.bytes.json]),
        offsets: encoded.offsets.json,
        shift: 2,
        from: 0,
        to: encoded.count,
      };
    });
    await records.part(slices, sha(part));
  }
  const changes = await records.finish("t.things");
  return { changes, reads: old.reads, spilled: records.spilled };
}

/** The expected changes: the multiset difference, a key on one record on each side paired as changed. */
function expected(before: readonly string[], after: readonly string[]): string[] {
  const left = [...before];
  const added: string[] = [];
  for (const r of after) {
    const at = left.indexOf(r);
    if (at >= 0) left.splice(at, 1);
    else added.push(r);
  }
  const key = (r: string) => (JSON.parse(r) as { key: string }).key;
  const once = (list: string[], k: string) => list.filter((r) => key(r) === k).length === 1;
  const changed = added.filter((r) => once(added, key(r)) && once(left, key(r)));
  const changedKeys = new Set(changed.map(key));
  return [
    ...left.filter((r) => !changedKeys.has(key(r))).map((r) => `removed ${r}`),
    ...added.filter((r) => !changedKeys.has(key(r))).map((r) => `added ${r}`),
    ...changed.map((r) => `changed ${left.find((o) => key(o) === key(r))} ${r}`),
  ].sort();
}

const described = (changes: RecordChange[]) =>
  changes
    .map((c) =>
      c.kind === "added"
        ? `added ${c.json}`
        : c.kind === "removed"
          ? `removed ${c.old}`
          : `changed ${c.old} ${c.json}`,
    )
    .sort();

/** Pool limits: none reached, and one so small that any waiting record indexes the old dataset. */
const LIMITS = [
  ["", undefined],
  [", past the pool limit", 20],
] as const;

describe.each(LIMITS)("the streaming record diff%s", (_, limit) => {
  const base = range(0, 30);
  it.each([
    ["nothing changed", base, []],
    ["one record renamed in place", base.map((r, i) => (i === 5 ? rec("005", "x") : r)), []],
    ["a block inserted", [...base.slice(0, 10), ...range(100, 120), ...base.slice(10)], []],
    ["a block removed", [...base.slice(0, 5), ...base.slice(25)], []],
    ["the first and last removed", base.slice(1, -1), []],
    ["a record moved far back", [...base.slice(1), base[0] ?? ""], []],
    ["reversed", [...base].reverse(), []],
    ["duplicates on both sides", [...base, base[3] ?? "", base[3] ?? ""], [base[3] ?? ""]],
    ["everything replaced", range(200, 230), []],
    ["from nothing", base, [], true],
  ])("%s", async (_, after, extra, fromNothing = false) => {
    const before = fromNothing ? [] : [...base, ...extra];
    // Parts of 4 records (slices of 2), and of 40 (slices past a run of records compared at once).
    for (const size of [4, 40]) {
      const { changes } = await diff(before, after, size, limit);
      expect(described(changes)).toEqual(expected(before, after));
    }
  });

  it("finds the same changes in a reordered dataset, indexing past the limit", async () => {
    // Views in another order: every record waits for its match, so the pools hold the dataset.
    const before = range(0, 60);
    const after = [...range(40, 60), ...range(20, 40), ...range(0, 20)].map((r, i) =>
      i === 7 ? rec("047", "x") : i === 33 ? rec("900") : r,
    );
    const { changes, spilled } = await diff(before, after, 4, limit);
    expect(described(changes)).toEqual(expected(before, after));
    expect(described(changes)).toEqual([
      `added ${rec("900")}`,
      `changed ${rec("047")} ${rec("047", "x")}`,
      `removed ${rec("033")}`,
    ]);
    expect(spilled).toBe(limit !== undefined);
  });

  it("reads no old part whose bytes a new part has", async () => {
    // Parts of 4 records: the change in part 3 (records 8–11) leaves the others' bytes alone.
    const after = base.map((r, i) => (i === 9 ? rec("009", "x") : r));
    const { changes, reads } = await diff(base, after, 4, limit);
    expect(described(changes)).toEqual([`changed ${base[9]} ${rec("009", "x")}`]);
    // Past the limit, the rest of the old dataset is read for its index.
    expect(reads).toEqual(limit === undefined ? [2] : [2, 3, 4, 5, 6, 7]);
    // An unchanged dataset: nothing read, nothing published.
    expect(await diff(base, base, 4, limit)).toEqual({ changes: [], reads: [], spilled: false });
  });

  it("equals the multiset difference for any edit (property)", async () => {
    const record = fc
      .tuple(fc.integer({ min: 0, max: 12 }), fc.constantFrom("a", "b", "c"))
      .map(([key, name]) => rec(String(key).padStart(3, "0"), name));
    await fc.assert(
      fc.asyncProperty(
        fc.array(record, { maxLength: 30 }),
        fc.array(record, { maxLength: 30 }),
        fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 7, max: 40 })),
        async (a, b, size) => {
          // Sorted as a dataset is, so that the two sides are mostly in step.
          const before = [...a].sort();
          const after = [...b].sort();
          expect(described((await diff(before, after, size, limit)).changes)).toEqual(
            expected(before, after),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("the predecessor's dataset", () => {
  const json = Buffer.from(`[${range(0, 3).join(",")}]`);
  const file = (path: string, extra: object = {}) => ({
    path,
    mediaType: "application/json",
    bytes: json.length,
    sha256: "ab",
    records: 3,
    endpoint: "/t/Things",
    format: "json" as const,
    credits: [],
    ...extra,
  });
  const manifest = {
    builtAt: "2026-11-21T03:00:00.000Z",
    sources: [],
    joins: [],
    files: [
      file("/downloads/t.things.json"),
      file("/downloads/t.things.json.gz", { gzipOf: "/downloads/t.things.json" }),
    ],
  } as unknown as DownloadsManifest;

  it.each([
    ["a directory: the plain file", false, "/downloads/t.things.json"],
    ["over the network: the gzip copy, unpacked", true, "/downloads/t.things.json.gz"],
  ])("%s", async (_, compressed, fetched) => {
    const asked: string[] = [];
    const old = oldDatasetOf(
      {
        where: "test",
        manifest,
        compressed,
        read: (path) => {
          asked.push(path);
          return Promise.resolve(path.endsWith(".gz") ? gzipSync(json) : json);
        },
      },
      "t.things",
    );
    expect(old.parts).toEqual([{ records: 3, sha256: "ab" }]);
    expect(Buffer.from(await old.read(0))).toEqual(json);
    expect(asked).toEqual([fetched]);
  });

  it("keeps of the manifest the build time and the complete datasets' files, not the views'", () => {
    const view = file("/downloads/t.things/aach.json", { filter: { locality: "Aach" } });
    const kept = asManifest({ ...manifest, files: [...manifest.files, view] }, "test");
    expect(kept).toEqual({ builtAt: manifest.builtAt, files: manifest.files });
    expect(() => asManifest({ files: [] }, "there")).toThrow("there: not a downloads manifest");
  });

  it("a local build: every part read into one buffer, the largest part's size", async () => {
    const parts = [range(0, 3), range(3, 4), range(4, 9)].map((r) => Buffer.from(`[${r}]`));
    const dir = mkdtempSync(join(tmpdir(), "plz-predecessor-"));
    try {
      const paths = parts.map((_, i) => datasetPath("t.things", "json", i + 1));
      mkdirSync(join(dir, "downloads"));
      parts.forEach((bytes, i) => writeFileSync(join(dir, paths[i] ?? ""), bytes));
      const files = parts.map((bytes, i) =>
        file(paths[i] ?? "", { bytes: bytes.length, part: i + 1 }),
      );
      writeFileSync(join(dir, "downloads/index.json"), JSON.stringify({ ...manifest, files }));
      const list = paths.map((path, i) => `${path}\tx\t${parts[i]?.length}\n`).join("");
      writeFileSync(join(dir, FILE_LIST_PATH), `${list}/downloads/index.json\tx\t1\n`);
      const predecessor = localPredecessor(dir);
      expect(predecessor).toBeDefined();
      const old = oldDatasetOf(predecessor as Predecessor, "t.things");
      const read = await Promise.all([0, 1, 2].map((part) => old.read(part)));
      // Each read's bytes were right when read; all three share one buffer (the last part's now).
      expect(new Set(read.map((bytes) => bytes.buffer)).size).toBe(1);
      expect(read.map((bytes) => bytes.length)).toEqual(parts.map((bytes) => bytes.length));
      expect(Buffer.from(read[2] ?? [])).toEqual(parts[2]);
      expect((read[2]?.buffer.byteLength ?? 0) >= Math.max(...parts.map((b) => b.length))).toBe(
        true,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
