import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFixture } from "../support/fixture.ts";
import { client, startAll, startServer, type RunningServer } from "../support/http.ts";
import { parseCsvBody } from "../support/memory-build.ts";
import { dataFile } from "../support/paths.ts";

/**
 * `/ch/Streets` and `/li/Streets` through wrangler dev (workerd): served by a build that reads
 * swisstopo's street directory — here the five rows in its exact upstream format — and absent
 * (404, not documented) from one that does not. The larger generated directory is checked record
 * by record in records.test.ts and by endpoints.test.ts.
 */
const STREETS = ["ch.streets", "li.streets", "ch.cantons", "li.communes"];
let withStreets: RunningServer;
let without: RunningServer;
const get = client(() => withStreets);
const getWithout = client(() => without);

beforeAll(async () => {
  const [a, b] = await Promise.all([
    buildFixture(1_000_000, undefined, {
      only: STREETS,
      swissStreets: dataFile("ch/upstream-format/amtliches-strassenverzeichnis-fixture.csv"),
    }),
    buildFixture(1_000_000, undefined, { only: STREETS, swissStreets: false }),
  ]);
  expect(a.summary.joins.find((j) => j.source === "ch-streets")).toMatchObject({
    rows: 6,
    joined: 6,
    unmatched: 0,
  });
  expect(b.summary.joins.map((j) => j.source)).not.toContain("ch-streets");
  [withStreets, without] = await startAll([startServer(a.dir), startServer(b.dir)]);
});
afterAll(async () => Promise.all([withStreets?.stop(), without?.stop()]));

const GLARUS_NORD = { key: "1630", name: "Glarus Nord", shortName: "Glarus Nord" };
const KANTON_GLARUS = { key: "800", name: "Kanton Glarus", shortName: "Kt. Glarus" };
const GLARUS = { key: "8", name: "Glarus", shortName: "GL" };

describe("with the street directory", () => {
  it("serves a row as the original does: key, name, postal locality, the commune by COM_FOSNR with its district and canton from the BFS register, the status", async () => {
    const answer = await get("/ch/Streets?locality=N%C3%A4fels");
    expect([
      answer.status,
      answer.headers["x-total-count"],
      answer.headers["x-total-pages"],
    ]).toEqual([200, "1", "1"]);
    expect(JSON.parse(answer.text)).toEqual([
      {
        key: "10061643",
        name: "Aeschen",
        postalCode: "8752",
        locality: "Näfels",
        commune: GLARUS_NORD,
        district: KANTON_GLARUS,
        canton: GLARUS,
        status: "Real",
      },
    ]);
    const csv = await get("/ch/Streets?locality=n%C3%A4fels", { Accept: "text/csv" });
    expect(csv.text).toBe(
      "Key,Name,PostalCode,Locality,Commune.Key,Commune.Name,Commune.ShortName,District.Key,District.Name,District.ShortName,Canton.Key,Canton.Name,Canton.ShortName,Status\r\n10061643,Aeschen,8752,Näfels,1630,Glarus Nord,Glarus Nord,800,Kanton Glarus,Kt. Glarus,8,Glarus,GL,Real\r\n",
    );
  });

  it("lists a street whose ZIP_LABEL names two localities under each of them", async () => {
    for (const locality of ["Rueyres-St-Laurent", "Villarsel-le-Gibloux"]) {
      const [street] = JSON.parse(
        (await get(`/ch/Streets?locality=${encodeURIComponent(locality)}`)).text,
      ) as { key: string; name: string; locality: string; commune: { key: string } }[];
      expect(street).toMatchObject({
        key: "10163894",
        name: "Route du Glèbe",
        postalCode: "1695",
        locality,
        commune: { key: "2236", name: "Gibloux" },
      });
    }
  });

  it("pages and filters like every street list: name, postalCode or locality (at least one), and full-text search", async () => {
    expect(parseCsvBody((await get("/ch/Streets?locality=Bowil&format=csv")).text)).toEqual([
      expect.objectContaining({ Key: "10112650", Name: "Gerbe", "Canton.ShortName": "BE" }),
    ]);
    const missing = await get("/ch/Streets");
    expect([missing.status, missing.headers["content-type"]]).toEqual([
      400,
      "application/problem+json; charset=utf-8",
    ]);
    expect((JSON.parse(missing.text) as { detail: string }).detail).toBe(
      "No name, postal code or locality given.",
    );
    expect(JSON.parse((await get("/ch/Streets?name=%5Eaesch&postalCode=875")).text)).toEqual([
      expect.objectContaining({ key: "10061643", name: "Aeschen", locality: "Näfels" }),
    ]);
    expect(
      JSON.parse((await get("/ch/FullTextSearch?searchTerm=N%C3%A4fels%20Aeschen")).text),
    ).toEqual([expect.objectContaining({ key: "10061643", name: "Aeschen", status: "Real" })]);
    const li = await get("/li/Streets?locality=Vaduz&name=St%C3%A4dtle");
    expect([li.status, li.text, li.headers["x-total-count"]]).toEqual([200, "[]", "0"]);
    expect((await get("/li/Streets")).status).toBe(400);
  });

  it("serves /li/Streets too (empty here: these rows are all Swiss), and documents both", async () => {
    const li = await get("/li/Streets?locality=Vaduz");
    expect([li.status, li.text, li.headers["x-total-count"]]).toEqual([200, "[]", "0"]);
    const openapi = JSON.parse((await get("/openapi.json")).text) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(openapi.paths)).toEqual(
      expect.arrayContaining(["/ch/Streets", "/li/Streets"]),
    );
    expect((await get("/")).text).toContain("GET /ch/Streets");
  });
});

describe("without the street directory", () => {
  it("answers /ch/Streets and /li/Streets with 404 problems, and does not document them", async () => {
    for (const path of [
      "/ch/Streets?locality=N%C3%A4fels",
      "/li/Streets?locality=Vaduz",
      "/ch/Streets",
    ]) {
      const answer = await getWithout(path);
      expect([answer.status, answer.headers["content-type"]], path).toEqual([
        404,
        "application/problem+json; charset=utf-8",
      ]);
    }
    const openapi = JSON.parse((await getWithout("/openapi.json")).text) as {
      paths: Record<string, unknown>;
    };
    expect(
      Object.keys(openapi.paths)
        .filter((path) => !path.startsWith("/downloads/"))
        .sort(),
    ).toEqual(["/ch/Cantons", "/li/Communes"]);
    const docs = (await getWithout("/")).text;
    expect(docs).not.toContain("<code>GET /ch/Streets</code></a>");
    expect(docs).toMatch(
      /<li><code>GET \/ch\/Streets<\/code>: there is no street data[^<]*ch-streets/,
    );
    expect((await getWithout("/ch/Cantons")).status).toBe(200);
  });
});
