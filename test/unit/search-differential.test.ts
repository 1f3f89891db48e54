import { describe, expect, it } from "vitest";
import { lexemesOf, streetDocument } from "../../generator/contract/postgres/lexize.ts";
import {
  classify,
  scanOracle,
  sideSizes,
  type OracleStreets,
  type WorkerAnswer,
} from "../support/search-differential.ts";
import type { ModelStreet } from "../support/model.ts";

/** The differential run's verdicts (test/support/search-differential.ts) on answers made up here. */
const answer = (status: number, body: string, headers: [string, string][] = []): WorkerAnswer => ({
  status,
  headers: [["content-type", "application/json"], ...headers],
  length: body.length,
  sha256: `sha of ${body}`,
  body,
});
const tooBroad = answer(
  400,
  JSON.stringify({ status: 400, detail: "This search matches too broadly to be answered: …" }),
);
const page = (etag: string, total = "3") =>
  answer(200, "[]", [
    ["etag", etag],
    ["x-total-count", total],
  ]);
const request = (path: string) => ({ mix: "m", class: "c", path });

describe("classify", () => {
  it.each([
    [
      "the same bytes",
      page('"aaaaaaaa11111111.50.1.json"'),
      page('"aaaaaaaa11111111.50.1.json"'),
      "identical",
    ],
    [
      "an ETag differing in its build part only",
      page('"aaaaaaaa11111111.50.1.json"'),
      page('"bbbbbbbb11111111.50.1.json"'),
      "identical",
    ],
    [
      "an ETag differing in its question",
      page('"aaaaaaaa11111111.50.1.json"'),
      page('"aaaaaaaa22222222.50.1.json"'),
      "failure",
    ],
    [
      "another count",
      page('"aaaaaaaa11111111.50.1.json"', "3"),
      page('"aaaaaaaa11111111.50.1.json"', "4"),
      "failure",
    ],
    ["another body", answer(200, "[1]"), answer(200, "[2]"), "failure"],
    ["a refusal answered", tooBroad, page('"aaaaaaaa11111111.50.1.json"'), "moved"],
    [
      "a syntax 400 answered",
      answer(400, '{"detail":"bad pattern"}'),
      page('"aaaaaaaa11111111.50.1.json"'),
      "failure",
    ],
    ["an answer refused", page('"aaaaaaaa11111111.50.1.json"'), tooBroad, "regression"],
    [
      "a refusal reworded",
      tooBroad,
      answer(400, '{"detail":"This search matches too broadly to be answered. Narrow it"}'),
      "failure",
    ],
    ["a 500", page('"aaaaaaaa11111111.50.1.json"'), answer(500, "{}"), "failure"],
  ] as const)("%s: %s", (_, old, now, verdict) => {
    expect(classify([request("/de/Streets?name=a")], [old], [now])[0]?.verdict).toBe(verdict);
  });

  it("takes an ETag's build part as a build hash only while it maps one to one", () => {
    const olds = [
      page('"aaaaaaaa11111111.50.1.json"'),
      page('"aaaaaaaa22222222.50.1.json"'),
      page('"cccccccc33333333.50.1.json"'),
    ];
    const nows = [
      page('"bbbbbbbb11111111.50.1.json"'),
      page('"bbbbbbbb22222222.50.1.json"'),
      page('"bbbbbbbb33333333.50.1.json"'),
    ];
    const verdicts = classify(
      olds.map((_, i) => request(`/de/Streets?name=${i}`)),
      olds,
      nows,
    );
    expect(verdicts.map((r) => r.verdict)).toEqual(["identical", "identical", "failure"]);
    expect(verdicts[2]?.why).toMatch(/cccccccc → bbbbbbbb/);
  });
});

describe("the plain-scan oracle of moved boundaries", () => {
  const street = (name: string, postalCode: string, locality: string): ModelStreet => ({
    name,
    postalCode,
    locality,
    regionalKey: "11000000",
    borough: "",
    suburb: "",
  });
  const [zeppelin, ahornBerlin, ahornMunich, linden] = [
    street("Zeppelinstraße", "10115", "Berlin"),
    street("Ahornallee", "10115", "Berlin"),
    street("Ahornallee", "80331", "München"),
    street("Lindenallee", "14050", "Berlin"),
  ];
  const streets = [zeppelin, ahornBerlin, ahornMunich, linden];
  const oracle: OracleStreets = {
    streets,
    doc: (i) => {
      const s = streets[i] as ModelStreet;
      return lexemesOf(streetDocument(s.name, s.postalCode, s.locality));
    },
  };
  const body = (rows: ModelStreet[]) =>
    answer(
      200,
      JSON.stringify(
        rows.map(({ name, postalCode, locality }) => ({ name, postalCode, locality })),
      ),
      [["x-total-count", String(rows.length)]],
    );

  it.each([
    ["/de/Streets?name=allee&locality=Berlin", [ahornBerlin, linden], undefined],
    [
      "/de/Streets?name=allee&locality=Berlin&page=2&pageSize=1",
      [linden],
      /x-total-count 1, a plain scan counts 2/,
    ],
    ["/de/Streets?name=allee&locality=Berlin", [linden, ahornBerlin], /page differs/],
    ["/de/FullTextSearch?searchTerm=ahornallee", [ahornBerlin, ahornMunich], undefined],
    ["/de/FullTextSearch?searchTerm=ahornallee", [ahornMunich, ahornBerlin], /page differs/],
    ["/de/Localities?name=a", [], /no oracle/],
  ] as const)("%s", (path, rows, expected) => {
    const why = scanOracle(oracle)(request(path), body([...rows]));
    if (expected === undefined) expect(why).toBeUndefined();
    else expect(why).toMatch(expected);
  });

  it("sizes each side of a Streets request", () => {
    expect(sideSizes(oracle, "/de/Streets?name=allee&locality=Berlin&postalCode=101")).toEqual({
      name: 3,
      place: 2,
    });
    expect(sideSizes(oracle, "/de/Streets?postalCode=%5E8")).toEqual({ place: 1 });
    expect(sideSizes(oracle, "/de/FullTextSearch?searchTerm=a")).toBeUndefined();
  });
});
