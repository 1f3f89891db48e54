import { readFileSync } from "node:fs";
import { dataFile } from "./paths.ts";

/**
 * The sources as the joins' oracle sees them: read here with plain string splitting and fixed
 * columns, never with the generator's readers, name matching or joins. What a joined record must
 * agree with is written from the sources' documentation and the original's rules.
 */

const lines = (text: string) =>
  text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .filter((line) => line !== "");

/** GV100AD: record type in columns 1–2, the key from column 11, the name in 23–72, the type code in 123–124. */
const gvLines = lines(readFileSync(dataFile("de/GV100AD_30112025.txt"), "utf8"));
const gvOf = (type: string, keyLength: number) =>
  new Map(
    gvLines
      .filter((l) => l.startsWith(type))
      .map(
        (l) =>
          [
            l.slice(10, 10 + keyLength),
            { name: l.slice(22, 72).trim(), type: Number(l.slice(122, 124)) },
          ] as const,
      ),
  );
export const GV = {
  states: gvOf("10", 2),
  regions: gvOf("20", 3),
  districts: gvOf("40", 5),
  municipalities: gvOf("60", 8),
};

/** The original's display names of the GV100AD types (`datalayer/Models/de/*Type.cs`). */
export const GV_TYPES: Readonly<Record<number, string>> = {
  41: "Kreisfreie Stadt",
  42: "Stadtkreis",
  43: "Kreis",
  44: "Landkreis",
  45: "Regionalverband",
  60: "Markt",
  61: "Kreisfreie Stadt",
  62: "Stadtkreis",
  63: "Stadt",
  64: "Kreisangehörige Gemeinde",
  65: "Gemeindefreies Gebiet (bewohnt)",
  66: "Gemeindefreies Gebiet (unbewohnt)",
  67: "Große Kreisstadt",
};

export const shortName = (official: string) => (official.split(",")[0] ?? official).trim();

/** Open Postal Codes: `code,city,country,state,county,…`, no quoted fields. */
export const POST_CODES = lines(readFileSync(dataFile("de/post_code.csv"), "utf8"))
  .slice(1)
  .map((l) => {
    const [postalCode = "", city = "", , state = "", county = ""] = l.split(",");
    return { postalCode, city, state, county };
  });

/** Counties whose name GV100AD abbreviates or writes otherwise, by hand from GV100AD's district records. */
const COUNTY_ALIASES: Readonly<Record<string, string>> = {
  "Landkreis Dillingen an der Donau": "09773",
  "Landkreis Lindau": "09776",
  "Landkreis Mühldorf am Inn": "09183",
  "Landkreis Neumarkt in der Oberpfalz": "09373",
  "Landkreis Neustadt an der Aisch-Bad Windsheim": "09575",
  "Landkreis Neustadt an der Waldnaab": "09374",
  "Landkreis Pfaffenhofen an der Ilm": "09186",
  "Landkreis Wunsiedel im Fichtelgebirge": "09479",
  "Weiden in der Oberpfalz": "09363",
  "Landkreis Nienburg/Weser": "03256",
};

/**
 * The GV100AD district a row's county names, in the row's state: its name (either side of a
 * bilingual `A - B`), without "Landkreis"/"Kreis"; where a city and a Landkreis share the name,
 * "Landkreis …" is the Landkreis and the bare name the city. Undefined when it names none.
 */
export function countyDistrict(stateName: string, county: string): string | undefined {
  const alias = COUNTY_ALIASES[county];
  if (alias !== undefined) return alias;
  const state = [...GV.states].find(([, s]) => s.name === stateName)?.[0];
  const name = (county.split(" - ")[0] ?? county).toLowerCase();
  const landkreis = /^(landkreis|kreis) /.test(name);
  const bare = name.replace(/^(landkreis|kreis) /, "");
  // GV100AD qualifies some cities in parentheses: `Oldenburg (Oldb), Stadt`.
  const plain = (official: string) =>
    shortName(official)
      .replace(/\s*\(.*\)$/, "")
      .toLowerCase();
  const found = [...GV.districts].filter(
    ([key, d]) =>
      key.startsWith(state ?? "-") &&
      [shortName(d.name).toLowerCase(), plain(d.name), d.name.toLowerCase()].some(
        (n) => n === bare || n === name,
      ),
  );
  const picked =
    found.length > 1
      ? found.filter(([, d]) => (d.type === 41 || d.type === 42) !== landkreis)
      : found;
  return picked.length === 1 ? picked[0]?.[0] : undefined;
}

const STOP_WORDS = new Set(["bad", "sankt", "der", "die", "das", "bei", "und"]);
/** Whether a source's place name and an official name are the same or share a word (case-insensitively, three letters or more). */
export function namesRelated(a: string, b: string): boolean {
  const fold = (s: string) => s.toLowerCase().normalize("NFC");
  const words = (s: string) =>
    new Set(
      fold(s)
        .split(/[^\p{L}]+/u)
        .filter((w) => w.length >= 3 && !STOP_WORDS.has(w)),
    );
  const [x, y] = [words(a), words(shortName(b))];
  return fold(a) === fold(shortName(b)) || [...x].some((w) => y.has(w));
}

/** BFS GDEHist: Latin-1, tab-separated; only entries in force (no abolition). */
const latin1 = (name: string) =>
  lines(readFileSync(dataFile(name)).toString("latin1")).map((l) => l.split("\t"));
const districtRows = latin1("ch/GDEHist_BEZ.txt").filter((r) => r[9] === "");
const districtByHistory = new Map(
  districtRows.map((r) => [
    r[0] ?? "",
    {
      key: r[2] ?? "",
      historicalCode: r[0] ?? "",
      name: r[3] ?? "",
      shortName: r[4] ?? "",
      canton: r[1] ?? "",
    },
  ]),
);
export const CH_DISTRICTS = [...districtByHistory.values()];
export const CH_CANTONS = new Map(
  latin1("ch/GDEHist_KT.txt").map((r) => [
    r[0] ?? "",
    { key: r[0] ?? "", shortName: r[1] ?? "", name: r[2] ?? "" },
  ]),
);
/** Political communes in force by BFS number, with their district and canton. */
export const CH_COMMUNES = new Map(
  latin1("ch/GDEHist_GDE.txt")
    .filter((r) => r[11] === "" && r[6] === "11")
    .map((r) => [
      r[3] ?? "",
      {
        name: r[4] ?? "",
        shortName: r[5] ?? "",
        canton: r[2] ?? "",
        district: districtByHistory.get(r[1] ?? ""),
      },
    ]),
);
export const LI_COMMUNES = new Map(
  lines(readFileSync(dataFile("li/communes.csv"), "utf8"))
    .slice(1)
    .map((l) => [l.split(",")[0] ?? "", l.split(",")[1] ?? ""]),
);

/** swisstopo's register of localities: `;`-separated with header. */
export const LOCALITY_REGISTER = lines(readFileSync(dataFile("ch/AMTOVZ_CSV_LV95.csv"), "utf8"))
  .slice(1)
  .map((l) => {
    const [
      name = "",
      postalCode = "",
      ,
      ,
      ,
      communeKey = "",
      canton = "",
      ,
      east = "",
      north = "",
    ] = l.split(";");
    return { name, postalCode, communeKey, canton, east: Number(east), north: Number(north) };
  });

/** swisstopo's published inverse approximation (WGS84 → LV95), to check served coordinates against the register's point. */
export function wgs84ToLv95(latitude: number, longitude: number): { east: number; north: number } {
  const phi = (latitude * 3600 - 169028.66) / 10000;
  const lambda = (longitude * 3600 - 26782.5) / 10000;
  return {
    east:
      2600072.37 +
      211455.93 * lambda -
      10938.51 * lambda * phi -
      0.36 * lambda * phi ** 2 -
      44.54 * lambda ** 3,
    north:
      1200147.07 +
      308807.95 * phi +
      3745.25 * lambda ** 2 +
      76.63 * phi ** 2 -
      194.56 * lambda ** 2 * phi +
      119.79 * phi ** 3,
  };
}

/** Statistik Austria: the district list (`key;code;name` lines under province headings are not needed here), the Gemeindeliste's status per Gemeindecode, the street sample. */
export const AT_STATUS_BY_CODE = new Map(
  lines(readFileSync(dataFile("at/gemliste_knz.csv"), "utf8"))
    .slice(1)
    .map((l) => l.split(";"))
    .map(
      (r) =>
        [
          r[2] ?? "",
          { SR: "Statutarstadt", ST: "Stadtgemeinde", M: "Marktgemeinde" }[r[3] ?? ""],
        ] as const,
    ),
);
export const AT_STREETS = lines(
  readFileSync(dataFile("at/gemplzstr_8-vorarlberg-sample.csv"), "utf8"),
).map((l) => {
  const [
    municipalityKey = "",
    municipalityName = "",
    localityKey = "",
    locality = "",
    key = "",
    name = "",
    postalCode = "",
    municipalityCode = "",
  ] = l.split(";");
  return {
    municipalityKey,
    municipalityName,
    localityKey,
    locality,
    key,
    name,
    postalCode,
    municipalityCode,
  };
});

/** The embedded German localities' distinct names (postal-code cities, municipalities short and official) and postal codes: the corpus of the regular-expression tests. */
export const LOCALITY_NAMES = [
  ...new Set([
    ...POST_CODES.map((p) => p.city),
    ...[...GV.municipalities.values()].map((m) => shortName(m.name)),
    ...[...GV.municipalities.values()].map((m) => m.name),
  ]),
].filter((n) => n !== "");
export const LOCALITY_POSTAL_CODES = [...new Set(POST_CODES.map((p) => p.postalCode))];
