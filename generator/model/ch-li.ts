import type { ChCommune, ChDistrict, ChLocality, KeyNameShort, LiLocality } from "../resources/ch-li.ts";
import type { ChCommuneRow, ChDistrictRow, LocalityRow } from "../sources/ch.ts";
import type { ChCantonRow, LiCommuneRow } from "../sources/lists.ts";

/** Type number of a political commune in GDEHist (12 and 13 are areas without commune and lake shares). */
export const POLITICAL_COMMUNE = 11;

export interface ChRegister {
  readonly districts: ChDistrict[];
  readonly communes: ChCommune[];
  /** District rows whose canton is not in the canton list (none in a consistent register): skipped. */
  readonly districtsWithoutCanton: number;
  /** Political communes in force (the rows the commune join considers). */
  readonly politicalCommunes: number;
  /** Communes in force whose district is not in force (none in a consistent register): skipped. */
  readonly orphans: number;
}

/** Districts and political communes in force today, each with its canton (and district). */
export function chRegisterOf(cantons: readonly ChCantonRow[], districtRows: readonly ChDistrictRow[], communeRows: readonly ChCommuneRow[]): ChRegister {
  const cantonByKey = new Map(cantons.map((c) => [c.key, { key: c.key, name: c.name, shortName: c.shortName } satisfies KeyNameShort]));
  const cantonByShort = new Map(cantons.map((c) => [c.shortName, { key: c.key, name: c.name, shortName: c.shortName } satisfies KeyNameShort]));
  const districts: ChDistrict[] = [];
  const districtByHistory = new Map<string, ChDistrict>();
  let districtsWithoutCanton = 0;
  for (const row of districtRows) {
    const canton = cantonByKey.get(row.cantonKey);
    if (canton === undefined) {
      districtsWithoutCanton++;
      continue;
    }
    const district = { key: row.key, historicalCode: row.historicalCode, name: row.name, shortName: row.shortName, canton };
    districts.push(district);
    districtByHistory.set(row.historicalCode, district);
  }
  const communes: ChCommune[] = [];
  let orphans = 0;
  let politicalCommunes = 0;
  for (const row of communeRows) {
    if (row.type !== POLITICAL_COMMUNE) continue;
    politicalCommunes++;
    const district = districtByHistory.get(row.districtHistoricalCode);
    const canton = cantonByShort.get(row.cantonShortName);
    if (district === undefined || canton === undefined) {
      orphans++;
      continue;
    }
    communes.push({ key: row.key, historicalCode: row.historicalCode, name: row.name, shortName: row.shortName, district: { key: district.key, name: district.name, shortName: district.shortName }, canton });
  }
  return { districts, communes, districtsWithoutCanton, politicalCommunes, orphans };
}

export interface LocalitiesJoin {
  readonly ch: ChLocality[];
  readonly li: LiLocality[];
  /** Rows whose commune number is no commune in force: skipped. */
  readonly unknownCommunes: number;
}

/** The locality register's rows, split into Switzerland and Liechtenstein, joined with their communes; one record per postal code, name and commune. */
export function localitiesOf(rows: readonly LocalityRow[], communes: readonly ChCommune[], liCommunes: readonly LiCommuneRow[]): LocalitiesJoin {
  const ch = new Map(communes.map((c) => [c.key, c]));
  const li = new Map(liCommunes.map((c) => [c.key, c]));
  const seen = new Set<string>();
  const result: { ch: ChLocality[]; li: LiLocality[] } = { ch: [], li: [] };
  let unknownCommunes = 0;
  for (const row of rows) {
    const id = `${row.postalCode}\u0000${row.name}\u0000${row.communeKey}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const liCommune = li.get(row.communeKey);
    const commune = ch.get(row.communeKey);
    if (liCommune !== undefined) result.li.push({ postalCode: row.postalCode, name: row.name, commune: { key: liCommune.key, name: liCommune.name } });
    else if (commune !== undefined) {
      result.ch.push({ postalCode: row.postalCode, name: row.name, commune: { key: commune.key, name: commune.name, shortName: commune.shortName }, district: commune.district, canton: commune.canton });
    } else unknownCommunes++;
  }
  return { ...result, unknownCommunes };
}
