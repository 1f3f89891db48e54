import { describe, expect, it } from "vitest";
import { decodePostings } from "../../generator/contract/search/postings.ts";
import {
  ByteReader,
  ByteWriter,
  frontCode,
  readFrontCoded,
  sharedPrefix,
} from "../../generator/contract/search/bytes.ts";
import {
  decodePlaceTable,
  encodePlaceTable,
  placeList,
  placeLocality,
  placePostalCode,
  type MetaPlace,
} from "../../generator/contract/search/meta.ts";
import { encodeListShard, ListShard, shardFor } from "../../generator/contract/search/shards.ts";
import fc from "fast-check";
import {
  decodeBlocks,
  encodeBlock,
  HeadTable,
  headsInRuns,
} from "../../generator/contract/search/store.ts";
import {
  csvPieces,
  decodeTailShard,
  encodeTailShard,
  TailShard,
  jsonPieces,
} from "../../generator/contract/search/tails.ts";

/** The search index's codecs (contract/search): what the build writes, the Worker reads back unchanged. */

describe("front coding", () => {
  it.each([
    ["shared ASCII", "Am Berg", "Am Bach", 4],
    ["nothing shared", "Berg", "Tal", 0],
    ["one is a prefix", "Berg", "Bergweg", 4],
    ["never inside a surrogate pair", "a\u{1F600}", "a\u{1F601}", 1],
    ["a whole pair is shared", "a\u{1F600}x", "a\u{1F600}y", 3],
  ])("%s", (_, a, b, shared) => {
    expect(sharedPrefix(a, b)).toBe(shared);
  });

  it("reads back what it wrote, astral characters and empty strings included", () => {
    const strings = [
      "",
      "Aachener Straße",
      "Aachener Weg",
      "Ähre",
      "a\u{1F600}b",
      "a\u{1F601}",
      "a\u{1F601}",
      "",
      "Zeil",
    ];
    const lengths = new ByteWriter();
    const text = frontCode(strings, lengths);
    const bytes = new ByteWriter();
    bytes.text(text);
    const reader = new ByteReader(bytes.view());
    const decoded = reader.text(bytes.length);
    expect(readFrontCoded(strings.length, new ByteReader(lengths.view()), decoded)).toEqual({
      strings,
      end: decoded.length,
    });
  });

  it.each([0, 1, 127, 128, 16_383, 16_384, 2 ** 31, 2 ** 40])("varint %d", (value) => {
    const writer = new ByteWriter();
    writer.varint(value);
    writer.varint(7);
    const reader = new ByteReader(writer.view());
    expect([reader.varint(), reader.varint()]).toEqual([value, 7]);
  });
});

describe("list blocks", () => {
  it.each([
    ["one column", [["Aachener Straße"], ["Aachener Weg"], ["Zeil"]]],
    [
      "two columns (key, name)",
      [
        ["042417", "Achgasse"],
        ["042418", "Achgasse"],
        ["1", "\u{1F600} Weg"],
      ],
    ],
    ["empty names", [[""], ["x"], [""]]],
  ])("%s: entries and heads as written", (_, heads) => {
    const entries = [
      { position: 3, place: 70_000, head: 0 },
      { position: 4, place: 0, head: 1 },
      { position: 900, place: 5, head: 1 },
      { position: 1_000_000, place: 1, head: 2 },
    ];
    const out = new ByteWriter();
    for (let block = 0; block < 2; block++) {
      encodeBlock(
        out,
        heads,
        entries.map((e) => e.position + block * 2_000_000),
        entries.map((e) => e.place),
        entries.map((e) => e.head),
        entries.length,
      );
    }
    const decoded = decodeBlocks(out.view()).map((e) => ({
      position: e.position,
      place: e.place,
      head: e.head,
    }));
    const expected = [0, 1].flatMap((block) =>
      entries.map((e) => ({
        position: e.position + block * 2_000_000,
        place: e.place,
        head: heads[e.head],
      })),
    );
    expect(decoded).toEqual(expected);
    for (const [from, to] of [
      [0, 0],
      [2, 6],
      [3, 100],
      [7, 8],
    ] as const)
      expect(
        decodeBlocks(out.view(), [], from, to).map((e) => ({
          position: e.position,
          place: e.place,
          head: e.head,
        })),
      ).toEqual(expected.slice(from, to));
  });
});

describe("head tables", () => {
  /** A block's head table as encodeBlock writes it (the bytes before its entries). */
  const tableOf = (heads: readonly (readonly string[])[]) => {
    const out = new ByteWriter();
    encodeBlock(out, heads, [], [], [], 0);
    const reader = new ByteReader(out.view());
    const length = reader.varint();
    reader.varint();
    return out.view().slice(reader.at, reader.at + length);
  };
  const name = fc.stringMatching(/^(Am |An der |)(Ah|Äh|Bach|\u{1F600}|Zeil)(orn|e|weg|straße|)$/u);

  it.each([
    ["one column", 1],
    ["two columns (key, name)", 2],
  ])("%s: any head asked for, in any order and as often, is the head written", (_, columns) => {
    fc.assert(
      fc.property(
        fc.array(fc.array(name, { minLength: columns, maxLength: columns }), { minLength: 1 }),
        fc.array(fc.nat(), { maxLength: 400 }),
        (unsorted, asks) => {
          const heads = [...unsorted].sort((a, b) => (a.join() < b.join() ? -1 : 1));
          const table = new HeadTable(tableOf(heads));
          for (const ask of asks)
            expect(table.get(ask % (heads.length + 1))).toEqual(
              heads[ask % (heads.length + 1)] ?? [],
            );
          heads.forEach((head, i) => expect(table.get(i)).toEqual(head));
        },
      ),
    );
  });
});

describe("heads of streets in runs", () => {
  // Streets 100–109 in runs of one head, written as two blocks (as a head-table chunk is).
  const runs = [
    { first: 100, length: 3, head: ["Ahornweg"] },
    { first: 103, length: 1, head: ["Ahornstraße"] },
    { first: 104, length: 4, head: ["Zeil"] },
    { first: 108, length: 2, head: ["\u{1F600} Weg"] },
  ];
  const chunk = new ByteWriter();
  for (const block of [runs.slice(0, 2), runs.slice(2)])
    encodeBlock(
      chunk,
      block.map((r) => r.head),
      block.map((r) => r.first),
      block.map((r) => r.length),
      block.map((_, i) => i),
      block.length,
    );
  const headAt = (position: number) =>
    runs.find((r) => r.first <= position && position < r.first + r.length)?.head ?? [];

  it.each([
    ["none", []],
    ["the first and the last", [100, 109]],
    ["every street", [100, 101, 102, 103, 104, 105, 106, 107, 108, 109]],
    ["one run's last, the next run's first", [102, 103, 107, 108]],
    ["past the chunk", [105, 110, 200]],
  ])("%s", (_, positions) => {
    expect(headsInRuns(chunk.view(), positions)).toEqual(positions.map(headAt));
  });
});

describe("places", () => {
  it("reads back every place's postal code, locality and list, values used again after others included", () => {
    const places: MetaPlace[] = [
      { postalCode: "01067", locality: "Dresden", count: 3, listBytes: 40 },
      { postalCode: "01067", locality: "Dresden", count: 1, listBytes: 200 },
      { postalCode: "01068", locality: "Dresden", count: 5, listBytes: 17_000 },
      { postalCode: "01069", locality: "Börnchen", count: 2, listBytes: 3 },
      { postalCode: "01069", locality: "Dresden", count: 9, listBytes: 0 },
      { postalCode: "01067", locality: "\u{1F600}", count: 1, listBytes: 1 },
    ];
    const table = decodePlaceTable(encodePlaceTable(places, 123_456_789));
    expect(table.size).toBe(places.length);
    let start = 123_456_789;
    places.forEach((place, p) => {
      expect([placePostalCode(table, p), placeLocality(table, p), placeList(table, p)]).toEqual([
        place.postalCode,
        place.locality,
        [place.count, start, start + place.listBytes],
      ]);
      start += place.listBytes;
    });
    expect(table.postalCodes).toEqual(["01067", "01068", "01069"]);
    expect(table.localities).toEqual(["Dresden", "Börnchen", "\u{1F600}"]);
    expect([table.locality(-1), table.locality(3)]).toEqual(["", ""]);
  });

  it("an empty table", () => {
    expect(decodePlaceTable(encodePlaceTable([], 0)).size).toBe(0);
  });
});

describe("lexicon and trigram shards", () => {
  // The empty key (every run), an empty list, keys beyond ASCII and beyond the BMP.
  const entries = [
    { key: "", ref: [0, 100] },
    { key: "2", ref: [4, 100, 130] },
    { key: "platz", ref: [2_000, 130, 5_000, 9_000] },
    { key: "plauen", ref: [1, 9_000, 9_010] },
    { key: "pli", ref: [3, 9_010, 9_020] },
    { key: "straße", ref: [1, 9_020, 9_020 + 2 ** 31] },
    { key: "zz", ref: [1, 9_020 + 2 ** 31, 9_021 + 2 ** 31] },
    { key: "\u{1F600}ß", ref: [1, 9_021 + 2 ** 31, 9_030 + 2 ** 31] },
  ];
  const shard = ListShard.parse(encodeListShard(entries));

  it.each(entries)("$key: its list", ({ key, ref }) => {
    expect(shard.get(key)).toEqual({ ref, streets: 0 });
  });

  it.each([
    ["pla", [entries[2]?.ref, entries[3]?.ref]],
    ["pl", [entries[2]?.ref, entries[3]?.ref, entries[4]?.ref]],
    ["\u{1F600}", [entries[7]?.ref]],
    ["plz", []],
    ["zzz", []],
  ])("prefix %s", (prefix, refs) => {
    expect(shard.withPrefix(prefix)).toEqual(refs);
  });

  it("a key it does not hold", () => {
    expect(shard.get("pla")).toBeUndefined();
  });

  it("trigram shards carry each trigram's streets", () => {
    expect(
      ListShard.parse(encodeListShard([{ key: "abc", ref: [1, 0, 5], streets: 17 }])).get("abc"),
    ).toEqual({ ref: [1, 0, 5], streets: 17 });
  });

  it("refuses lists that are not back to back", () => {
    expect(() => encodeListShard([entries[1] as never, entries[3] as never])).toThrow(
      /does not follow/,
    );
  });

  it.each([
    ["", 0],
    ["a", 0],
    ["ba", 1],
    ["pl", 1],
    ["st", 2],
    ["zz", 2],
  ])("the shard of group %s", (group, shardNumber) => {
    expect(shardFor(["", "ba", "st"], group)).toBe(shardNumber);
  });
});

describe("tails", () => {
  const tails: [string, string][] = [
    [
      ',"postalCode":"01067","locality":"Dresden","municipality":{"key":"1","name":"Dresden, Stadt"}}',
      '01067,Dresden,1,"Dresden, Stadt"\r\n',
    ],
    [
      ',"postalCode":"01068","locality":"Dresden","municipality":{"key":"1","name":"Dresden, Stadt"}}',
      '01068,Dresden,1,"Dresden, Stadt"\r\n',
    ],
    [',"a":"x\\",\\"{","b":[1,{"c":"}"}]}', '"x"",""{",",",\r\n'],
    ["}", "\r\n"],
    [',"locality":"Köln \u{1F600}","b":"ß"}', "Köln \u{1F600},ß\r\n"],
  ];

  it("reads back every tail", () => {
    expect(decodeTailShard(encodeTailShard(tails))).toEqual(tails);
  });

  it("gives any one tail alone, in any order, and nothing past its places", () => {
    const shard = new TailShard(encodeTailShard(tails));
    for (let i = tails.length; i >= -1; i--)
      for (const format of [1, 0] as const)
        expect(shard.tail(i, format)).toBe(tails[i]?.[format] ?? "");
  });

  it.each(tails)("pieces join to the tail: %s", (json, csv) => {
    expect(jsonPieces(json).join("")).toBe(json);
    expect(csvPieces(csv).join("")).toBe(csv);
  });

  it("cuts JSON before top-level properties and CSV after cells", () => {
    expect(jsonPieces(tails[0]?.[0] ?? "")).toEqual([
      ',"postalCode":"01067"',
      ',"locality":"Dresden"',
      ',"municipality":{"key":"1","name":"Dresden, Stadt"}}',
    ]);
    expect(csvPieces(tails[0]?.[1] ?? "")).toEqual([
      "01067,",
      "Dresden,",
      "1,",
      '"Dresden, Stadt"\r\n',
    ]);
  });
});

describe("postings", () => {
  it("decodes blocks as columns: the same entries as decodeBlocks, over several blocks", () => {
    const heads = [["Aachener Straße"], ["Zeil"]];
    const out = new ByteWriter();
    encodeBlock(out, heads, [3, 4, 900], [70_000, 0, 5], [0, 1, 1], 3);
    encodeBlock(out, heads.slice(1), [1_000_000, 1_000_001], [1, 2], [0, 0], 2);
    const postings = decodePostings(out.view(), 5);
    expect(Array.from(postings.positions)).toEqual([3, 4, 900, 1_000_000, 1_000_001]);
    const entries = Array.from({ length: 5 }, (_, i) => postings.entry(i)).map((e) => ({
      position: e.position,
      place: e.place,
      head: e.head,
    }));
    const expected = decodeBlocks(out.view()).map((e) => ({
      position: e.position,
      place: e.place,
      head: e.head,
    }));
    expect(entries).toEqual(expected);
    expect([postings.indexOf(900), postings.indexOf(901)]).toEqual([2, -1]);
  });
});
