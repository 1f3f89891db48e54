import type { ChCanton } from "../resources/at-ch-li.ts";
import {
  DISTRICT_HISTORICAL_CODE,
  type ChCommuneRecord,
  type ChDistrict,
  type ChLocalityRecord,
  type KeyNameShort,
  type LiLocality,
} from "../resources/ch-li.ts";
import type { ChCommuneRow, ChDistrictRow, LocalityRow } from "../sources/ch.ts";
import type { ChCantonRow, LiCommuneRow } from "../sources/lists.ts";
import { DUPLICATE, JoinCounter, type JoinReport } from "./join-report.ts";
import { lv95ToWgs84 } from "./lv95.ts";

/** Type number of a political commune in GDEHist (12 and 13 are areas without commune and lake shares). */
export const POLITICAL_COMMUNE = 11;

/** Cause of a skipped GDEHist entry that is no political commune. */
export const NOT_A_COMMUNE = "not a political commune";

export interface ChRegister {
  readonly cantons: ChCanton[];
  readonly districts: ChDistrict[];
  readonly communes: ChCommuneRecord[];
  /** The districts joined to their canton: unmatched when it is not in the canton list (none in a consistent register). */
  readonly districtReport: JoinReport;
  /** The communes in force joined to their district and canton: unmatched when that is not in force (none in a consistent register). */
  readonly report: JoinReport;
}

/**
 * Cantons, districts and political communes in force today, each with its canton (and
 * district). A canton's historical code is its number: the register gives cantons no other, and
 * districts refer to their canton by it.
 */
export function chRegisterOf(
  cantonRows: readonly ChCantonRow[],
  districtRows: readonly ChDistrictRow[],
  communeRows: readonly ChCommuneRow[],
): ChRegister {
  const cantonByKey = new Map(
    cantonRows.map((c) => [
      c.key,
      { key: c.key, name: c.name, shortName: c.shortName } satisfies KeyNameShort,
    ]),
  );
  const cantonByShort = new Map([...cantonByKey.values()].map((c) => [c.shortName, c]));
  const districts: ChDistrict[] = [];
  const districtByHistory = new Map<string, ChDistrict>();
  const districtJoin = new JoinCounter("ch-districts", "cantons by number");
  for (const row of districtRows) {
    const canton = cantonByKey.get(row.cantonKey);
    if (canton === undefined) {
      districtJoin.skip("unmatched");
      continue;
    }
    districtJoin.join();
    const district = {
      key: row.key,
      historicalCode: row.historicalCode,
      name: row.name,
      shortName: row.shortName,
      canton,
    };
    districts.push(district);
    districtByHistory.set(row.historicalCode, district);
  }
  const communes: ChCommuneRecord[] = [];
  const counter = new JoinCounter(
    "ch-communes",
    "districts and cantons in force by the district's historical number",
  );
  for (const row of communeRows) {
    if (row.type !== POLITICAL_COMMUNE) {
      counter.skip(NOT_A_COMMUNE);
      continue;
    }
    const district = districtByHistory.get(row.districtHistoricalCode);
    const canton = cantonByShort.get(row.cantonShortName);
    if (district === undefined || canton === undefined) {
      counter.skip("unmatched");
      continue;
    }
    counter.join();
    communes.push({
      key: row.key,
      historicalCode: row.historicalCode,
      name: row.name,
      shortName: row.shortName,
      district: { key: district.key, name: district.name, shortName: district.shortName },
      canton,
      [DISTRICT_HISTORICAL_CODE]: district.historicalCode,
    });
  }
  const cantons = cantonRows.map((c) => ({
    key: c.key,
    historicalCode: c.key,
    name: c.name,
    shortName: c.shortName,
  }));
  return {
    cantons,
    districts,
    communes,
    districtReport: districtJoin.report(),
    report: counter.report(),
  };
}

export interface LocalitiesJoin {
  readonly ch: ChLocalityRecord[];
  readonly li: LiLocality[];
  /** Rows joined to the communes in force by BFS number (unmatched: the number is no commune in force); `duplicate`: a row with the postal code, name and commune of an earlier one. */
  readonly report: JoinReport;
}

/**
 * The locality register's rows, split into Switzerland and Liechtenstein, joined with their
 * communes; one record per postal code, name and commune, with its point in WGS84.
 */
export function localitiesOf(
  rows: readonly LocalityRow[],
  communes: readonly ChCommuneRecord[],
  liCommunes: readonly LiCommuneRow[],
): LocalitiesJoin {
  const ch = new Map(communes.map((c) => [c.key, c]));
  const li = new Map(liCommunes.map((c) => [c.key, c]));
  const seen = new Set<string>();
  const result: { ch: ChLocalityRecord[]; li: LiLocality[] } = { ch: [], li: [] };
  const counter = new JoinCounter(
    "ch-localities",
    "communes in force (and Liechtenstein's) by BFS number",
  );
  for (const row of rows) {
    const id = `${row.postalCode}\u0000${row.name}\u0000${row.communeKey}`;
    if (seen.has(id)) {
      counter.skip(DUPLICATE);
      continue;
    }
    seen.add(id);
    const liCommune = li.get(row.communeKey);
    const commune = ch.get(row.communeKey);
    const { latitude, longitude } = lv95ToWgs84(row.east, row.north);
    if (liCommune !== undefined)
      result.li.push({
        postalCode: row.postalCode,
        name: row.name,
        commune: { key: liCommune.key, name: liCommune.name },
        latitude,
        longitude,
      });
    else if (commune !== undefined) {
      const { district, canton } = commune;
      result.ch.push({
        postalCode: row.postalCode,
        name: row.name,
        commune: { key: commune.key, name: commune.name, shortName: commune.shortName },
        district,
        canton,
        latitude,
        longitude,
        [DISTRICT_HISTORICAL_CODE]: commune[DISTRICT_HISTORICAL_CODE],
      });
    } else {
      counter.skip("unmatched");
      continue;
    }
    counter.join();
  }
  return { ...result, report: counter.report() };
}
