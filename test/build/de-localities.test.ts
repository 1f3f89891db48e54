import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { allRecords, ask, embeddedBuild, type Handler } from "../support/memory-build.ts";
import { dataFile } from "../support/paths.ts";

/** /de/Localities against its two sources: the street list where it has a postal code, Open Postal Codes elsewhere. */
const postCodes = readFileSync(dataFile("de/post_code.csv"), "utf8")
  .split(/\r?\n/)
  .slice(1)
  .filter((l) => l !== "")
  .map((l) => l.split(","));
const streetCodes = new Set(
  readFileSync(dataFile("de/streets-berlin.csv"), "utf8")
    .split(/\r?\n/)
    .slice(1)
    .filter((l) => l !== "")
    .map((l) => /,(\d{5}),/.exec(l)?.[1] ?? ""),
);

let handler: Handler;
let all: Record<string, unknown>[];
beforeAll(async () => {
  ({ handler } = await embeddedBuild());
  all = await allRecords(handler, "/de/Localities?postalCode=.");
});

const code = (r: Record<string, unknown>) => String(r["postalCode"]);

describe("German localities", () => {
  it("take Berlin's postal codes from the street list, with the municipality's key", () => {
    const state = (r: Record<string, unknown>) => (r["federalState"] as { key: string }).key;
    const berlin = all.filter((r) => streetCodes.has(code(r)) && state(r) === "11");
    expect(new Set(berlin.map(code))).toEqual(streetCodes);
    expect(
      berlin.every(
        (r) => r["name"] === "Berlin" && (r["municipality"] as { key: string }).key === "11000000",
      ),
    ).toBe(true);
    // A postal code Berlin shares keeps the towns of Brandenburg beside Berlin.
    expect(
      all
        .filter((r) => streetCodes.has(code(r)) && state(r) !== "11")
        .every((r) => state(r) === "12"),
    ).toBe(true);
  });

  it("cover at least 95% of Open Postal Codes' other postal codes, and no postal code the sources do not have", () => {
    const others = new Set(postCodes.map((r) => r[0] ?? "").filter((c) => !streetCodes.has(c)));
    const served = new Set(all.map(code));
    expect([...served].filter((c) => !others.has(c) && !streetCodes.has(c))).toEqual([]);
    expect([...others].filter((c) => served.has(c)).length / others.size).toBeGreaterThan(0.95);
  });

  it("are ordered by postal code, then name", () => {
    const codes = all.map(code);
    expect(codes).toEqual([...codes].sort());
    expect(all.length).toBeGreaterThan(8_000);
  });

  const name = (r: Record<string, unknown>) => String(r["name"]);
  it.each([
    ["postalCode=%5E01920%24", (r: Record<string, unknown>) => code(r) === "01920"],
    ["postalCode=1011", (r: Record<string, unknown>) => code(r).includes("1011")],
    ["postalCode=%5E8033", (r: Record<string, unknown>) => code(r).startsWith("8033")],
    ["name=%5EDRESDEN%24", (r: Record<string, unknown>) => name(r) === "Dresden"],
    ["name=Frankfurt", (r: Record<string, unknown>) => name(r).includes("Frankfurt")],
    ["name=berl", (r: Record<string, unknown>) => name(r).toLowerCase().includes("berl")],
    ["name=%5EBerlin%24", (r: Record<string, unknown>) => name(r) === "Berlin"],
    ["name=(Berlin%7CHamburg)", (r: Record<string, unknown>) => /Berlin|Hamburg/i.test(name(r))],
    [
      "name=%5Em%C3%BCnchen%24&postalCode=%5E80331%24",
      (r: Record<string, unknown>) => name(r) === "München" && code(r) === "80331",
    ],
  ])(
    "?%s selects exactly the matching localities, in order (regular expressions found anywhere; name ignoring case)",
    async (query, matches) => {
      const selected = await allRecords(handler, `/de/Localities?${query}`);
      expect(selected.length).toBeGreaterThan(0);
      expect(selected).toEqual(all.filter(matches));
    },
  );

  it("finds both Frankfurts with name=Frankfurt", async () => {
    expect(new Set((await allRecords(handler, "/de/Localities?name=Frankfurt")).map(name))).toEqual(
      new Set(["Frankfurt am Main", "Frankfurt (Oder)"]),
    );
  });

  it.each(["postalCode=%2001920", "name=%5EDresd%24", "postalCode=01067&name=Berlin"])(
    "?%s selects nothing: 200 [] with zero totals",
    async (query) => {
      const answer = await ask(handler, `/de/Localities?${query}`);
      expect([
        answer.status,
        answer.text,
        answer.headers["x-total-count"],
        answer.headers["x-total-pages"],
      ]).toEqual([200, "[]", "0", "0"]);
    },
  );

  it.each([
    ["", "postalCode", "No postal code or name given."],
    ["plz=10117", "name", "No postal code or name given."],
    ["name=&postalCode=", "postalCode", "No postal code or name given."],
    ["name=(a)%5C1", "name", "back-reference"],
    ["name=Berlin&postalCode=(%3F%3D1)", "postalCode", "lookahead"],
    ["name=(Berlin", "name", "not a valid regular expression"],
  ])("?%s is a 400 problem naming %s", async (query, parameter, text) => {
    const answer = await ask(handler, `/de/Localities?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.headers["content-type"]).toContain("application/problem+json");
    const problem = JSON.parse(answer.text) as { detail: string; errors: Record<string, string[]> };
    expect(problem.detail).toContain(text);
    expect(problem.errors[parameter]?.[0]).toContain(text);
  });
});
