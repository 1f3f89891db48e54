import { describe, expect, it } from "vitest";
import {
  MAX_INDEX_SHARDS,
  pageFileSize,
  selectView,
  shardCount,
  shardOf,
  viewKey,
} from "../../generator/contract/address.ts";
import {
  chunkBoundary,
  chunkPayload,
  chunkSpans,
  encodeChunk,
  locateBoundary,
  type PackRef,
} from "../../generator/contract/pack.ts";
import { renderPage } from "../../generator/contract/page.ts";
import type { SelectorSpec } from "../../generator/contract/routes.ts";
import { decodeShard, encodeShard, encodeShardEntry } from "../../generator/contract/shard.ts";

const locality: SelectorSpec = {
  param: "locality",
  in: "query",
  required: true,
  match: "caseInsensitive",
  missing: "No locality given.",
};
const postalCode: SelectorSpec = {
  param: "postalCode",
  in: "query",
  required: false,
  match: "exact",
};
const name: SelectorSpec = {
  param: "name",
  in: "query",
  required: false,
  match: "caseInsensitive",
};
const key: SelectorSpec = { param: "key", in: "path", required: true, match: "exact" };

describe("the view a request selects", () => {
  it.each<[string, readonly SelectorSpec[], Record<string, string>, string | undefined]>([
    ["one filter, normalised", [locality], { locality: " BERLIN " }, "berlin"],
    ["NFD and NFC are one value", [locality], { locality: "Lu\u0308nen" }, "lünen"],
    ["a path key as sent", [key], { key: "09" }, "09"],
    ["a path key is not normalised", [key], { key: " 09" }, " 09"],
    [
      "both optional filters",
      [postalCode, name],
      { postalCode: "10117", name: "Berlin" },
      '["10117","berlin"]',
    ],
    ["one of two optional filters", [postalCode, name], { name: "Berlin" }, '[null,"berlin"]'],
    ["no optional filter: all", [postalCode, name], {}, "[null,null]"],
    ["whitespace only counts as absent", [postalCode, name], { name: "  " }, "[null,null]"],
    [
      "a value cannot forge a tuple",
      [postalCode, name],
      { postalCode: '10117","berlin' },
      '["10117\\",\\"berlin",null]',
    ],
    ["a required filter missing", [locality], {}, undefined],
    ["a required filter blank", [locality], { locality: " \t" }, undefined],
  ])("%s", (_, selectors, values, expected) => {
    const selection = selectView(selectors, (s) => values[s.param]);
    if (expected === undefined) {
      expect(selection).toEqual({ ok: false, missing: locality });
      return;
    }
    expect(selection).toEqual({ ok: true, key: expected });
  });

  it("keys one selector by its value and several by a JSON array", () => {
    expect(viewKey(["berlin"])).toBe("berlin");
    expect(viewKey([undefined])).toBe("");
    expect(viewKey(["a", undefined])).toBe('["a",null]');
  });
});

describe("index shards", () => {
  it("decode what the build encodes: inlined records, packed offsets and slugs", () => {
    const records = [{ name: "Pariser Platz", postalCode: "10117" }, { name: "Unter den Linden" }];
    const packed = {
      json: { start: 1_000_000, bytes: 323, firstIndex: 4, later: [2, 40] },
      csv: { start: 7, bytes: 250, firstIndex: 0, later: [] },
    };
    const text = encodeShard(
      [7, 50],
      [
        encodeShardEntry("berlin", { slug: "berlin", total: 3, hash: "abc" }, { packed }),
        encodeShardEntry(
          "bonn",
          { slug: "bonn", total: 2, hash: "def" },
          { inline: records.map((r) => JSON.stringify(r)) },
        ),
      ],
      [["berlin", "berlin"]],
    );
    const shard = decodeShard(text);
    expect([...shard.sizes]).toEqual([7, 50]);
    const berlin = shard.entries.get("berlin");
    expect(berlin).toMatchObject({ slug: "berlin", total: 3, hash: "abc", records: undefined });
    expect(berlin?.packed).toEqual(packed);
    expect(shard.entries.get("bonn")).toEqual({
      slug: "bonn",
      total: 2,
      hash: "def",
      records,
      packed: undefined,
    });
    expect([...shard.slugs]).toEqual([["berlin", "berlin"]]);
  });

  it.each([
    [1, 1],
    [32, 1],
    [33, 2],
    [10_257, 256],
    [1_000_000, MAX_INDEX_SHARDS],
  ])("spreads %i views over %i shards", (views, shards) => {
    expect(shardCount(views)).toBe(shards);
    expect(shardOf("berlin", shards)).toBeLessThan(shards);
  });
});

describe("packed records", () => {
  // A view of five records from offset 25 of a stream in chunks of 10 bytes, at 25, 28, 32, 44
  // and 46, ending at 55; an earlier view's record starts at 21, so the view's first is the second
  // boundary of chunk 2. Then a view whose second record spans chunks 3 and 4 without a boundary.
  const view: PackRef = { start: 25, bytes: 30, firstIndex: 1, later: [2, 2, 3, 4, 5, 5] };
  const long: PackRef = { start: 25, bytes: 30, firstIndex: 0, later: [2, 23, 2, 13, 2, 3] };
  it.each<[PackRef, number, number, ReturnType<typeof locateBoundary>]>([
    [view, 5, 0, { position: 25 }],
    [view, 5, 1, { chunk: 2, index: 2 }],
    [view, 5, 2, { position: 32 }],
    [view, 5, 3, { position: 44 }],
    [view, 5, 4, { chunk: 4, index: 1 }],
    [view, 5, 5, { position: 55 }],
    [long, 3, 1, { chunk: 2, index: 1 }],
    [long, 3, 2, { position: 53 }],
    [long, 3, 3, { position: 55 }],
  ])(
    "locates a boundary in the index entry or in the table of the chunk it is in (%#)",
    (ref, total, record, boundary) => {
      expect(locateBoundary(ref, total, record, 10)).toEqual(boundary);
    },
  );

  it.each([[[]], [[0, 3, 255, 256, 65_535]]])(
    "keep a chunk's boundary table apart from its bytes (%#)",
    (boundaries) => {
      const bytes = new TextEncoder().encode("Straße,");
      const file = encodeChunk(boundaries, bytes);
      expect(boundaries.map((_, i) => chunkBoundary(file, i))).toEqual(boundaries);
      expect(chunkPayload(file)).toEqual(bytes);
    },
  );

  it.each([
    [0, 10, 100, [{ chunk: 0, from: 0, to: 10 }]],
    [
      95,
      105,
      100,
      [
        { chunk: 0, from: 95, to: 100 },
        { chunk: 1, from: 0, to: 5 },
      ],
    ],
    [100, 200, 100, [{ chunk: 1, from: 0, to: 100 }]],
    [150, 150, 100, []],
    [
      50,
      350,
      100,
      [
        { chunk: 0, from: 50, to: 100 },
        { chunk: 1, from: 0, to: 100 },
        { chunk: 2, from: 0, to: 100 },
        { chunk: 3, from: 0, to: 50 },
      ],
    ],
  ])("bytes [%i, %i) of chunks of %i are %j", (from, to, size, spans) => {
    expect(chunkSpans(from, to, size)).toEqual(spans);
  });
});

describe("page files", () => {
  it.each<[number[], number, number, number | undefined]>([
    [[50], 50, 600, 50],
    [[50], 10, 600, undefined],
    [[10, 50], 10, 600, 10],
    [[10, 50], 10, 7, 50],
    [[10], 10, 7, undefined],
    [[7, 50], 7, 7, 50],
    [[], 50, 30, undefined],
  ])(
    "sizes %j, a page of %i of %i records: the file of size %s",
    (sizes, pageSize, total, file) => {
      expect(pageFileSize(new Set(sizes), pageSize, total)).toBe(file);
    },
  );
});

describe("pages", () => {
  it.each([
    ["json", [], "[]"],
    ["json", ['{"a":1}', '{"a":2}'], '[{"a":1},{"a":2}]'],
    ["csv", [], "A\r\n"],
    ["csv", ["1\r\n", "2\r\n"], "A\r\n1\r\n2\r\n"],
  ] as const)("%s of %j", (format, rows, body) => {
    expect(renderPage(format, "A\r\n", rows)).toBe(body);
  });
});
