import { describe, expect, it } from "vitest";
import { INDEX_SHARDS, selectView, shardOf, viewKey } from "../../generator/contract/address.ts";
import { renderPage } from "../../generator/contract/page.ts";
import type { SelectorSpec } from "../../generator/contract/routes.ts";
import { decodeShard, encodeShard, encodeShardEntry } from "../../generator/contract/shard.ts";

const locality: SelectorSpec = { param: "locality", in: "query", required: true, match: "caseInsensitive", missing: "No locality given." };
const postalCode: SelectorSpec = { param: "postalCode", in: "query", required: false, match: "exact" };
const name: SelectorSpec = { param: "name", in: "query", required: false, match: "caseInsensitive" };
const key: SelectorSpec = { param: "key", in: "path", required: true, match: "exact" };

describe("the view a request selects", () => {
  it.each<[string, readonly SelectorSpec[], Record<string, string>, string | undefined]>([
    ["one filter, normalised", [locality], { locality: " BERLIN " }, "berlin"],
    ["NFD and NFC are one value", [locality], { locality: "Lu\u0308nen" }, "lünen"],
    ["a path key as sent", [key], { key: "09" }, "09"],
    ["a path key is not normalised", [key], { key: " 09" }, " 09"],
    ["both optional filters", [postalCode, name], { postalCode: "10117", name: "Berlin" }, '["10117","berlin"]'],
    ["one of two optional filters", [postalCode, name], { name: "Berlin" }, '[null,"berlin"]'],
    ["no optional filter: all", [postalCode, name], {}, "[null,null]"],
    ["whitespace only counts as absent", [postalCode, name], { name: "  " }, "[null,null]"],
    ["a value cannot forge a tuple", [postalCode, name], { postalCode: '10117","berlin' }, '["10117\\",\\"berlin",null]'],
    ["a required filter missing", [locality], {}, undefined],
    ["a required filter blank", [locality], { locality: " \t" }, undefined],
  ])("%s", (_, selectors, values, expected) => {
    const selection = selectView(selectors, (s) => values[s.param]);
    if (expected === undefined) {
      expect(selection).toEqual({ ok: false, missing: locality });
      return;
    }
    expect(selection).toEqual({ ok: true, key: expected, shard: shardOf(expected) });
    expect(selection.ok && selection.shard).toBeLessThan(INDEX_SHARDS);
  });

  it("keys one selector by its value and several by a JSON array", () => {
    expect(viewKey(["berlin"])).toBe("berlin");
    expect(viewKey([undefined])).toBe("");
    expect(viewKey(["a", undefined])).toBe('["a",null]');
  });
});

describe("index shards", () => {
  it("decode what the build encodes, inlined records included", () => {
    const records = [{ name: "Pariser Platz", postalCode: "10117" }, { name: "Unter den Linden" }];
    const text = encodeShard([7, 50], [encodeShardEntry("berlin", { slug: "berlin", total: 600, hash: "abc" }), encodeShardEntry("bonn", { slug: "bonn", total: 2, hash: "def" }, records.map((r) => JSON.stringify(r)))]);
    const shard = decodeShard(text);
    expect([...shard.sizes]).toEqual([7, 50]);
    expect(shard.entries.get("berlin")).toEqual({ slug: "berlin", total: 600, hash: "abc", records: undefined });
    expect(shard.entries.get("bonn")).toEqual({ slug: "bonn", total: 2, hash: "def", records });
  });
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
