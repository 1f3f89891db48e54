import { resolve } from "node:path";
import { agvchSnapshotUrl } from "./ch-agvch.ts";
import { SWISS_STREETS_ENTRY } from "./ch-streets.ts";
import { GV100AD_ENTRY, GV100AD_LISTING } from "./de-gv100ad-editions.ts";
import type { EditionListing } from "./editions.ts";

/** A source a build reads: its embedded copy (the default) and where its publisher releases it. */
export interface SourceSpec {
  /**
   * The embedded copy, relative to the project root. None for an optional source: a build reads
   * it only when it is given (`--source`) or fetched (`--remote`), and serves the resources it
   * feeds only then.
   */
  readonly embedded?: string;
  /**
   * Where the publisher releases it, fetched with `--remote`: one or more fixed URLs (a publisher
   * that splits a source, e.g. by province), a URL of the build's date, or the newest edition found
   * on the publisher's listing page. Without one, `--remote` fails unless `--allow-embedded` names
   * the source.
   */
  readonly upstream?: string | readonly string[] | ((today: Date) => string) | EditionListing;
  /** Why a source has no upstream yet, and where it would come from. */
  readonly noUpstream?: string;
  /** For a zip archive: the entry that holds the data (the archive's own name changes per edition). */
  readonly archiveEntry?: RegExp;
}

export const SOURCES = {
  "de-streets": {
    embedded: "data/de/streets-berlin.csv",
    upstream:
      "https://raw.githubusercontent.com/openpotato/openplzapi.data/refs/heads/main/src/de/osm/streets.updated.csv",
  },
  "de-gv100ad": {
    embedded: "data/de/GV100AD_30112025.txt",
    // Destatis names each edition after its reference day (GV100AD3011.zip): the newest is found on the listing.
    upstream: GV100AD_LISTING,
    archiveEntry: GV100AD_ENTRY,
  },
  "de-postcodes": {
    embedded: "data/de/post_code.csv",
    upstream:
      "https://raw.githubusercontent.com/Schoenfeld-Solutions/open-postal-codes/refs/heads/main/data/public/v1/de/post_code.csv",
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
    upstream: [1, 2, 3, 4, 5, 6, 7, 8, 9].map(
      (province) => `https://www.statistik.at/verzeichnis/strassenliste/gemplzstr_${province}.csv`,
    ),
  },
  // The BFS snapshot holds cantons, districts and communes in one file: the three sources download it once.
  "ch-cantons": { embedded: "data/ch/GDEHist_KT.txt", upstream: agvchSnapshotUrl },
  "ch-districts": { embedded: "data/ch/GDEHist_BEZ.txt", upstream: agvchSnapshotUrl },
  "ch-communes": { embedded: "data/ch/GDEHist_GDE.txt", upstream: agvchSnapshotUrl },
  "ch-localities": {
    embedded: "data/ch/AMTOVZ_CSV_LV95.csv",
    upstream:
      "https://data.geo.admin.ch/ch.swisstopo-vd.ortschaftenverzeichnis_plz/ortschaftenverzeichnis_plz/ortschaftenverzeichnis_plz_2056.csv.zip",
    archiveEntry: /(^|\/)AMTOVZ_CSV_LV95\.csv$/i,
  },
  "li-communes": {
    embedded: "data/li/communes.csv",
    upstream:
      "https://raw.githubusercontent.com/openpotato/openplzapi.data/refs/heads/main/src/li/communes.csv",
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
export type OptionalSourceName = {
  [K in SourceName]: (typeof SOURCES)[K] extends { readonly embedded: string } ? never : K;
}[SourceName];
export type RequiredSourceName = Exclude<SourceName, OptionalSourceName>;

export function isSourceName(name: string): name is SourceName {
  return Object.hasOwn(SOURCES, name);
}

export function sourceSpec(name: SourceName): SourceSpec {
  return SOURCES[name];
}

/**
 * Where one source is read from: a file on disk, one or more URLs (a publisher that splits it, e.g.
 * by province), or the newest edition on a publisher's listing page. `embedded`: the embedded copy
 * of a remote build, by `--allow-embedded`.
 */
export type SourceLocation =
  | { readonly kind: "file"; readonly path: string; readonly embedded?: true }
  | { readonly kind: "url"; readonly urls: readonly string[] }
  | {
      readonly kind: "listing";
      readonly listing: EditionListing;
      readonly today: Date;
      readonly mirror: (url: string) => string;
    };

export function isUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

export interface LocationOptions {
  /** Fetch every source not overridden from its publisher. */
  readonly remote?: boolean;
  /** Sources a remote build reads from their embedded copy (the operator opted in). */
  readonly allowEmbedded?: readonly SourceName[];
  /** A stand-in for every publisher: `https://host/path` is fetched as `{mirror}/host/path` (tests, internal mirrors). */
  readonly mirror?: string;
  /** The build's date: the date of a dated download (the BFS snapshot), the newest edition allowed. */
  readonly today?: Date;
}

/**
 * Every source's location: an override (`--source NAME=PATH|URL`) wins, then (when `remote`) the
 * publisher's, else the embedded copy; none for an optional source neither given nor fetched. A
 * remote build fails for a source without a publisher's location unless `allowEmbedded` names it.
 * Paths are relative to `root`.
 */
export function sourceLocations(
  root: string,
  overrides: Readonly<Partial<Record<SourceName, string | readonly string[]>>>,
  options: LocationOptions = {},
): Partial<Record<SourceName, SourceLocation>> {
  const locations: Partial<Record<SourceName, SourceLocation>> = {};
  const mirror = mirrorOf(options.mirror);
  const today = options.today ?? new Date();
  for (const name of SOURCE_NAMES) {
    const override = overrides[name];
    const spec = sourceSpec(name);
    if (override !== undefined) locations[name] = at(override, root);
    else if (options.remote !== true) {
      if (spec.embedded !== undefined)
        locations[name] = { kind: "file", path: resolve(root, spec.embedded) };
    } else if (options.allowEmbedded?.includes(name) === true) {
      if (spec.embedded === undefined)
        throw new Error(`--allow-embedded ${name}: the source has no embedded copy`);
      locations[name] = { kind: "file", path: resolve(root, spec.embedded), embedded: true };
    } else locations[name] = upstreamLocation(name, spec, today, mirror);
  }
  return locations;
}

function at(value: string | readonly string[], root: string): SourceLocation {
  if (typeof value !== "string") return { kind: "url", urls: value };
  return isUrl(value)
    ? { kind: "url", urls: [value] }
    : { kind: "file", path: resolve(root, value) };
}

/** The publisher's location of a source (through the mirror, if any); a source without one fails the remote build. */
export function upstreamLocation(
  name: string,
  spec: SourceSpec,
  today: Date,
  mirror: (url: string) => string = (url) => url,
): SourceLocation {
  const { upstream } = spec;
  if (upstream === undefined) {
    throw new Error(
      `--remote: source ${name} has no reader for its publisher's files (${spec.noUpstream ?? "no upstream recorded"}); --allow-embedded ${name} builds it from ${spec.embedded}`,
    );
  }
  if (typeof upstream === "function") return { kind: "url", urls: [mirror(upstream(today))] };
  if (typeof upstream === "string") return { kind: "url", urls: [mirror(upstream)] };
  if ("listing" in upstream) return { kind: "listing", listing: upstream, today, mirror };
  return { kind: "url", urls: upstream.map(mirror) };
}

/** `https://host/path?q` → `{mirror}/host/path?q`; without a mirror, the URL itself. */
export function mirrorOf(mirror: string | undefined): (url: string) => string {
  if (mirror === undefined) return (url) => url;
  const base = mirror.replace(/\/+$/, "");
  return (url) => `${base}/${url.replace(/^https?:\/\//i, "")}`;
}
