import { parseString } from "fast-csv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFixture, tempDir, fixtureStreets, STREET_FIXTURE } from "../support/fixture.ts";
import {
  modelLocality,
  modelRegister,
  readModelStreets,
  type ModelStreet,
} from "../support/model.ts";
import {
  client,
  pagingOf as paging,
  startServer,
  type RawResponse,
  type RunningServer,
} from "../support/http.ts";

let server: RunningServer;
let streets: ModelStreet[];
const get = client(() => server);
const json = (response: RawResponse) => JSON.parse(response.text) as Record<string, unknown>[];

beforeAll(async () => {
  const streetsFile = fixtureStreets(tempDir("api"));
  streets = await readModelStreets(streetsFile);
  const { dir } = await buildFixture(1_000_000, streetsFile, { only: STREET_FIXTURE });
  server = await startServer(dir);
});
afterAll(async () => server?.stop());

describe("paging", () => {
  it("treats no parameters as page=1&pageSize=50, byte for byte", async () => {
    const plain = await get("/de/Streets?locality=Berlin");
    const explicit = await get("/de/Streets?locality=Berlin&page=1&pageSize=50");
    expect(plain.status).toBe(200);
    expect(paging(plain)).toEqual(["1", "50", "600", "12"]);
    expect(plain.body.equals(explicit.body)).toBe(true);
    expect(plain.rawHeaders).toEqual(explicit.rawHeaders);
  });

  it("serves every street of the fixture's Berlin, no more: the model's 600", async () => {
    const model = modelLocality(streets, "Berlin");
    expect(model).toHaveLength(600);
    expect(paging(await get("/de/Streets?locality=Berlin&pageSize=1"))).toEqual([
      "1",
      "1",
      String(model.length),
      String(model.length),
    ]);
  });

  it.each([
    [10, 60], // exact multiples are not one page more (the original's off-by-one)
    [50, 12],
    [1, 600],
    [24, 25],
    [7, 86],
    [49, 13],
  ])("pageSize %i gives ⌈600 / size⌉ = %i pages", async (size, pages) => {
    const response = await get(`/de/Streets?locality=Berlin&pageSize=${size}&page=2`);
    expect(paging(response)).toEqual(["2", String(size), "600", String(pages)]);
    expect(json(response)).toHaveLength(size);
    const last = await get(`/de/Streets?locality=Berlin&pageSize=${size}&page=${pages}`);
    expect(json(last)).toHaveLength(600 - (pages - 1) * size);
  });

  it.each([1, 3, 7, 10, 49, 50])(
    "pages of size %i are consecutive and follow the German street order",
    async (size) => {
      const expected = modelLocality(streets, "Berlin").map(
        (s) => `${s.name}|${s.postalCode}|${s.borough}|${s.suburb}`,
      );
      const pages = Math.ceil(expected.length / size);
      const seen: string[] = [];
      for (let page = 1; page <= pages; page++) {
        for (const s of json(
          await get(`/de/Streets?locality=Berlin&pageSize=${size}&page=${page}`),
        ))
          seen.push(`${s["name"]}|${s["postalCode"]}|${s["borough"] ?? ""}|${s["suburb"] ?? ""}`);
      }
      expect(seen).toEqual(expected);
    },
  );

  it("answers a page past the end with 200, an empty list and the real totals", async () => {
    for (const page of [13, 2147483647]) {
      const response = await get(`/de/Streets?locality=Berlin&page=${page}`);
      expect(response.status).toBe(200);
      expect(response.text).toBe("[]");
      expect(paging(response)).toEqual([String(page), "50", "600", "12"]);
    }
    const csv = await get("/de/Streets?locality=Berlin&page=99&format=csv");
    expect(csv.text).toBe(
      "Name,PostalCode,Locality,Borough,Suburb,Municipality.Key,Municipality.Name,Municipality.Type,District.Key,District.Name,District.Type,FederalState.Key,FederalState.Name\r\n",
    );
  });
});

describe("invalid requests", () => {
  it.each([
    ["pageSize=51", "pageSize"],
    ["pageSize=0", "pageSize"],
    ["pageSize=-1", "pageSize"],
    ["pageSize=abc", "pageSize"],
    ["pageSize=1.5", "pageSize"],
    ["pageSize=10e1", "pageSize"],
    ["page=0", "page"],
    ["page=2147483648", "page"],
    ["page=1&page=2", "page"],
    ["pageSize=5&PageSize=5", "pageSize"],
    ["name=Alle(?=e)", "name"],
    ["postalCode=(1)%5C1", "postalCode"],
    ["format=xml", "format"],
  ])("%s → 400 problem naming %s", async (query, parameter) => {
    const response = await get(`/de/Streets?locality=Berlin&${query}`);
    expect(response.status).toBe(400);
    expect(response.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    const problem = JSON.parse(response.text) as {
      type: string;
      title: string;
      status: number;
      detail: string;
      errors: Record<string, string[]>;
    };
    expect(problem).toMatchObject({
      type: "https://tools.ietf.org/html/rfc9110#section-15.5.1",
      title: "One or more validation errors occurred.",
      status: 400,
    });
    expect(typeof problem.detail).toBe("string");
    expect(Object.keys(problem.errors)).toEqual([parameter]);
    expect(response.headers["x-page"]).toBeUndefined();
  });

  it.each([
    "/de/Streets",
    "/de/Streets?locality=",
    "/de/Streets?name=&postalCode=",
    "/de/Streets?page=2",
  ])("%s without a filter → 400 as the original words it", async (path) => {
    const response = await get(path);
    expect(response.status).toBe(400);
    const problem = JSON.parse(response.text) as {
      detail: string;
      errors: Record<string, string[]>;
    };
    expect(problem.detail).toBe("No name, postal code or locality given.");
    expect(Object.keys(problem.errors)).toEqual(["locality", "name", "postalCode"]);
  });

  it("answers unknown paths with 404 and other methods with 405, as problems", async () => {
    const missing = await get("/de/Nowhere");
    expect(missing.status).toBe(404);
    expect(missing.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    expect(JSON.parse(missing.text)).toMatchObject({ status: 404, title: "Not Found" });
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const response = await get("/de/Streets?locality=Berlin", {}, method);
      expect(response.status).toBe(405);
      expect(response.headers["allow"]).toBe("GET, HEAD, OPTIONS");
      expect(JSON.parse(response.text)).toMatchObject({ status: 405 });
    }
  });

  it.each([
    [
      "/ch/Streets",
      "This build does not serve /ch/Streets: there is no street data: the swisstopo street directory",
    ],
    [
      "/li/Streets?locality=Vaduz",
      "This build does not serve /li/Streets: there is no street data",
    ],
    [
      "/ch/FullTextSearch?searchTerm=Zürich",
      "This build does not serve /ch/FullTextSearch: there is no street data",
    ],
    [
      "/CH/fulltextsearch/",
      "This build does not serve /ch/FullTextSearch: there is no street data",
    ],
    [
      "/at/FullTextSearch?searchTerm=Bregenz",
      "This build does not serve /at/FullTextSearch: this build was made without it.",
    ],
    [
      "/ch/Cantons/1/Localities",
      "This build does not serve /ch/Cantons/{key}/Localities: this build was made without it.",
    ],
    // the fixture build is made of a few resources: the others are not served either, and say so
    [
      "/de/Districts/09189/Municipalities",
      "This build does not serve /de/Districts/{key}/Municipalities: this build was made without it.",
    ],
    ["/ch/Strets", "There is no resource at '/ch/Strets'."],
    ["/de/FullTextSearches", "There is no resource at '/de/FullTextSearches'."],
  ])(
    "%s: a 404 problem whose detail tells a path not served from a mistyped one",
    async (path, detail) => {
      for (const method of ["GET", "HEAD", "POST"]) {
        const response = await get(path, {}, method);
        expect(response.status, method).toBe(404);
        expect(response.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
        expect(response.headers["access-control-allow-origin"]).toBe("*");
        if (method !== "HEAD")
          expect((JSON.parse(response.text) as { detail: string }).detail).toContain(detail);
      }
    },
  );

  it("never serves the internal files directly", async () => {
    for (const path of [
      "/_headers",
      "/_build.json",
      "/_l/de.federalstates.json",
      "/de/Streets/../_headers",
    ]) {
      expect((await get(path)).status).toBe(404);
    }
  });
});

describe("localities", () => {
  it.each(["berlin", "BERLIN", "%20Berlin%20", "Berlin%0A"])(
    "matches %s case-insensitively after trimming",
    async (value) => {
      const response = await get(`/de/Streets?locality=${value}&pageSize=5`);
      expect(paging(response)).toEqual(["1", "5", "600", "120"]);
    },
  );

  it("matches after NFC normalisation", async () => {
    const nfd = encodeURIComponent("Lünen".normalize("NFD"));
    const nfc = await get(`/de/Streets?locality=${encodeURIComponent("Lünen")}`);
    const decomposed = await get(`/de/Streets?locality=${nfd}`);
    expect(Number(nfc.headers["x-total-count"])).toBeGreaterThan(0);
    expect(decomposed.body.equals(nfc.body)).toBe(true);
  });

  it("answers an unknown locality with an empty list and zero totals", async () => {
    const response = await get("/de/Streets?locality=Atlantis&page=3&pageSize=10");
    expect(response.status).toBe(200);
    expect(response.text).toBe("[]");
    expect(paging(response)).toEqual(["3", "10", "0", "0"]);
  });

  it.each(["__proto__", "constructor", "%20%20"])(
    "treats %s as just an unknown name",
    async (value) => {
      const response = await get(`/de/Streets?locality=${value}`);
      expect(response.status).toBe(200);
      expect(response.text).toBe("[]");
    },
  );

  it.each(["../../_headers", "..%2F..%2F_headers", "a\\b"])(
    "reads %s as a pattern over the locality names, never as a path: 200 with no streets",
    async (value) => {
      const response = await get(`/de/Streets?locality=${value}`);
      expect(response.status).toBe(200);
      expect(response.text).toBe("[]");
    },
  );

  it("refuses a NUL in a pattern with a 400 naming locality", async () => {
    const response = await get("/de/Streets?locality=%00");
    expect(response.status).toBe(400);
    expect(
      Object.keys((JSON.parse(response.text) as { errors: Record<string, string[]> }).errors),
    ).toEqual(["locality"]);
  });

  it("joins the register: Berlin is the Kreisfreie Stadt 11000000 in federal state 11, with no district", async () => {
    const [first] = json(await get("/de/Streets?locality=Berlin&pageSize=1"));
    expect(first).toMatchObject({
      locality: "Berlin",
      municipality: { key: "11000000", name: "Berlin, Stadt", type: "Kreisfreie Stadt" },
      federalState: { key: "11", name: "Berlin" },
    });
    expect(first).not.toHaveProperty("district");
    expect(Object.keys(first ?? {})).toEqual([
      "name",
      "postalCode",
      "locality",
      "borough",
      "suburb",
      "municipality",
      "federalState",
    ]);
  });

  it("joins district and municipality of other localities from GV100AD", async () => {
    const register = modelRegister();
    const [street] = json(
      await get(`/de/Streets?locality=${encodeURIComponent("Lünen")}&pageSize=1`),
    );
    const source = streets.find((s) => s.locality === "Lünen");
    expect(street?.["municipality"]).toMatchObject({
      key: source?.regionalKey,
      name: register.municipalities.get(source?.regionalKey ?? ""),
    });
    expect(street?.["district"]).toMatchObject({
      key: source?.regionalKey.slice(0, 5),
      type: "Kreis",
    });
    expect(street?.["federalState"]).toEqual({ key: "05", name: register.states.get("05") });
    expect(street).not.toHaveProperty("borough");
  });
});

describe("CSV", () => {
  const parseCsv = (text: string) =>
    new Promise<Record<string, string>[]>((resolve, reject) => {
      const rows: Record<string, string>[] = [];
      parseString<Record<string, string>, Record<string, string>>(text, { headers: true })
        .on("data", (row: Record<string, string>) => rows.push(row))
        .on("error", reject)
        .on("end", () => resolve(rows));
    });

  it.each([
    ["Berlin", 3, 7],
    ["Berlin", 1, 50],
    ["Menden (Sauerland)", 1, 50],
    ["Langeoog", 2, 3],
  ])(
    "carries the same records and headers as JSON (%s, page %i, size %i)",
    async (locality, page, size) => {
      const query = `/de/Streets?locality=${encodeURIComponent(locality)}&page=${page}&pageSize=${size}`;
      const asJson = await get(query);
      const asCsv = await get(query, { Accept: "text/csv" });
      expect(asCsv.headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(asCsv.headers["vary"]).toBe("Accept");
      expect(paging(asCsv)).toEqual(paging(asJson));
      const rows = await parseCsv(asCsv.text);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows).toEqual(
        json(asJson).map((s) => {
          const m = s["municipality"] as Record<string, string>;
          const d = (s["district"] ?? {}) as Record<string, string>;
          const f = s["federalState"] as Record<string, string>;
          return {
            Name: s["name"],
            PostalCode: s["postalCode"],
            Locality: s["locality"],
            Borough: s["borough"] ?? "",
            Suburb: s["suburb"] ?? "",
            "Municipality.Key": m["key"],
            "Municipality.Name": m["name"],
            "Municipality.Type": m["type"],
            "District.Key": d["key"] ?? "",
            "District.Name": d["name"] ?? "",
            "District.Type": d["type"] ?? "",
            "FederalState.Key": f["key"],
            "FederalState.Name": f["name"],
          };
        }),
      );
      expect(asCsv.text.endsWith("\r\n")).toBe(true);
    },
  );

  it("is chosen by format=csv too, without Vary", async () => {
    const response = await get("/de/Streets?locality=Berlin&format=csv&pageSize=2");
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["vary"]).toBeUndefined();
    expect(response.text.split("\r\n")).toHaveLength(4);
  });
});

describe("lists", () => {
  it.each([
    [
      "/de/FederalStates",
      16,
      ["key", "name", "seatOfGovernment"],
      { key: "11", name: "Berlin", seatOfGovernment: "Berlin" },
    ],
    ["/at/FederalProvinces", 9, ["key", "name"], { key: "9", name: "Wien" }],
    [
      "/ch/Cantons",
      26,
      ["key", "historicalCode", "name", "shortName"],
      { key: "1", historicalCode: "1", name: "Zürich", shortName: "ZH" },
    ],
    [
      "/li/Communes",
      11,
      ["key", "name", "electoralDistrict"],
      { key: "7001", name: "Vaduz", electoralDistrict: "Oberland" },
    ],
  ])("%s lists %i records, without paging headers", async (path, count, keys, sample) => {
    const response = await get(`${path}?page=2&pageSize=1`);
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(response.headers["x-page"]).toBeUndefined();
    expect(response.headers["x-total-count"]).toBeUndefined();
    const records = json(response);
    expect(records).toHaveLength(count);
    expect(Object.keys(records[0] ?? {})).toEqual(keys);
    expect(records).toContainEqual(sample);
    const csv = await get(path, { Accept: "text/csv" });
    expect(csv.text.trimEnd().split("\r\n")).toHaveLength(count + 1);
  });

  it("matches paths case-insensitively and with a trailing slash", async () => {
    const canonical = await get("/de/FederalStates");
    for (const path of ["/de/federalstates", "/DE/FEDERALSTATES/", "/de/FederalStates/"])
      expect((await get(path)).body.equals(canonical.body)).toBe(true);
    expect((await get("/de/streets/?locality=Berlin")).status).toBe(200);
  });
});

describe("HTTP semantics", () => {
  it("answers HEAD with the GET headers and no body", async () => {
    for (const path of [
      "/de/Streets?locality=Berlin&pageSize=10&page=3",
      "/de/Streets?locality=Berlin&pageSize=7&page=3",
      "/ch/Cantons",
      "/de/Streets",
    ]) {
      const getResponse = await get(path);
      const head = await get(path, {}, "HEAD");
      expect(head.status).toBe(getResponse.status);
      expect(head.body.length).toBe(0);
      expect(head.rawHeaders).toEqual(getResponse.rawHeaders);
    }
  });

  it("serves the docs files as plain assets: a cross-origin GET needs no preflight and is allowed, other methods get the CDN's 405", async () => {
    const answer = await get("/openapi.json", { Origin: "https://example.org" });
    expect([answer.status, answer.headers["access-control-allow-origin"]]).toEqual([200, "*"]);
    expect(
      (
        await get(
          "/openapi.json",
          { Origin: "https://example.org", "Access-Control-Request-Method": "GET" },
          "OPTIONS",
        )
      ).status,
    ).toBe(405);
  });

  it.each(["/de/Streets?locality=Berlin", "/de/FederalStates", "/ch/Streets", "/nowhere"])(
    "answers CORS preflights on %s, allowing the headers of revalidation and cache control",
    async (path) => {
      const response = await get(
        path,
        {
          Origin: "https://example.org",
          "Access-Control-Request-Method": "GET",
          "Access-Control-Request-Headers": "if-none-match, cache-control",
        },
        "OPTIONS",
      );
      expect(response.status).toBe(204);
      expect(response.headers["access-control-allow-origin"]).toBe("*");
      expect(response.headers["access-control-allow-methods"]).toBe("GET, HEAD, OPTIONS");
      const allowed = (response.headers["access-control-allow-headers"] ?? "")
        .split(",")
        .map((h) => h.trim().toLowerCase());
      for (const header of ["accept", "if-none-match", "if-modified-since", "cache-control"])
        expect(allowed, header).toContain(header);
      expect(Number(response.headers["access-control-max-age"])).toBeGreaterThan(0);
    },
  );

  it.each([
    "/de/Streets?locality=Berlin&pageSize=10",
    "/de/Streets?locality=Berlin&pageSize=1&page=3",
    "/de/Streets?locality=Atlantis",
    "/de/Streets?pageSize=99",
    "/de/FederalStates",
    "/nowhere",
  ])("sends CORS and security headers on %s", async (path) => {
    for (const method of ["GET", "HEAD", "OPTIONS", "POST"]) {
      const response = await get(path, {}, method);
      expect(response.headers["access-control-allow-origin"]).toBe("*");
      expect(response.headers["access-control-expose-headers"]).toBe(
        "ETag, x-page, x-page-size, x-total-count, x-total-pages",
      );
      for (const name of [
        "content-security-policy",
        "permissions-policy",
        "referrer-policy",
        "strict-transport-security",
        "x-content-type-options",
        "x-frame-options",
      ]) {
        expect(response.headers[name], `${method} ${path} ${name}`).toBeTruthy();
      }
    }
  });

  it("revalidates with ETag", async () => {
    const first = await get("/de/Streets?locality=Berlin&pageSize=10&page=2");
    const etag = first.headers["etag"] ?? "";
    expect(etag).toMatch(/^".+"$/);
    const again = await get("/de/Streets?locality=Berlin&pageSize=10&page=2", {
      "If-None-Match": etag,
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect((await get("/de/Streets?locality=Berlin&pageSize=10&page=3")).headers["etag"]).not.toBe(
      etag,
    );
  });
});
