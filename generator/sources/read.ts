import {
  readAtDistricts,
  readAtMunicipalities,
  readAtStreets,
  type AtDistrictList,
  type AtMunicipalityRow,
  type AtStreetRow,
} from "./at.ts";
import {
  readChCommunes,
  readChDistricts,
  readLocalityRegister,
  type ChCommuneRow,
  type ChDistrictRow,
  type LocalityRow,
} from "./ch.ts";
import { isAgvchSnapshot, readAgvchSnapshot, type AgvchSnapshot } from "./ch-agvch.ts";
import { readGv100ad, type Gv100ad } from "./de-gv100ad.ts";
import { readPostCodes, type PostCodeRow } from "./de-postcodes.ts";
import type { StreetRow } from "./de-streets.ts";
import { readStreetsInHalves } from "./street-halves.ts";
import { readChCantons, readLiCommunes, type ChCantonRow, type LiCommuneRow } from "./lists.ts";
import { disjointKeys } from "./keys.ts";
import type { LoadedSources } from "./load.ts";
import { readSwissStreets, type SwissStreet } from "./ch-streets.ts";
import type { RequiredSourceName, SourceName } from "./registry.ts";

/** Every source's rows, and how each source is named in messages. */
export interface SourceRows {
  readonly labels: Readonly<Record<RequiredSourceName, string>> &
    Readonly<Partial<Record<SourceName, string>>>;
  readonly gv: Gv100ad;
  /** The street list, handed over once: it is the largest source (1.2 million rows nationally), and no one else keeps it. */
  takeStreets(): readonly StreetRow[];
  readonly postCodes: readonly PostCodeRow[];
  readonly atDistricts: AtDistrictList;
  readonly atMunicipalities: readonly AtMunicipalityRow[];
  readonly atStreets: readonly AtStreetRow[];
  readonly chCantons: readonly ChCantonRow[];
  readonly chDistricts: readonly ChDistrictRow[];
  readonly chCommunes: readonly ChCommuneRow[];
  readonly localityRegister: readonly LocalityRow[];
  readonly liCommunes: readonly LiCommuneRow[];
  /** swisstopo's street directory (CH and LI), when the build reads it (an optional source). */
  readonly swissStreets?: readonly SwissStreet[];
}

/** Parses every loaded source with its reader; a defect fails with the source's file and line. */
export async function readRows(loaded: LoadedSources): Promise<SourceRows> {
  const bytes = (name: RequiredSourceName) => loaded[name].bytes;
  const label = (name: RequiredSourceName) => loaded[name].label;
  const swissStreets = loaded["ch-streets"];
  // The three Swiss registers usually come from one BFS snapshot: parsed once per distinct content.
  const snapshots = new Map<string, Promise<AgvchSnapshot>>();
  const snapshot = (name: RequiredSourceName) => {
    const digest = loaded[name].provenance.sha256;
    const parsed = snapshots.get(digest) ?? readAgvchSnapshot(bytes(name), label(name));
    snapshots.set(digest, parsed);
    return parsed;
  };
  /** A Swiss register from the BFS snapshot (one file for all three), or from its GDEHist file. */
  const swiss = async <K extends keyof AgvchSnapshot>(
    name: RequiredSourceName,
    level: K,
    gdeHist: (bytes: Uint8Array, file: string) => Promise<AgvchSnapshot[K]>,
  ) =>
    isAgvchSnapshot(bytes(name))
      ? (await snapshot(name))[level]
      : gdeHist(bytes(name), label(name));
  // The Swiss registers in the order their sources are listed, so a bad snapshot names ch-cantons.
  const chCantons = await swiss("ch-cantons", "cantons", readChCantons);
  const liCommunes = await readLiCommunes(bytes("li-communes"), label("li-communes"));
  const chCommunes = await swiss("ch-communes", "communes", readChCommunes);
  // The joins look a commune up in both registers by its number: one number, one commune.
  disjointKeys(
    "commune number (BFS)",
    { file: label("ch-communes"), rows: chCommunes },
    { file: label("li-communes"), rows: liCommunes },
  );
  let streets: readonly StreetRow[] | undefined = await readStreetsInHalves(
    bytes("de-streets"),
    label("de-streets"),
  );
  return {
    labels: Object.fromEntries(
      Object.values(loaded).map((source) => [source.name, source.label]),
    ) as Record<SourceName, string>,
    gv: readGv100ad(bytes("de-gv100ad"), label("de-gv100ad")),
    takeStreets: () => {
      const rows = streets ?? [];
      streets = undefined;
      return rows;
    },
    postCodes: await readPostCodes(bytes("de-postcodes"), label("de-postcodes")),
    atDistricts: readAtDistricts(bytes("at-districts"), label("at-districts")),
    atMunicipalities: readAtMunicipalities(bytes("at-municipalities"), label("at-municipalities")),
    // The street directory comes in one file per federal province: every part is read.
    atStreets: loaded["at-streets"].parts.flatMap((part) => readAtStreets(part.bytes, part.label)),
    chCantons,
    liCommunes,
    chDistricts: await swiss("ch-districts", "districts", readChDistricts),
    chCommunes,
    localityRegister: await readLocalityRegister(bytes("ch-localities"), label("ch-localities")),
    // The directory comes as two files, Switzerland's and Liechtenstein's: every part is read.
    ...(swissStreets === undefined
      ? {}
      : {
          swissStreets: (
            await Promise.all(
              swissStreets.parts.map((part) => readSwissStreets(part.bytes, part.label)),
            )
          ).flat(),
        }),
  };
}
