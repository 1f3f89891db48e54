import { describe, expect, it } from "vitest";
import { parseQuery, pathParameterErrors, type QuerySpec } from "../../generator/contract/query.ts";

const streets: QuerySpec = {
  paged: true,
  filters: ["locality"],
  unservedFilters: ["name", "postalCode"],
};
const list: QuerySpec = { paged: false, filters: [], unservedFilters: [] };

type Expected =
  { page: number; pageSize: number; format?: string; locality?: string } | { errors: string[] };

const cases: [query: string, expected: Expected][] = [
  ["", { page: 1, pageSize: 50 }],
  ["page=1&pageSize=50", { page: 1, pageSize: 50 }],
  ["page=2&pageSize=10", { page: 2, pageSize: 10 }],
  ["PAGE=3&pagesize=7", { page: 3, pageSize: 7 }],
  ["page=2147483647", { page: 2147483647, pageSize: 50 }],
  ["page=007", { page: 7, pageSize: 50 }],
  ["page=&pageSize=", { page: 1, pageSize: 50 }],
  ["pageSize=1", { page: 1, pageSize: 1 }],
  ["locality=Berlin", { page: 1, pageSize: 50, locality: "Berlin" }],
  ["locality=", { page: 1, pageSize: 50 }],
  ["format=csv", { page: 1, pageSize: 50, format: "csv" }],
  ["format=JSON", { page: 1, pageSize: 50, format: "json" }],
  ["utm_source=x&_=123", { page: 1, pageSize: 50 }],
  ["pageSize=51", { errors: ["pageSize"] }],
  ["pageSize=0", { errors: ["pageSize"] }],
  ["pageSize=-1", { errors: ["pageSize"] }],
  ["pageSize=abc", { errors: ["pageSize"] }],
  ["pageSize=1.5", { errors: ["pageSize"] }],
  ["pageSize=10e1", { errors: ["pageSize"] }],
  ["pageSize=+5", { errors: ["pageSize"] }],
  ["pageSize=%205", { errors: ["pageSize"] }],
  ["pageSize=0x10", { errors: ["pageSize"] }],
  ["page=0", { errors: ["page"] }],
  ["page=2147483648", { errors: ["page"] }],
  ["page=99999999999999999999999", { errors: ["page"] }],
  ["page=1&page=2", { errors: ["page"] }],
  ["page=1&Page=1", { errors: ["page"] }],
  ["locality=a&locality=b", { errors: ["locality"] }],
  ["name=Haupt", { errors: ["name"] }],
  ["postalCode=10117&locality=Berlin", { errors: ["postalCode"] }],
  ["format=xml", { errors: ["format"] }],
  ["page=0&pageSize=99", { errors: ["page", "pageSize"] }],
  [`locality=${"x".repeat(200)}`, { page: 1, pageSize: 50, locality: "x".repeat(200) }],
  [`locality=${"x".repeat(201)}`, { errors: ["locality"] }],
  [`locality=${"x".repeat(32_767)}`, { errors: ["locality"] }],
  [`name=${"x".repeat(201)}`, { errors: ["name"] }],
  [`page=${"0".repeat(19)}2`, { page: 2, pageSize: 50 }],
  [`page=${"0".repeat(20)}2`, { errors: ["page"] }],
  [`pageSize=${"0".repeat(20)}2`, { errors: ["pageSize"] }],
  [`format=${"x".repeat(201)}`, { errors: ["format"] }],
];

describe("parseQuery on a paged resource", () => {
  it.each(cases)("%s", (query, expected) => {
    const result = parseQuery(new URLSearchParams(query), streets);
    if ("errors" in expected) {
      expect(result.ok).toBe(false);
      if (!result.ok)
        expect(Object.keys(result.errors).sort()).toEqual([...expected.errors].sort());
      return;
    }
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.query.page).toBe(expected.page);
    expect(result.query.pageSize).toBe(expected.pageSize);
    expect(result.query.format).toBe(expected.format);
    expect(result.query.filters.get("locality")).toBe(expected.locality);
  });

  it("words errors as the original does", () => {
    const result = parseQuery(new URLSearchParams("pageSize=99"), streets);
    expect(result).toEqual({
      ok: false,
      errors: { pageSize: ["The field pageSize must be between 1 and 50."] },
    });
  });
});

describe("parseQuery on hostile query strings", () => {
  it("lists each distinct message once, however often the request repeats its cause", () => {
    const repeated = new URLSearchParams([
      ...Array<[string, string]>(9_000).fill(["page", "1"]),
      ...Array<[string, string]>(50).fill(["locality", "y".repeat(300)]),
    ]);
    expect(parseQuery(repeated, streets)).toEqual({
      ok: false,
      errors: {
        page: ["The parameter 'page' must not be given more than once."],
        locality: [
          "The value of locality is longer than 200 characters, the most it takes.",
          "The parameter 'locality' must not be given more than once.",
        ],
      },
    });
  });

  it("never quotes a value over its limit", () => {
    const result = parseQuery(
      new URLSearchParams({ format: "q".repeat(5_000), page: "7".repeat(5_000) }),
      streets,
    );
    expect(JSON.stringify(result)).not.toContain("qqq");
    expect(JSON.stringify(result)).not.toContain("777");
  });
});

describe("parseQuery on an unpaged list", () => {
  it.each(["page=0", "pageSize=999", "page=abc&page=2"])(
    "ignores paging parameters: %s",
    (query) => {
      expect(parseQuery(new URLSearchParams(query), list).ok).toBe(true);
    },
  );
});

describe("pathParameterErrors", () => {
  it.each([
    [{ key: "01" }, {}],
    [{ key: "k".repeat(200) }, {}],
    [{ key: "😀".repeat(200) }, {}],
    [
      { key: "k".repeat(201) },
      { key: ["The value of key is longer than 200 characters, the most it takes."] },
    ],
    [
      { key: "k".repeat(100_000), other: "v" },
      { key: ["The value of key is longer than 200 characters, the most it takes."] },
    ],
  ])("%#", (params, errors) => {
    expect(pathParameterErrors(new Map(Object.entries(params)))).toEqual(errors);
  });
});
