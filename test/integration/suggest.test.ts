import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFixture, FIXTURE_BUDGET } from "../support/fixture.ts";
import { allPages, client, pagingOf, startServer, type RunningServer } from "../support/http.ts";

/**
 * Suggestions and the address check through the local server, on the small street fixture (600
 * Berlin streets and the OpenPLZ sample's localities): records, paging and formats as the
 * Streets', typos and abbreviations, an exact name first, the check's answers, and every rule for
 * bad input. Ranking and tolerance on whole datasets: test/unit/suggest-property.test.ts.
 */
let server: RunningServer;
const get = client(() => server);
let berlin: Street[];

interface Street {
  readonly name: string;
  readonly postalCode: string;
  readonly locality: string;
  readonly [key: string]: unknown;
}

beforeAll(async () => {
  // The whole fixture's build that the other suites over HTTP serve (built once for all).
  const { dir } = await buildFixture(FIXTURE_BUDGET);
  server = await startServer(dir);
  berlin = (await allPages(get, "/de/Streets?locality=Berlin")) as Street[];
}, 300_000);
afterAll(async () => server?.stop());

const q = (text: string) => encodeURIComponent(text);
const json = (text: string) => JSON.parse(text) as Street[];
/** A Berlin street of the fixture whose name is one word of at least `letters` letters, and its records. */
const streetOf = (letters: number) => {
  const street = berlin.find((s) => /^\p{L}+$/u.test(s.name) && s.name.length >= letters);
  if (street === undefined) throw new Error(`no one-word street of ${letters} letters`);
  return { street, records: berlin.filter((s) => s.name === street.name) };
};

describe("Suggestions", () => {
  it("corrects a typo and answers the Streets' records, paged with the usual headers", async () => {
    const { street, records } = streetOf(10);
    const typo = street.name.slice(0, 3) + street.name.slice(4);
    const answer = await get(`/de/Suggestions?searchTerm=${q(typo)}&pageSize=1`);
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    const [page, size, total] = pagingOf(answer);
    expect([page, size]).toEqual(["1", "1"]);
    expect(Number(total)).toBeGreaterThanOrEqual(records.length);
    expect(json(answer.text)).toEqual([records[0]]);
    const csv = await get(`/de/Suggestions?searchTerm=${q(typo)}&pageSize=1&format=csv`);
    const streetsCsv = await get(`/de/Streets?name=${q(`^${street.name}$`)}&pageSize=1&format=csv`);
    expect(csv.headers["content-type"]).toBe(streetsCsv.headers["content-type"]);
    expect(csv.text).toBe(streetsCsv.text);
  });

  it("corrects two typos among a long name's first letters (one replaced, one added)", async () => {
    const { street, records } = streetOf(10);
    const letters = street.name.toLowerCase();
    const typo = `${letters[0] === "y" ? "x" : "y"}u${letters.slice(1)}`;
    const answer = await get(`/de/Suggestions?searchTerm=${q(typo)}&pageSize=5`);
    expect(answer.status).toBe(200);
    expect(
      json(answer.text).map((s) => s.name),
      typo,
    ).toContain(records[0]?.name);
  });

  it("ranks the name typed exactly first, with its postal code narrowing it", async () => {
    const { street, records } = streetOf(6);
    const first = json((await get(`/de/Suggestions?searchTerm=${q(street.name)}`)).text)[0];
    expect(first?.name).toBe(street.name);
    const narrowed = json(
      (await get(`/de/Suggestions?searchTerm=${q(`${street.postalCode} ${street.name}`)}`)).text,
    );
    expect(narrowed[0]).toEqual(records.find((r) => r.postalCode === street.postalCode));
  });

  it("takes transliterations, abbreviations, missing spaces and a name begun", async () => {
    const street = berlin.find((s) => /straße$/.test(s.name) && /[äöü]/.test(s.name));
    if (street === undefined) throw new Error("no street with an umlaut ending in straße");
    const spelt = street.name.replace("ä", "ae").replace("ö", "oe").replace("ü", "ue");
    for (const text of [
      spelt.replace("straße", "strasse"),
      street.name.replace("straße", "str."),
      street.name.replace(/ /g, "").replace("straße", "str"),
      street.name.slice(0, 6),
    ]) {
      const names = json((await get(`/de/Suggestions?searchTerm=${q(text)}`)).text).map(
        (s) => s.name,
      );
      expect(names, text).toContain(street.name);
    }
  });

  it("answers text near no street with an empty page", async () => {
    const answer = await get(`/de/Suggestions?searchTerm=${q("Xqzvwk Jjjjj")}`);
    expect([answer.status, answer.text, ...pagingOf(answer)]).toEqual([
      200,
      "[]",
      "1",
      "50",
      "0",
      "0",
    ]);
  });

  it("answers If-None-Match with a 304 and HEAD like GET", async () => {
    const path = `/de/Suggestions?searchTerm=${q(berlin[0]?.name ?? "")}`;
    const first = await get(path);
    const again = await get(path, { "If-None-Match": first.headers["etag"] ?? "" });
    expect(again.status).toBe(304);
    const head = await get(path, {}, "HEAD");
    expect([head.status, head.headers["etag"], head.text]).toEqual([
      200,
      first.headers["etag"],
      "",
    ]);
  });

  it.each([
    ["missing", "/de/Suggestions"],
    ["blank", `/de/Suggestions?searchTerm=${q("   ")}`],
    ["too long", `/de/Suggestions?searchTerm=${"a".repeat(201)}`],
    ["a bad page size", `/de/Suggestions?searchTerm=abc&pageSize=0`],
  ])("a %s searchTerm is a 400 problem", async (_, path) => {
    const answer = await get(path);
    expect(answer.status).toBe(400);
    expect(answer.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    expect(Object.keys((JSON.parse(answer.text) as { errors: object }).errors).length).toBe(1);
  });
});

describe("AddressCheck", () => {
  const check = async (street: string, postalCode?: string, locality?: string) => {
    const params = new URLSearchParams({
      street,
      ...(postalCode === undefined ? {} : { postalCode }),
      ...(locality === undefined ? {} : { locality }),
    });
    const answer = await get(`/de/AddressCheck?${params.toString()}`);
    expect([answer.status, answer.headers["content-type"]]).toEqual([
      200,
      "application/json; charset=utf-8",
    ]);
    return JSON.parse(answer.text) as { valid: boolean; suggestions: Street[] };
  };

  it("finds an address valid, written loosely, with the exact record first", async () => {
    const { street } = streetOf(6);
    const loose = street.name.toLowerCase().replace(/straße$/, "str.");
    const answer = await check(loose, street.postalCode, ` ${street.locality.toUpperCase()} `);
    expect(answer.valid).toBe(true);
    expect(answer.suggestions[0]).toEqual(street);
  });

  it("suggests the street in its postal code, and corrects typos in the street and locality", async () => {
    const { street } = streetOf(10);
    const wrongCode = await check(street.name, "99999", street.locality);
    expect(wrongCode.valid).toBe(false);
    expect(wrongCode.suggestions[0]?.name).toBe(street.name);
    expect(wrongCode.suggestions[0]?.locality).toBe(street.locality);
    const typos = await check(
      street.name.slice(0, 4) + street.name.slice(5),
      street.postalCode,
      "Berln",
    );
    expect(typos.valid).toBe(false);
    expect(typos.suggestions[0]).toEqual(street);
  });

  it.each([
    ["no street", "/de/AddressCheck?postalCode=10117&locality=Berlin"],
    ["no postal code or locality", `/de/AddressCheck?street=${q("Pariser Platz")}`],
    ["a postal code of letters", `/de/AddressCheck?street=a&postalCode=abc`],
    ["format=csv", `/de/AddressCheck?street=a&postalCode=10117&format=csv`],
  ])("%s is a 400 problem", async (_, path) => {
    const answer = await get(path);
    expect(answer.status).toBe(400);
    expect(answer.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
  });
});
