import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  agvchSnapshotUrl,
  isAgvchSnapshot,
  readAgvchSnapshot,
} from "../../generator/sources/ch-agvch.ts";
import {
  GV100AD_LISTING,
  gv100adDate,
  gv100adEditions,
} from "../../generator/sources/de-gv100ad-editions.ts";
import { newestEdition } from "../../generator/sources/editions.ts";
import { SourceError } from "../../generator/sources/errors.ts";
import {
  mirrorOf,
  SOURCES,
  sourceLocations,
  upstreamLocation,
  type SourceSpec,
} from "../../generator/sources/registry.ts";
import { agvchSnapshotOf } from "../support/agvch.ts";
import { dataFile, ROOT } from "../support/paths.ts";

const HEADER =
  "HistoricalCode,BfsCode,ValidFrom,ValidTo,Level,Parent,Name,ShortName,Inscription,Radiation,Rec_Type_fr,Rec_Type_de";
const bytes = (text: string) => new TextEncoder().encode(text);
const fixture = (date: string) =>
  readFileSync(dataFile(`ch/upstream-format/agvch-snapshot-${date}-fixture.csv`));

describe("the BFS AGVCH snapshot (fixture in the publisher's format)", () => {
  it("links each level to the one above by historical number, never across levels", async () => {
    const { cantons, districts, communes } = await readAgvchSnapshot(
      fixture("01-01-2026"),
      "snapshot.csv",
    );
    expect(cantons).toEqual([
      { key: "1", name: "Zürich", shortName: "ZH" },
      { key: "4", name: "Uri", shortName: "UR" },
      { key: "17", name: "St. Gallen", shortName: "SG" },
      { key: "19", name: "Aargau", shortName: "AG" },
    ]);
    // A canton without districts is one district row for the whole canton.
    expect(
      districts.map((d) => `${d.key} ${d.name} (${d.historicalCode}) in ${d.cantonKey}`),
    ).toEqual([
      "101 Bezirk Affoltern (10053) in 1",
      "104 Bezirk Dielsdorf (10080) in 1",
      "103 Bezirk Bülach (10081) in 1",
      "400 Kanton Uri (10061) in 4",
      "1728 Wahlkreis Wil (10268) in 17",
      "1904 Bezirk Brugg (10023) in 19",
    ]);
    // 101 is a district and a commune; 10268 the historical number of a district and of a commune.
    expect(
      communes.map(
        (c) =>
          `${c.key} ${c.name} (${c.historicalCode}) district ${c.districtHistoricalCode} ${c.cantonShortName} type ${c.type}`,
      ),
    ).toEqual([
      "101 Steinmaur (10597) district 10080 ZH type 11",
      "71 Wil (ZH) (10268) district 10081 ZH type 11",
      "3427 Wil (SG) (15610) district 10268 SG type 11",
      "1218 Spiringen (10364) district 10061 UR type 11",
      "4095 Brugg (16673) district 10023 AG type 11",
    ]);
  });

  it("keeps a unit whose end is already recorded (ValidTo after the snapshot's day): it is still in force", async () => {
    const { communes } = await readAgvchSnapshot(fixture("15-12-2025"), "snapshot.csv");
    expect(communes.map((c) => `${c.key} ${c.name} ${c.historicalCode}`)).toEqual([
      "4095 Brugg 16135",
      "4122 Villnachern 10009",
    ]);
  });

  it("accepts a BOM and CRLF, and tells a snapshot from the GDEHist files", async () => {
    const text = readFileSync(
      dataFile("ch/upstream-format/agvch-snapshot-01-01-2026-fixture.csv"),
      "utf8",
    ).replace(/\n/g, "\r\n");
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes(text)]);
    expect(isAgvchSnapshot(withBom)).toBe(true);
    expect((await readAgvchSnapshot(withBom, "snapshot.csv")).communes).toHaveLength(5);
    for (const gdeHist of ["GDEHist_KT.txt", "GDEHist_BEZ.txt", "GDEHist_GDE.txt"])
      expect(isAgvchSnapshot(readFileSync(dataFile(`ch/${gdeHist}`)))).toBe(false);
  });

  it("reads the whole register in that format: 26 cantons, 144 districts, the 2,110 communes in force", async () => {
    const { cantons, districts, communes } = await readAgvchSnapshot(
      bytes(agvchSnapshotOf("01.01.2026")),
      "snapshot.csv",
    );
    expect([cantons.length, districts.length, communes.length]).toEqual([26, 144, 2110]);
    expect(communes.filter((c) => c.cantonShortName === "")).toEqual([]);
    expect(districts.filter((d) => d.cantonKey === "")).toEqual([]);
  });

  it.each([
    ["a wrong header", "HistoricalCode;BfsCode\n", 1, /expected the header/],
    ["a level 4", `${HEADER}\n1,1,12.09.1848,,4,,Zürich,ZH,,,,\n`, 2, /Level '4'/],
    [
      "a canton with a parent",
      `${HEADER}\n1,1,12.09.1848,,1,7,Zürich,ZH,,,,\n`,
      2,
      /a canton has a Parent/,
    ],
    [
      "a commune without a parent",
      `${HEADER}\n10597,101,12.09.1848,,3,,Steinmaur,Steinmaur,,,,\n`,
      2,
      /Parent '' is not a number/,
    ],
    [
      "a date in another format",
      `${HEADER}\n1,1,1848-09-12,,1,,Zürich,ZH,,,,\n`,
      2,
      /ValidFrom '1848-09-12'/,
    ],
    [
      "a canton without its abbreviation",
      `${HEADER}\n1,1,12.09.1848,,1,,Zürich,Zürich,,,,\n`,
      2,
      /two-letter abbreviation/,
    ],
    [
      "a BFS number twice in a level",
      `${HEADER}\n1,1,12.09.1848,,1,,Zürich,ZH,,,,\n2,1,12.09.1848,,1,,Bern / Berne,BE,,,,\n`,
      3,
      /level 1 has .* twice \(line 2 too\)/,
    ],
    ["no rows", `${HEADER}\n`, 2, /no data rows/],
  ])("fails on %s with file and line", async (_, text, line, message) => {
    const error = await readAgvchSnapshot(bytes(text), "snapshot.csv").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect(error).toMatchObject({ file: "snapshot.csv", line });
    expect((error as SourceError).reason).toMatch(message);
  });

  it("asks for the snapshot of the build's day (DD-MM-YYYY)", () => {
    expect(agvchSnapshotUrl(new Date("2026-03-05T03:17:00Z"))).toBe(
      "https://www.agvchapp.bfs.admin.ch/api/communes/snapshot?date=05-03-2026",
    );
  });
});

describe("the newest GV100AD edition from Destatis' listing (a format fixture of the page)", () => {
  const listing = readFileSync(
    dataFile("de/upstream-format/gemeindeverzeichnis-listing-fixture.html"),
    "utf8",
  );
  const base =
    "https://www.destatis.de/DE/Themen/Laender-Regionen/Regionales/Gemeindeverzeichnis/Administrativ/Archiv/GV100ADQ";

  it("finds the monthly editions with their day, not the quarterly, annual or other links", () => {
    expect(gv100adEditions(listing, GV100AD_LISTING.listing)).toEqual([
      { date: "2025-11-30", url: `${base}/GV100AD3011.zip?__blob=publicationFile` },
      { date: "2025-10-31", url: `${base}/GV100AD3110.zip?__blob=publicationFile` },
      { date: "2025-09-30", url: `${base}/GV100AD3009.zip?__blob=publicationFile` },
      { date: "2025-08-31", url: `${base}/GV100AD3108.zip?__blob=publicationFile` },
    ]);
  });

  it("prefers a direct zip link with the day in its text, and resolves links against the page", () => {
    const html = `<ul><li><a href="Administrativ/Archiv/GV100ADQ/GV100AD3112.zip?__blob=publicationFile&amp;v=4">GV100AD 31.12.2025 (ZIP)</a></li><li><a href="Administrativ/Archiv/GV100ADQ/GV100AD3112.html">31.12.2025</a></li></ul>`;
    expect(gv100adEditions(html, GV100AD_LISTING.listing)).toEqual([
      { date: "2025-12-31", url: `${base}/GV100AD3112.zip?__blob=publicationFile&v=4` },
    ]);
  });

  it.each([
    ["a date that is not the link's day", `<a href="/GV100ADQ/GV100AD3011.html">31.10.2025</a>`],
    ["a link without a date", `<a href="/GV100ADQ/GV100AD3011.html">November</a>`],
    ["no links at all", "<html><body>Wartungsarbeiten</body></html>"],
  ])("names no edition for %s", (_, html) => {
    expect(gv100adEditions(html, GV100AD_LISTING.listing)).toEqual([]);
  });

  it("chooses the newest edition out by the build's day", () => {
    const editions = gv100adEditions(listing, GV100AD_LISTING.listing);
    expect(newestEdition(editions, new Date("2026-01-10"))?.date).toBe("2025-11-30");
    expect(newestEdition(editions, new Date("2025-11-15"))?.date).toBe("2025-10-31");
    expect(newestEdition(editions, new Date("2025-01-01"))).toBeUndefined();
  });

  it("reads an edition's day from its data", () => {
    expect(gv100adDate(readFileSync(dataFile("de/GV100AD_30112025.txt")))).toBe("2025-11-30");
    expect(gv100adDate(bytes("<html>"))).toBeUndefined();
  });
});

describe("where a remote build reads each source", () => {
  const today = new Date("2026-11-22T03:00:00Z");

  it("every source has its publisher's location (https), and the BFS snapshot is of the build's day", () => {
    const locations = sourceLocations(ROOT, {}, { remote: true, today });
    for (const [name, location] of Object.entries(locations)) {
      const urls =
        location.kind === "url"
          ? location.urls
          : location.kind === "listing"
            ? [location.listing.listing]
            : [];
      expect(urls.length, name).toBeGreaterThan(0);
      for (const url of urls) expect(url, name).toMatch(/^https:\/\//);
    }
    for (const name of ["ch-cantons", "ch-districts", "ch-communes"] as const)
      expect(locations[name]).toEqual({
        kind: "url",
        urls: ["https://www.agvchapp.bfs.admin.ch/api/communes/snapshot?date=22-11-2026"],
      });
    expect(locations["de-gv100ad"]).toMatchObject({ kind: "listing", listing: GV100AD_LISTING });
  });

  it("an override wins; --allow-embedded reads the embedded copy and marks it; a mirror stands in for every publisher", () => {
    const locations = sourceLocations(
      ROOT,
      { "de-streets": "local.csv" },
      { remote: true, today, allowEmbedded: ["ch-localities"], mirror: "http://127.0.0.1:9/" },
    );
    expect(locations["de-streets"]).toEqual({ kind: "file", path: `${ROOT}/local.csv` });
    expect(locations["ch-localities"]).toEqual({
      kind: "file",
      path: `${ROOT}/${SOURCES["ch-localities"].embedded}`,
      embedded: true,
    });
    expect(locations["li-communes"]).toEqual({
      kind: "url",
      urls: [
        "http://127.0.0.1:9/raw.githubusercontent.com/openpotato/openplzapi.data/refs/heads/main/src/li/communes.csv",
      ],
    });
    expect(
      mirrorOf("http://m")(
        "https://www.agvchapp.bfs.admin.ch/api/communes/snapshot?date=22-11-2026",
      ),
    ).toBe("http://m/www.agvchapp.bfs.admin.ch/api/communes/snapshot?date=22-11-2026");
    expect(sourceLocations(ROOT, {}, { today })["li-communes"]).toEqual({
      kind: "file",
      path: `${ROOT}/${SOURCES["li-communes"].embedded}`,
    });
  });

  it("a source without a reader for its publisher's files fails a remote build, naming --allow-embedded", () => {
    const spec: SourceSpec = {
      embedded: "data/xx/file.csv",
      noUpstream: "the publisher's format has no reader yet",
    };
    expect(() => upstreamLocation("xx-things", spec, today)).toThrow(
      "--remote: source xx-things has no reader for its publisher's files (the publisher's format has no reader yet); --allow-embedded xx-things builds it from data/xx/file.csv",
    );
  });
});
