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

/**
 * Joins street rows with the municipality register the way OpenPLZ does. Rows are taken
 * municipality by municipality (a duplicate row is always within one), so the set of rows seen
 * stays small however large the list.
 */
export function joinStreets(rows: readonly StreetRow[], gv: Gv100ad): StreetJoin {
  const states = new Map(
    gv.federalStates.map((s) => [s.key, { key: s.key, name: s.name } satisfies KeyName]),
  );
  const districts = new Map(
    gv.districts.map((d) => [
      d.key,
      { key: d.key, name: d.name, type: DISTRICT_TYPES[d.type] ?? "" } satisfies KeyNameType,
    ]),
  );
  const municipalities = new Map(
    gv.municipalities.map((m) => [
      m.key,
      { key: m.key, name: m.name, type: MUNICIPALITY_TYPES[m.type] ?? "" } satisfies KeyNameType,
    ]),
  );
  const byMunicipality = new Map<string, StreetRow[]>();
  for (const row of rows) {
    const group = byMunicipality.get(row.regionalKey);
    if (group === undefined) byMunicipality.set(row.regionalKey, [row]);
    else group.push(row);
  }
  const streets: Street[] = [];
  const counter = new JoinCounter("de-streets", "GV100AD municipalities by RegionalKey");
  for (const [regionalKey, group] of byMunicipality) {
    const municipality = municipalities.get(regionalKey);
    const federalState = states.get(regionalKey.slice(0, 2));
    if (municipality === undefined || federalState === undefined) {
      for (let i = 0; i < group.length; i++) counter.skip("unmatched");
      continue;
    }
    const district = districts.get(districtKeyOf(regionalKey) ?? "");
    const seen = new SeenStreets();
    for (const row of group) {
      if (seen.repeats(row)) {
        counter.skip(DUPLICATE);
        continue;
      }
      counter.join();
      streets.push(streetOf(row, municipality, district, federalState));
    }
  }
  return { streets, report: counter.report() };
}

/**
 * The rows of one municipality seen so far, by name: a row is compared field by field with the
 * earlier rows of its name, so no key string is made per row (a national list's 1.2 million), and a
 * name with many rows keeps their keys in a set instead, so that a list of one name stays linear.
 */
class SeenStreets {
  private readonly byName = new Map<string, StreetRow[] | Set<string>>();

  /** Whether an earlier row was the same street (then this one is a duplicate); else remembers it. */
  repeats(row: StreetRow): boolean {
    const earlier = this.byName.get(row.name);
    if (earlier === undefined) {
      this.byName.set(row.name, [row]);
      return false;
    }
    if (Array.isArray(earlier)) {
      if (earlier.some((other) => sameStreet(other, row))) return true;
      if (earlier.length < ROWS_COMPARED) earlier.push(row);
      else this.byName.set(row.name, new Set([...earlier, row].map(streetKey)));
      return false;
    }
    const key = streetKey(row);
    if (earlier.has(key)) return true;
    earlier.add(key);
    return false;
  }
}

/** Rows of one name compared in turn before their keys go into a set. */
const ROWS_COMPARED = 16;

/** Whether two rows of one name are the same street (a missing borough or suburb is an empty one). */
function sameStreet(a: StreetRow, b: StreetRow): boolean {
  return (
    a.postalCode === b.postalCode &&
    a.locality === b.locality &&
    (a.borough ?? "") === (b.borough ?? "") &&
    (a.suburb ?? "") === (b.suburb ?? "")
  );
}

const streetKey = (row: StreetRow): string =>
  `${row.postalCode}\u0000${row.locality}\u0000${row.borough ?? ""}\u0000${row.suburb ?? ""}`;

/** A street record with its properties in the JSON order, the optional ones only when present (assigned in turn: no spread objects per row). */
function streetOf(
  row: StreetRow,
  municipality: KeyNameType,
  district: KeyNameType | undefined,
  federalState: KeyName,
): Street {
  const street = { name: row.name, postalCode: row.postalCode, locality: row.locality } as {
    -readonly [K in keyof Street]: Street[K];
  };
  if (row.borough !== undefined) street.borough = row.borough;
  if (row.suburb !== undefined) street.suburb = row.suburb;
  street.municipality = municipality;
  if (district !== undefined) street.district = district;
  street.federalState = federalState;
  return street;
}

export function federalStatesOf(gv: Gv100ad): FederalState[] {
  return gv.federalStates.map((s) => ({
    key: s.key,
    name: s.name,
    seatOfGovernment: s.seatOfGovernment,
  }));
}
