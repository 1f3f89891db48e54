import { describe, expect, it } from "vitest";
import { assignSlugs, slugify, viewsOf } from "../../generator/build/views.ts";
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
    expect(assignSlugs(["frankfurt (oder)", "frankfurt oder", "frankfurt-oder", "frankfurt-oder-2"])).toEqual(["frankfurt-oder", "frankfurt-oder-2", "frankfurt-oder-3", "frankfurt-oder-2-2"]);
  });
});

describe("views", () => {
  const resource: Resource<{ locality: string; name: string }> = {
    id: "t",
    path: "/t",
    title: "t",
    description: "",
    query: { paged: true, filters: ["locality"], unservedFilters: [] },
    selectors: [{ param: "locality", in: "query", required: true, match: "caseInsensitive", description: "", value: (r) => r.locality }],
    sortKey: (r) => [r.name],
    record: recordSchema<{ locality: string; name: string }>("T", "", { locality: { description: "" }, name: { description: "" } }),
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
