import { resolve } from "node:path";
import { SWISS_STREETS_ENTRY } from "./ch-streets.ts";

/** A source a build reads: its embedded copy (the default) and where its publisher releases it. */
export interface SourceSpec {
  /**
   * The embedded copy, relative to the project root. None for an optional source: a build reads
   * it only when it is given (`--source`) or fetched (`--remote`), and serves the resources it
   * feeds only then.
   */
  readonly embedded?: string;
  /**
   * The publisher's download location, fetched with `--remote`. Without one (no reader for the
   * publisher's format yet), `--remote` reads the embedded copy and says so.
   */
  readonly upstream?: string | readonly string[];
  /** Why a source has no upstream yet, and where it would come from. */
  readonly noUpstream?: string;
  /** For a zip archive: the entry that holds the data (the archive's own name changes per edition). */
  readonly archiveEntry?: RegExp;
}

export const SOURCES = {
  "de-streets": {
    embedded: "data/de/streets-berlin.csv",
    upstream: "https://raw.githubusercontent.com/openpotato/openplzapi.data/refs/heads/main/src/de/osm/streets.updated.csv",
  },
  "de-gv100ad": {
    embedded: "data/de/GV100AD_30112025.txt",
    upstream: "https://www.destatis.de/DE/Themen/Laender-Regionen/Regionales/Gemeindeverzeichnis/Administrativ/Archiv/GV100ADQ/GV100AD3107.zip?__blob=publicationFile",
    archiveEntry: /(^|\/)GV100AD[^/]*\.txt$/i,
  },
  "de-postcodes": {
    embedded: "data/de/post_code.csv",
    noUpstream: "Open Postal Codes (Schoenfeld-Solutions/open-postal-codes) publishes post_code.csv on GitHub; its release URL is not recorded in data/README.md yet",
  },
  "at-districts": {
    embedded: "data/at/districts-2015.txt",
    upstream: "https://www.statistik.at/verzeichnis/reglisten/polbezirke.csv",
  },
  "at-municipalities": {
    embedded: "data/at/gemliste_knz.csv",
    upstream: "https://www.statistik.at/verzeichnis/reglisten/gemliste_knz.csv",
  },
  "at-streets": {
    embedded: "data/at/gemplzstr_8-vorarlberg-sample.csv",
    // One file per federal province; the reader takes the upstream format (title, header, footer).
    upstream: [1, 2, 3, 4, 5, 6, 7, 8, 9].map((province) => `https://www.statistik.at/verzeichnis/strassenliste/gemplzstr_${province}.csv`),
  },
  "ch-cantons": {
    embedded: "data/ch/GDEHist_KT.txt",
    noUpstream: "the BFS AGVCH snapshot API (https://www.agvchapp.bfs.admin.ch/api/communes/snapshot?date=DD-MM-YYYY) has no reader yet: no sample of its format was available to test one against",
  },
  "ch-districts": {
    embedded: "data/ch/GDEHist_BEZ.txt",
    noUpstream: "as ch-cantons: the BFS AGVCH snapshot API has no reader yet",
  },
  "ch-communes": {
    embedded: "data/ch/GDEHist_GDE.txt",
    noUpstream: "as ch-cantons: the BFS AGVCH snapshot API has no reader yet",
  },
  "ch-localities": {
    embedded: "data/ch/AMTOVZ_CSV_LV95.csv",
    noUpstream: "swisstopo publishes the register of localities as a zip (Amtliches Ortschaftenverzeichnis); its URL is not recorded in data/README.md yet",
  },
  "li-communes": {
    embedded: "data/li/communes.csv",
    upstream: "https://raw.githubusercontent.com/openpotato/openplzapi.data/refs/heads/main/src/li/communes.csv",
  },
  // swisstopo's official street directory, CH and LI: not on these machines, so not embedded.
  "ch-streets": {
    upstream: [
      "https://data.geo.admin.ch/ch.swisstopo.amtliches-strassenverzeichnis/amtliches-strassenverzeichnis_ch/amtliches-strassenverzeichnis_ch_2056.csv.zip",
      "https://data.geo.admin.ch/ch.swisstopo.amtliches-strassenverzeichnis/amtliches-strassenverzeichnis_li/amtliches-strassenverzeichnis_li_2056.csv.zip",
    ],
    archiveEntry: SWISS_STREETS_ENTRY,
  },
} as const satisfies Record<string, SourceSpec>;

export type SourceName = keyof typeof SOURCES;
export const SOURCE_NAMES = Object.keys(SOURCES) as SourceName[];

/** The sources without an embedded copy (see `SourceSpec.embedded`). */
export type OptionalSourceName = { [K in SourceName]: (typeof SOURCES)[K] extends { readonly embedded: string } ? never : K }[SourceName];
export type RequiredSourceName = Exclude<SourceName, OptionalSourceName>;

export function isSourceName(name: string): name is SourceName {
  return Object.hasOwn(SOURCES, name);
}

export function sourceSpec(name: SourceName): SourceSpec {
  return SOURCES[name];
}

/** Where one source is read from: a file on disk, or one or more URLs (a publisher that splits it, e.g. by province). */
export type SourceLocation = { readonly kind: "file"; readonly path: string } | { readonly kind: "url"; readonly urls: readonly string[] };

export function isUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

/**
 * Every source's location: an override (`--source NAME=PATH|URL`) wins, then the publisher's URL
 * when `remote`, else the embedded copy; none for an optional source neither given nor fetched.
 * Paths are relative to `root`.
 */
export function sourceLocations(root: string, overrides: Readonly<Partial<Record<SourceName, string | readonly string[]>>>, remote = false): Partial<Record<SourceName, SourceLocation>> {
  const locations: Partial<Record<SourceName, SourceLocation>> = {};
  for (const name of SOURCE_NAMES) {
    const spec = sourceSpec(name);
    const value = overrides[name] ?? (remote ? (spec.upstream ?? spec.embedded) : spec.embedded);
    if (value === undefined) continue;
    if (typeof value !== "string") locations[name] = { kind: "url", urls: value };
    else locations[name] = isUrl(value) ? { kind: "url", urls: [value] } : { kind: "file", path: resolve(root, value) };
  }
  return locations;
}
