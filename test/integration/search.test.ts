import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lexemesOf, streetDocument } from "../../generator/contract/postgres/lexize.ts";
import { buildFixture } from "../support/fixture.ts";
import { allPages, client, pagingOf, startServer, type RunningServer } from "../support/http.ts";
import { dataFile } from "../support/paths.ts";

/**
 * Street search through wrangler dev (workerd), on a build of the embedded Berlin streets and the
 * Austrian sample without the Swiss street directory: FullTextSearch, search as you type, the
 * Streets filters, and every rule for bad input. The answers' sets and order are checked against
 * a scan for thousands of generated queries in test/unit/search-index.test.ts.
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
  const { dir } = await buildFixture(20_000, dataFile("de/streets-berlin.csv"), {
    only: ["de.streets", "at.streets", "de.federalstates"],
    swissStreets: false,
  });
  server = await startServer(dir);
  berlin = (await allPages(get, "/de/Streets?locality=Berlin")) as Street[];
});
afterAll(async () => server?.stop());

const PARISER_PLATZ = {
  name: "Pariser Platz",
  postalCode: "10117",
  locality: "Berlin",
  borough: "Mitte",
  suburb: "Mitte",
  municipality: { key: "11000000", name: "Berlin, Stadt", type: "Kreisfreie Stadt" },
  federalState: { key: "11", name: "Berlin" },
};

const q = (text: string) => encodeURIComponent(text);
const json = (text: string) => JSON.parse(text) as Street[];

describe("FullTextSearch", () => {
  it("finds Pariser Platz 10117 with its municipality and federal state", async () => {
    const answer = await get(`/de/FullTextSearch?searchTerm=${q("Berlin Pariser Platz")}`);
    expect([answer.status, ...pagingOf(answer)]).toEqual([200, "1", "50", "1", "1"]);
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(answer.headers["access-control-allow-origin"]).toBe("*");
    expect(json(answer.text)).toEqual([PARISER_PLATZ]);
  });

  it("pages through every Berlin street with the word Platz, in the Streets order", async () => {
    const expected = berlin.filter((s) =>
      lexemesOf(streetDocument(s.name, s.postalCode, s.locality)).has("platz"),
    );
    expect(expected.length).toBeGreaterThan(100);
    const first = await get(`/de/FullTextSearch?searchTerm=${q("Berlin Platz")}&pageSize=10`);
    expect(pagingOf(first)).toEqual([
      "1",
      "10",
      String(expected.length),
      String(Math.ceil(expected.length / 10)),
    ]);
    const pages: Street[] = [];
    for (let page = 1; page <= Math.ceil(expected.length / 10); page++)
      pages.push(
        ...json(
          (await get(`/de/FullTextSearch?searchTerm=${q("Berlin Platz")}&pageSize=10&page=${page}`))
            .text,
        ),
      );
    expect(pages).toEqual(expected);
    const past = await get(
      `/de/FullTextSearch?searchTerm=${q("Berlin Platz")}&pageSize=10&page=${Math.ceil(expected.length / 10) + 1}`,
    );
    expect([past.status, past.text, past.headers["x-total-count"]]).toEqual([
      200,
      "[]",
      String(expected.length),
    ]);
  });

  it("normalises as the original: case, accents, stems; phrases, or and -word", async () => {
    const names = async (term: string) =>
      json((await get(`/de/FullTextSearch?searchTerm=${q(term)}`)).text).map(
        (s) => `${s.name} ${s.postalCode}`,
      );
    expect(await names("PARISER platz")).toEqual(["Pariser Platz 10117"]);
    expect(await names("pariser plätze")).toEqual(["Pariser Platz 10117"]);
    expect(await names('"Platz Pariser"')).toEqual([]);
    expect(await names("Pariser Platz -10117")).toEqual([]);
    expect(await names("pariser platz or 10117 wilhelmstrasse")).toEqual(
      expect.arrayContaining(["Pariser Platz 10117", "Wilhelmstraße 10117"]),
    );
  });

  it("completes the last word with lastWordPrefix=true (at least two characters), and only then", async () => {
    const names = async (query: string) =>
      json((await get(`/de/FullTextSearch?${query}`)).text).map((s) => s.name);
    expect(await names(`searchTerm=${q("berlin pariser pl")}&lastWordPrefix=true`)).toEqual([
      "Pariser Platz",
    ]);
    expect(await names(`searchTerm=${q("berlin pariser pl")}`)).toEqual([]);
    expect(await names(`searchTerm=${q("10117 pariser p")}&lastWordPrefix=true`)).toEqual([]);
    expect(await names(`searchTerm=${q("pariser pla")}&lastwordprefix=TRUE`)).toEqual([
      "Pariser Platz",
    ]);
  });

  it("answers CSV with the Streets header, and ETag revalidation with 304", async () => {
    const csv = await get(`/de/FullTextSearch?searchTerm=${q("Berlin Pariser Platz")}&format=csv`);
    const streets = await get("/de/Streets?locality=Berlin&pageSize=1&format=csv");
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.text.split("\r\n")[0]).toBe(streets.text.split("\r\n")[0]);
    expect(csv.text).toBe(
      `${streets.text.split("\r\n")[0]}\r\nPariser Platz,10117,Berlin,Mitte,Mitte,11000000,"Berlin, Stadt",Kreisfreie Stadt,,,,11,Berlin\r\n`,
    );
    const etag = csv.headers["etag"] ?? "";
    expect(etag).toMatch(/^"/);
    const again = await get(
      `/de/FullTextSearch?searchTerm=${q("Berlin Pariser Platz")}&format=csv`,
      { "If-None-Match": etag },
    );
    expect(again.status).toBe(304);
    const other = await get(`/de/FullTextSearch?searchTerm=${q("Berlin Platz")}&format=csv`);
    expect(other.headers["etag"]).not.toBe(etag);
  });

  it("treats Unicode in NFD and percent-encoded characters as the same words", async () => {
    const nfc = await get(`/de/FullTextSearch?searchTerm=${q("Müllerstraße Berlin")}`);
    const nfd = await get(
      `/de/FullTextSearch?searchTerm=${q("Müllerstraße Berlin".normalize("NFD"))}`,
    );
    expect(json(nfc.text).length).toBeGreaterThan(0);
    expect(nfd.text).toBe(nfc.text);
    const plus = await get("/de/FullTextSearch?searchTerm=Berlin+Pariser+Platz");
    expect(json(plus.text)).toEqual([PARISER_PLATZ]);
    const odd = await get("/de/FullTextSearch?searchTerm=%25%26%3D%2B%23");
    expect([odd.status, odd.text, odd.headers["x-total-count"]]).toEqual([200, "[]", "0"]);
    const broken = await get("/de/FullTextSearch?searchTerm=%ZZ%E0%A4");
    expect(broken.status).toBe(200);
  });

  it("finds nothing for a term of stop words only (as the original)", async () => {
    const answer = await get(`/de/FullTextSearch?searchTerm=${q("der die das am weg")}`);
    expect([answer.status, answer.text, ...pagingOf(answer)]).toEqual([
      200,
      "[]",
      "1",
      "50",
      "0",
      "0",
    ]);
  });

  it.each([
    ["missing", "/de/FullTextSearch", "searchTerm"],
    ["empty", "/de/FullTextSearch?searchTerm=", "searchTerm"],
    ["blank", "/de/FullTextSearch?searchTerm=%20%09%E2%80%83", "searchTerm"],
    [
      "1,000 characters",
      `/de/FullTextSearch?searchTerm=${q("Berlin Platz ".repeat(77).slice(0, 1000))}`,
      "searchTerm",
    ],
    ["with U+0000", "/de/FullTextSearch?searchTerm=Pariser%00Platz", "searchTerm"],
    ["given twice", "/de/FullTextSearch?searchTerm=a&searchTerm=b", "searchTerm"],
    [
      "a prefix switch that is not true or false",
      "/de/FullTextSearch?searchTerm=berlin&lastWordPrefix=yes",
      "lastWordPrefix",
    ],
  ])("a %s searchTerm is a 400 problem naming the parameter", async (_, path, parameter) => {
    const answer = await get(path);
    expect(answer.status).toBe(400);
    expect(answer.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    expect(
      Object.keys((JSON.parse(answer.text) as { errors: Record<string, unknown> }).errors),
    ).toEqual([parameter]);
  });

  it("is served for Austria, and said not to be for Switzerland without its street directory", async () => {
    const at = await get(`/at/FullTextSearch?searchTerm=${q("6900 Bregenz Achgasse")}`);
    expect(json(at.text).map((s) => [s["key"], s.name, s.postalCode])).toEqual([
      ["042417", "Achgasse", "6900"],
    ]);
    const ch = await get(`/ch/FullTextSearch?searchTerm=${q("Zürich")}`);
    expect(ch.status).toBe(404);
    expect((JSON.parse(ch.text) as { detail: string }).detail).toMatch(
      /^This build does not serve \/ch\/FullTextSearch: there is no street data/,
    );
  });
});

describe("the Streets filters", () => {
  const names = async (query: string) => json((await get(`/de/Streets?${query}`)).text);

  it("postalCode=10117&name=pariser is Pariser Platz, as the original's regular expressions select it", async () => {
    expect(await names("postalCode=10117&name=pariser")).toEqual([PARISER_PLATZ]);
  });

  it("name=^Unter den: every street whose name starts so, ignoring case, in order", async () => {
    const expected = berlin.filter((s) => s.name.toLowerCase().startsWith("unter den"));
    expect(expected.length).toBeGreaterThan(3);
    expect(await names(`name=${q("^Unter den")}`)).toEqual(expected);
    expect(await names(`name=${q("^unter DEN")}`)).toEqual(expected);
  });

  it("postalCode finds substrings and prefixes, name and locality substrings and $ anchors", async () => {
    const byPostalCode = (test: (code: string) => boolean) =>
      berlin.filter((s) => test(s.postalCode));
    const all = async (query: string) => (await allPages(get, `/de/Streets?${query}`)) as Street[];
    expect(await all("postalCode=1011")).toEqual(byPostalCode((c) => c.includes("1011")));
    expect(await all("postalCode=%5E101")).toEqual(byPostalCode((c) => c.startsWith("101")));
    expect(await all(`name=${q("damm$")}&postalCode=${q("^12")}`)).toEqual(
      berlin.filter((s) => s.name.toLowerCase().endsWith("damm") && s.postalCode.startsWith("12")),
    );
    // One character: deep pages are a select over the place bitmaps, early ones a record-table scan.
    expect(await all("postalCode=3&pageSize=40")).toEqual(byPostalCode((c) => c.includes("3")));
    expect(await all("postalCode=3&locality=B&pageSize=40")).toEqual(
      byPostalCode((c) => c.includes("3")),
    );
    expect(await all(`locality=${q("erli")}&name=${q("str\\.")}`)).toEqual(
      berlin.filter((s) => s.name.toLowerCase().includes("str.")),
    );
  });

  it("a locality that names one is its view, exactly as before search", async () => {
    const view = await get("/de/Streets?locality=Berlin&pageSize=7&page=3");
    const spelled = await get(`/de/Streets?locality=${q(" BERLIN ")}&pageSize=7&page=3`);
    expect(spelled.text).toBe(view.text);
    expect(json(view.text)).toEqual(berlin.slice(14, 21));
    expect(pagingOf(view)).toEqual([
      "3",
      "7",
      String(berlin.length),
      String(Math.ceil(berlin.length / 7)),
    ]);
  });

  it.each([
    [
      "no filter",
      "/de/Streets",
      ["locality", "name", "postalCode"],
      /^No name, postal code or locality given\.$/,
    ],
    [
      "empty filters",
      "/de/Streets?name=&postalCode=&locality=",
      ["locality", "name", "postalCode"],
      /^No name, postal code or locality given\.$/,
    ],
    ["lookahead in name", `/de/Streets?name=${q("Haupt(?=str)")}`, ["name"], /uses lookahead/],
    [
      "a back-reference in postalCode",
      `/de/Streets?postalCode=${q("(1)\\1")}&name=platz`,
      ["postalCode"],
      /postalCode uses the back-reference/,
    ],
    [
      "an unmatched parenthesis in locality",
      `/de/Streets?locality=${q("Ber(lin")}`,
      ["locality"],
      /locality is not a valid regular expression: unmatched '\('/,
    ],
    [
      "a name pattern without letters in a row",
      `/de/Streets?name=${q("\\d")}`,
      ["name"],
      /name matches too many street names to be checked.*To narrow it, give it three or more letters in a row/,
    ],
  ])("%s is a 400 problem naming the parameter", async (_, path, parameters, detail) => {
    const answer = await get(path);
    expect(answer.status).toBe(400);
    expect(answer.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    const problem = JSON.parse(answer.text) as { detail: string; errors: Record<string, string[]> };
    expect(Object.keys(problem.errors).sort()).toEqual(parameters);
    expect(problem.detail).toMatch(detail);
  });

  it.each<[string, string, (s: Street) => boolean]>([
    [
      "the maintainer's form, name=Schützenstr.&locality=Berlin",
      `name=${q("Schützenstr.")}&locality=Berlin`,
      (s) => /schützenstr./i.test(s.name) && /berlin/i.test(s.locality),
    ],
    ["a class, name=[ck]arl", `name=${q("[ck]arl")}`, (s) => /[ck]arl/i.test(s.name)],
    [
      "an alternation, name=Haupt(str|weg)",
      `name=${q("Haupt(str|weg)")}`,
      (s) => /haupt(str|weg)/i.test(s.name),
    ],
    [
      "any run of characters, name=^Am .*see$",
      `name=${q("^Am .*see$")}`,
      (s) => /^am .*see$/i.test(s.name),
    ],
    [
      "an optional character beside a postal-code pattern, name=straße?$&postalCode=^10(1|4)",
      `name=${q("straße?$")}&postalCode=${q("^10(1|4)")}`,
      (s) => /straße?$/i.test(s.name) && /^10(1|4)/.test(s.postalCode),
    ],
    [
      "a locality pattern, locality=B.rlin&name=pariser",
      `locality=${q("B.rlin")}&name=pariser`,
      (s) => /pariser/i.test(s.name),
    ],
  ])(
    "%s: every street the original's regular expressions select, in order",
    async (_, query, test) => {
      const expected = berlin.filter(test);
      expect(expected.length).toBeGreaterThan(0);
      expect(await allPages(get, `/de/Streets?${query}`)).toEqual(expected);
    },
  );

  it.each<[string, (s: Street) => boolean]>([
    ["name=straße", (s) => /straße/i.test(s.name)],
    ["name=STRA", (s) => /stra/i.test(s.name)],
    ["name=^straße", (s) => /^straße/i.test(s.name)],
    ["name=traße&postalCode=101", (s) => /traße/i.test(s.name) && s.postalCode.includes("101")],
  ])(
    "%s, a literal in so many names that it has a list of its own: every street, in order",
    async (query, test) => {
      const expected = berlin.filter(test);
      expect(expected.length).toBeGreaterThan(0);
      const encoded = query.replace(/(?<==)[^&]+/g, (value) => q(value));
      expect(await allPages(get, `/de/Streets?${encoded}`)).toEqual(expected);
    },
  );

  it.each([
    `name=${q(".*")}`,
    `postalCode=${q("[0-9]{5}")}`,
    `name=.&postalCode=${q("^\\d+$")}`,
    `name=${q("^")}`,
    `locality=${q("$")}`,
  ])(
    "%s matches every value of its columns: the unfiltered list, as the original's",
    async (query) => {
      const [first, deep] = [
        await get(`/de/Streets?${query}&pageSize=50`),
        await get(`/de/Streets?${query}&pageSize=50&page=3`),
      ];
      expect([first.status, first.headers["x-total-count"]]).toEqual([200, String(berlin.length)]);
      expect(json(first.text)).toEqual(berlin.slice(0, 50));
      expect(json(deep.text)).toEqual(berlin.slice(100, 150));
    },
  );

  it("name=Schützenstr.&locality=Bad Oldesloe is an empty answer, not a refusal", async () => {
    const answer = await get(`/de/Streets?name=${q("Schützenstr.")}&locality=${q("Bad Oldesloe")}`);
    expect([answer.status, answer.headers["x-total-count"], answer.text]).toEqual([200, "0", "[]"]);
  });

  it("NFD and percent-encoded values select the same streets", async () => {
    const nfc = await get(`/de/Streets?name=${q("Müller")}`);
    expect(json(nfc.text).length).toBeGreaterThan(0);
    expect((await get(`/de/Streets?name=${q("Müller".normalize("NFD"))}`)).text).toBe(nfc.text);
    expect((await get("/de/Streets?name=M%C3%BCLLER")).text).toBe(nfc.text);
  });
});

describe("a search too broad for the read budget", () => {
  // The embedded Berlin streets with a budget of 256 KiB, so that searches matching much of Berlin exceed it.
  let narrow: RunningServer;
  const ask = client(() => narrow);
  beforeAll(async () => {
    const { dir } = await buildFixture(20_000, dataFile("de/streets-berlin.csv"), {
      only: ["de.streets"],
      swissStreets: false,
      searchReadBudget: 256 * 1024,
    });
    narrow = await startServer(dir);
  });
  afterAll(async () => narrow?.stop());

  it.each([
    [
      "/de/FullTextSearch?searchTerm=-pariser",
      ["searchTerm"],
      /add a word, a postal code or a locality, or make the last word longer/,
    ],
    ["/de/Streets?name=^e", ["name"], /add postalCode or locality, or give a longer name/],
  ])("%s is a 400 naming %j, and says how to narrow it", async (target, parameters, narrower) => {
    const answer = await ask(target);
    expect(answer.status).toBe(400);
    expect(answer.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    const problem = JSON.parse(answer.text) as {
      status: number;
      detail: string;
      errors: Record<string, string[]>;
    };
    expect(problem.status).toBe(400);
    expect(Object.keys(problem.errors).sort()).toEqual(parameters);
    expect(problem.detail).toMatch(
      /matches too broadly to be answered: it would read more than 256 KiB of the search index/,
    );
    expect(problem.detail).toMatch(narrower);
  });

  it.each([
    `/de/FullTextSearch?searchTerm=${q("Berlin Pariser Platz")}`,
    // Its prefix's bitmap is counted and paged: no list is read.
    "/de/FullTextSearch?searchTerm=be&lastWordPrefix=true",
    `/de/Streets?name=${q("^Unter den")}`,
    "/de/Streets?postalCode=10117&name=pl&pageSize=5&page=2",
    // Counted from the place table, the page found in the record table: no list is read.
    "/de/Streets?postalCode=1",
    "/de/Streets?postalCode=1&page=40",
    // Few streets whose places' lists lie in more chunks than the budget: found by the same scan.
    "/de/Streets?postalCode=99",
    "/de/Streets?postalCode=19&page=5",
    "/de/Streets?postalCode=09&locality=e&page=2",
    "/de/Streets?postalCode=9&page=30",
    // Counted from the per-place counts of its 1- or 3-gram, the page found in the record and head tables.
    "/de/Streets?locality=erli&name=a",
    "/de/Streets?locality=erli&name=str",
    "/de/Streets?locality=erli&name=a&page=3",
    // A literal whose n-gram list is exactly its runs: counted from the shard, paged from the list's first blocks.
    "/de/Streets?name=e",
    "/de/Streets?name=e&page=40",
  ])("answers %s as the build with the default budget does", async (target) => {
    const [small, usual] = [await ask(target), await get(target)];
    expect([small.status, small.headers["x-total-count"]]).toEqual([
      200,
      usual.headers["x-total-count"],
    ]);
    expect(json(small.text).length).toBeGreaterThan(0);
    expect(small.text).toBe(usual.text);
  });

  it("refuses a broad search after a narrow one cached much of what it reads (the budget counts cached files too)", async () => {
    // pariser reads the meta, the lexicon shard and the list chunk that -pariser needs too.
    expect((await ask("/de/FullTextSearch?searchTerm=pariser")).status).toBe(200);
    expect((await ask("/de/FullTextSearch?searchTerm=-pariser")).status).toBe(400);
  });
});
