import { describe, expect, it } from "vitest";
import { encodeRecords, jsonRecordsOf } from "../../generator/build/encode.ts";
import { assignSlugs, slugify } from "../../generator/build/slugs.ts";
import { prepare, viewsOf } from "../../generator/build/views.ts";
import type { Resource } from "../../generator/resources/resource.ts";
import { recordSchema } from "../../generator/resources/schema.ts";

describe("slugs", () => {
  it.each([
    ["berlin", "berlin"],
    ["frankfurt (oder)", "frankfurt-oder"],
    ["mühlheim a.d. donau", "muehlheim-a-d-donau"],
    ["großenbrode", "grossenbrode"],
    ["châtillon (fr)", "chatillon-fr"],
    ["!!!", "x"],
  ])("%s → %s", (value, slug) => {
    expect(slugify(value)).toBe(slug);
  });

  it("gives values that fold to the same slug distinct, deterministic paths", () => {
    expect(
      assignSlugs(["frankfurt (oder)", "frankfurt oder", "frankfurt-oder", "frankfurt-oder-2"]),
    ).toEqual(["frankfurt-oder", "frankfurt-oder-2", "frankfurt-oder-3", "frankfurt-oder-2-2"]);
  });
});

describe("views", () => {
  const resource: Resource<{ locality: string; name: string }> = {
    id: "t",
    path: "/t",
    title: "t",
    description: "",
    query: { paged: true, filters: ["locality"], unservedFilters: [] },
    selectors: [
      {
        param: "locality",
        in: "query",
        required: true,
        match: "caseInsensitive",
        description: "",
        value: (r) => r.locality,
      },
    ],
    sortKey: (r) => [r.name],
    record: recordSchema<{ locality: string; name: string }>("T", "", {
      locality: { description: "" },
      name: { description: "" },
    }),
    examples: [],
    credits: [],
  };

  it("group case and Unicode variants of a name into one locality, in record order", () => {
    const views = viewsOf(resource, [
      { locality: "Lünen", name: "b" },
      { locality: "LÜNEN", name: "a" },
      { locality: "Lu\u0308nen ", name: "c" },
      { locality: "Berlin", name: "z" },
    ]);
    expect(views.map((v) => [v.key, v.slug, v.records.map((r) => r.name).join("")])).toEqual([
      ["berlin", "berlin", "z"],
      ["lünen", "luenen", "abc"],
    ]);
  });
});

describe("a selector with several values per record (a parent matched by key or code)", () => {
  interface M {
    name: string;
    key: string;
    code: string;
  }
  const resource: Resource<M> = {
    id: "m",
    path: "/at/Districts/{key}/Municipalities",
    title: "m",
    description: "",
    query: { paged: true, filters: [], unservedFilters: [] },
    selectors: [
      {
        param: "key",
        in: "path",
        required: true,
        match: "exact",
        description: "",
        value: (r) => [r.key, r.code],
      },
    ],
    sortKey: (r) => [r.name],
    record: recordSchema<M>("M", "", {
      name: { description: "" },
      key: { description: "" },
      code: { description: "" },
    }),
    examples: [],
    credits: [],
  };
  // Vienna: one key (900) for 23 district codes; elsewhere key and code are the same.
  const records: M[] = [
    { name: "Wien 2", key: "900", code: "902" },
    { name: "Wien 1", key: "900", code: "901" },
    { name: "Bregenz", key: "802", code: "802" },
    { name: "Hard", key: "802", code: "802" },
  ];

  it("puts a record in the view of each of its values, once where they are equal", () => {
    const views = viewsOf(resource, records);
    expect(views.map((v) => [v.key, v.records.map((r) => r.name)])).toEqual([
      ["802", ["Bregenz", "Hard"]],
      ["900", ["Wien 1", "Wien 2"]],
      ["901", ["Wien 1"]],
      ["902", ["Wien 2"]],
    ]);
  });

  it("adds each record to the whole dataset once, from the view of its own (first) value", () => {
    const prepared = prepare(resource, records);
    const dataset = prepared.views.flatMap((view) =>
      jsonRecordsOf(view.datasetPart() ?? encodeRecords({ json: [], csv: [] })),
    );
    expect(dataset.map((json) => (JSON.parse(json) as M).name)).toEqual([
      "Bregenz",
      "Hard",
      "Wien 1",
      "Wien 2",
    ]);
    expect(prepared.views.find((v) => v.key === "901")?.datasetPart()?.count).toBe(0);
    expect(prepared.views.map((v) => v.datasetCount)).toEqual([2, 2, 0, 0]);
  });

  it("leaves a record without a value out of every view", () => {
    const [selector] = resource.selectors ?? [];
    if (selector === undefined) throw new Error("no selector");
    const optional: Resource<M> = {
      ...resource,
      selectors: [{ ...selector, value: (r) => (r.key === "900" ? undefined : [r.key]) }],
    };
    expect(viewsOf(optional, records).map((v) => v.key)).toEqual(["802"]);
  });

  // Ties (equal sort keys) keep the records' order, as a stable sort leaves them.
  const more: M[] = [
    ...records,
    { name: "Hard", key: "802", code: "803" },
    { name: "Wien 1", key: "900", code: "901" },
    { name: "Au", key: "802", code: "802" },
  ];
  const stableOrder = (list: readonly M[]) =>
    list
      .map((_, i) => i)
      .sort((a, b) => {
        const [x = "", y = ""] = [list[a]?.name, list[b]?.name];
        return x < y ? -1 : x > y ? 1 : a - b;
      });

  it.each<[string, readonly M[]]>([
    ["no records", []],
    ["one record", records.slice(0, 1)],
    ["records of several values", records],
    ["records with ties", more],
  ])("taken in a given order (%s): the views a sort of each gives", (_, list) => {
    const given = viewsOf(resource, list, stableOrder(list));
    const sorted = viewsOf(resource, list);
    const shape = (views: typeof given) =>
      views.map((v) => [v.key, v.slug, v.values, v.records, [...v.secondary]]);
    expect(shape(given)).toEqual(shape(sorted));
    for (const [i, view] of given.entries())
      view.records.forEach((record, j) => expect(record).toBe(sorted[i]?.records[j]));
  });

  it("refuses an order that is not of the records", () => {
    expect(() => viewsOf(resource, records, [0, 1])).toThrow(/2 sorted of 4 records/);
  });
});
