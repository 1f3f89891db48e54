import type { FederalState, Street } from "../resources/de.ts";
import type { KeyName, KeyNameType } from "../resources/summaries.ts";
import type { Gv100ad } from "../sources/de-gv100ad.ts";
import type { StreetRow } from "../sources/de-streets.ts";
import { districtKeyOf } from "./de-regions.ts";
import { DUPLICATE, JoinCounter, type JoinReport } from "./join-report.ts";
import { DISTRICT_TYPES, MUNICIPALITY_TYPES } from "./de-types.ts";

export interface StreetJoin {
  readonly streets: Street[];
  /** Unmatched: rows whose regional key is not a GV100AD municipality; `duplicate`: rows identical to an earlier row (merged). */
  readonly report: JoinReport;
}

/** Joins street rows with the municipality register the way OpenPLZ does. */
export function joinStreets(rows: readonly StreetRow[], gv: Gv100ad): StreetJoin {
  const states = new Map(gv.federalStates.map((s) => [s.key, { key: s.key, name: s.name } satisfies KeyName]));
  const districts = new Map(gv.districts.map((d) => [d.key, { key: d.key, name: d.name, type: DISTRICT_TYPES[d.type] ?? "" } satisfies KeyNameType]));
  const municipalities = new Map(gv.municipalities.map((m) => [m.key, { key: m.key, name: m.name, type: MUNICIPALITY_TYPES[m.type] ?? "" } satisfies KeyNameType]));
  const streets: Street[] = [];
  const seen = new Set<string>();
  const counter = new JoinCounter("de-streets", "GV100AD municipalities by RegionalKey");
  for (const row of rows) {
    const municipality = municipalities.get(row.regionalKey);
    const federalState = states.get(row.regionalKey.slice(0, 2));
    if (municipality === undefined || federalState === undefined) {
      counter.skip("unmatched");
      continue;
    }
    const identity = [row.name, row.postalCode, row.locality, row.regionalKey, row.borough, row.suburb].join("\u0000");
    if (seen.has(identity)) {
      counter.skip(DUPLICATE);
      continue;
    }
    seen.add(identity);
    counter.join();
    const district = districts.get(districtKeyOf(row.regionalKey) ?? "");
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
  return { streets, report: counter.report() };
}

export function federalStatesOf(gv: Gv100ad): FederalState[] {
  return gv.federalStates.map((s) => ({ key: s.key, name: s.name, seatOfGovernment: s.seatOfGovernment }));
}
