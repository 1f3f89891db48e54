import type { FederalState, Street } from "../resources/de.ts";
import type { KeyName, KeyNameType } from "../resources/summaries.ts";
import type { Gv100ad } from "../sources/de-gv100ad.ts";
import type { StreetRow } from "../sources/de-streets.ts";
import { DISTRICT_TYPES, MUNICIPALITY_TYPES } from "./de-types.ts";

export interface StreetJoin {
  readonly streets: Street[];
  /** Rows whose regional key is not a GV100AD municipality: skipped, counted, and reported. */
  readonly unknownRegionalKeys: number;
  /** Rows identical to an earlier row: one record each. */
  readonly duplicateRows: number;
}

/** Joins street rows with the municipality register the way OpenPLZ does. */
export function joinStreets(rows: readonly StreetRow[], gv: Gv100ad): StreetJoin {
  const states = new Map(gv.federalStates.map((s) => [s.key, { key: s.key, name: s.name } satisfies KeyName]));
  const districts = new Map(gv.districts.map((d) => [d.key, { key: d.key, name: d.name, type: DISTRICT_TYPES[d.type] ?? "" } satisfies KeyNameType]));
  const municipalities = new Map(gv.municipalities.map((m) => [m.key, { key: m.key, name: m.name, type: MUNICIPALITY_TYPES[m.type] ?? "" } satisfies KeyNameType]));
  const streets: Street[] = [];
  const seen = new Set<string>();
  let unknownRegionalKeys = 0;
  let duplicateRows = 0;
  for (const row of rows) {
    const municipality = municipalities.get(row.regionalKey);
    const federalState = states.get(row.regionalKey.slice(0, 2));
    if (municipality === undefined || federalState === undefined) {
      unknownRegionalKeys++;
      continue;
    }
    const identity = [row.name, row.postalCode, row.locality, row.regionalKey, row.borough, row.suburb].join("\u0000");
    if (seen.has(identity)) {
      duplicateRows++;
      continue;
    }
    seen.add(identity);
    const district = districtOf(row.regionalKey, districts);
    streets.push({
      name: row.name,
      postalCode: row.postalCode,
      locality: row.locality,
      ...(row.borough === undefined ? {} : { borough: row.borough }),
      ...(row.suburb === undefined ? {} : { suburb: row.suburb }),
      municipality,
      ...(district === undefined ? {} : { district }),
      federalState,
    });
  }
  return { streets, unknownRegionalKeys, duplicateRows };
}

/** A municipality lies in a district unless its key's district digits are "00" (Berlin, Hamburg). */
function districtOf(regionalKey: string, districts: ReadonlyMap<string, KeyNameType>): KeyNameType | undefined {
  return regionalKey.slice(3, 5) === "00" ? undefined : districts.get(regionalKey.slice(0, 5));
}

export function federalStatesOf(gv: Gv100ad): FederalState[] {
  return gv.federalStates.map((s) => ({ key: s.key, name: s.name, seatOfGovernment: s.seatOfGovernment }));
}
