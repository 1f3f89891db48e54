import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { zipSync } from "fflate";
import type { SourceName } from "../../generator/sources/registry.ts";
import { agvchSnapshotOf } from "./agvch.ts";
import { germanCut } from "./german-cut.ts";
import { dataFile } from "./paths.ts";
import type { Upstream } from "./upstream.ts";

/**
 * Every publisher's files as a loopback mirror serves them (`https://host/path` at `/host/path`,
 * see `--mirror`), in the publishers' formats, made of the embedded data: the German sources cut to
 * Berlin and Saxony (`germanCut`: the street fixture's rows there, GV100AD zipped with the Destatis
 * listing page (a format fixture) pointing at it, Open Postal Codes), Statistik Austria's lists and its street directory as nine province files in the
 * published format, the BFS snapshot (the embedded register as of 01.01.2026, in the snapshot
 * format), the swisstopo register zipped, the Liechtenstein communes, and swisstopo's street directory
 * (its fixture rows) as its two zipped files.
 */
export const DESTATIS =
  "/www.destatis.de/DE/Themen/Laender-Regionen/Regionales/Gemeindeverzeichnis";
export const PUBLISHED = {
  "de-streets":
    "/raw.githubusercontent.com/openpotato/openplzapi.data/refs/heads/main/src/de/osm/streets.updated.csv",
  "de-gv100ad": `${DESTATIS}/Administrativ/Archiv/GV100ADQ/GV100AD3011.zip`,
  "de-postcodes":
    "/raw.githubusercontent.com/Schoenfeld-Solutions/open-postal-codes/refs/heads/main/data/public/v1/de/post_code.csv",
  "at-districts": "/www.statistik.at/verzeichnis/reglisten/polbezirke.csv",
  "at-municipalities": "/www.statistik.at/verzeichnis/reglisten/gemliste_knz.csv",
  "at-streets": "/www.statistik.at/verzeichnis/strassenliste/gemplzstr_8.csv",
  "ch-cantons": "/www.agvchapp.bfs.admin.ch/api/communes/snapshot",
  "ch-districts": "/www.agvchapp.bfs.admin.ch/api/communes/snapshot",
  "ch-communes": "/www.agvchapp.bfs.admin.ch/api/communes/snapshot",
  "ch-localities":
    "/data.geo.admin.ch/ch.swisstopo-vd.ortschaftenverzeichnis_plz/ortschaftenverzeichnis_plz/ortschaftenverzeichnis_plz_2056.csv.zip",
  "li-communes":
    "/raw.githubusercontent.com/openpotato/openplzapi.data/refs/heads/main/src/li/communes.csv",
  "ch-streets":
    "/data.geo.admin.ch/ch.swisstopo.amtliches-strassenverzeichnis/amtliches-strassenverzeichnis_ch/amtliches-strassenverzeichnis_ch_2056.csv.zip",
} as const satisfies Record<SourceName, string>;
/** swisstopo publishes Liechtenstein's streets as a second file of the source ch-streets. */
export const LI_STREETS_PATH =
  "/data.geo.admin.ch/ch.swisstopo.amtliches-strassenverzeichnis/amtliches-strassenverzeichnis_li/amtliches-strassenverzeichnis_li_2056.csv.zip";
export const GV100AD_LISTING_PATH = `${DESTATIS}/_inhalt.html`;
export const provinceStreets = (province: number) =>
  `/www.statistik.at/verzeichnis/strassenliste/gemplzstr_${province}.csv`;

const AT_STREETS_HEADER =
  "Gemeindekennziffer;Politische Gemeinde;Ortschaftskennziffer;Ortschaftsname;Straßenkennziffer;Straßenname;Postleitzahl;Gemeindecode;Zustellort";

/** A street directory file as Statistik Austria publishes it: BOM, title, "Erstellt am", header, rows, "Quelle:" footer. */
function atStreetsFile(part: string, rows: readonly string[]): Buffer {
  const lines = [
    "\uFEFFGemeinde-, Ortschafts-, Straßen- und PLZ-Verzeichnis;;;;;;;;",
    `Erstellt am:;03.03.2022 08:09:34;Teil:;${part};;;;;`,
    AT_STREETS_HEADER,
    ...rows,
    "Quelle: STATISTIK AUSTRIA. erstellt am 03.03.2022 08:09:34",
    "",
  ];
  return Buffer.from(lines.join("\r\n"));
}

export interface Publishers {
  /** What the mirror serves, by path. */
  readonly files: Upstream;
  /** The same data as files on disk, one per source (`--source NAME=PATH`), for a build to compare with. */
  readonly local: Record<SourceName, string>;
}

export function publishers(work: string): Publishers {
  // Where the sources come from is the subject, not the German data: reading, joining and rendering
  // all of Germany was most of each of remote.test's builds.
  const german = germanCut(work);
  const gv100ad = readFileSync(german["de-gv100ad"]);
  // The real rows of the street directory we have (Burgenland's fixture rows, the Vorarlberg
  // sample) spread over the nine province files, so that every file has rows and none twice.
  const burgenland = readFileSync(dataFile("at/upstream-format/streets-fixture.csv"), "utf8")
    .split(/\r?\n/)
    .filter((line) => /^\d{5};/.test(line));
  const vorarlberg = readFileSync(dataFile("at/gemplzstr_8-vorarlberg-sample.csv"), "utf8")
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .filter((line) => line !== "");
  const others = [2, 3, 4, 5, 6, 7, 9];
  const provinceFiles = new Map<number, Buffer>([
    [1, atStreetsFile("Burgenland", burgenland)],
    [8, atStreetsFile("Vorarlberg", vorarlberg.slice(others.length))],
    ...others.map((province, i): [number, Buffer] => [
      province,
      atStreetsFile(`Teil ${province}`, vorarlberg.slice(i, i + 1)),
    ]),
  ]);
  const snapshot = Buffer.from(agvchSnapshotOf("01.01.2026"));
  const localities = readFileSync(dataFile("ch/AMTOVZ_CSV_LV95.csv"));
  const swissStreetsFile = dataFile("ch/upstream-format/amtliches-strassenverzeichnis-fixture.csv");
  const [swissHeader = "", ...swissRows] = readFileSync(swissStreetsFile, "utf8")
    .split("\n")
    .filter((line) => line !== "");
  const encode = (lines: readonly string[]) => new TextEncoder().encode(`${lines.join("\n")}\n`);
  const files: Upstream = new Map<string, Uint8Array | number>([
    [PUBLISHED["de-streets"], readFileSync(german["de-streets"])],
    [
      GV100AD_LISTING_PATH,
      readFileSync(dataFile("de/upstream-format/gemeindeverzeichnis-listing-fixture.html")),
    ],
    [
      PUBLISHED["de-gv100ad"],
      zipSync({
        "GV100AD_30112025.txt": gv100ad,
        "Hinweise.txt": new TextEncoder().encode("Quellenangabe"),
      }),
    ],
    [PUBLISHED["de-postcodes"], readFileSync(german["de-postcodes"])],
    [PUBLISHED["at-districts"], readFileSync(dataFile("at/districts-2015.txt"))],
    [PUBLISHED["at-municipalities"], readFileSync(dataFile("at/gemliste_knz.csv"))],
    ...[...provinceFiles].map(([province, bytes]): [string, Uint8Array] => [
      provinceStreets(province),
      bytes,
    ]),
    [PUBLISHED["ch-cantons"], snapshot],
    [
      PUBLISHED["ch-localities"],
      zipSync({
        "AMTOVZ_CSV_LV95/AMTOVZ_CSV_LV95.csv": localities,
        "AMTOVZ_CSV_LV95/README.txt": new TextEncoder().encode("swisstopo"),
      }),
    ],
    [PUBLISHED["li-communes"], readFileSync(dataFile("li/communes.csv"))],
    // The fixture's real rows spread over swisstopo's two files (we have no row of Liechtenstein), none twice.
    [
      PUBLISHED["ch-streets"],
      zipSync({
        "amtliches-strassenverzeichnis_ch_2056.csv": encode([
          swissHeader,
          ...swissRows.slice(0, 3),
        ]),
      }),
    ],
    [
      LI_STREETS_PATH,
      zipSync({
        "amtliches-strassenverzeichnis_li_2056.csv": encode([swissHeader, ...swissRows.slice(3)]),
      }),
    ],
  ]);
  const write = (name: string, data: Uint8Array | string) => {
    const path = join(work, name);
    writeFileSync(path, data);
    return path;
  };
  const snapshotFile = write("snapshot.csv", snapshot);
  const local: Record<SourceName, string> = {
    ...german,
    "at-districts": dataFile("at/districts-2015.txt"),
    "at-municipalities": dataFile("at/gemliste_knz.csv"),
    "at-streets": write(
      "gemplzstr-all.csv",
      atStreetsFile("Burgenland und Vorarlberg", [...burgenland, ...vorarlberg]),
    ),
    "ch-cantons": snapshotFile,
    "ch-districts": snapshotFile,
    "ch-communes": snapshotFile,
    "ch-localities": dataFile("ch/AMTOVZ_CSV_LV95.csv"),
    "li-communes": dataFile("li/communes.csv"),
    "ch-streets": swissStreetsFile,
  };
  return { files, local };
}
