import {
  GOVERNMENT_REGION_KEY,
  type DeLocalityRecord,
  type DeMunicipality,
  type Street,
} from "../resources/de.ts";
import type { Gv100ad, GvTypedArea } from "../sources/de-gv100ad.ts";
import type { PostCodeRow } from "../sources/de-postcodes.ts";
import { closestMatches, officialShortName } from "./de-names.ts";
import { MUNICIPALITY_TYPES, UNINHABITED } from "./de-types.ts";
import { placeTownParts, siblingsKey, type TownPart } from "./de-town-parts.ts";
import { JoinCounter, type JoinReport, type Renaming, type SkippedRow } from "./join-report.ts";

/**
 * German localities (postal code + place name + municipality) from the best data there is:
 * - where the street list has a postal code, its (postal code, locality, municipality) triples:
 *   exact, with the municipality's official key;
 * - elsewhere Open Postal Codes (`post_code.csv`, OSM-derived), whose places have no municipality
 *   key: a place is joined to the GV100AD municipality of its name **within the row's county**
 *   (its district; within the state only where the source gives no county, as for Hamburg). A row
 *   whose county is no GV100AD district, or whose name matches no municipality of that district
 *   or several, is skipped and reported: a place is never joined across districts.
 * A joined place is served under the municipality's official name without its suffix (GV100AD
 * `Frankfurt (Oder), Stadt` for the source's `Frankfurt`, `Halle (Saale)` for `Halle/ Saale`), as
 * the original's OSM-derived names are; each such renaming is reported. A row whose name is no
 * municipality of its county (a town part) is placed by de-town-parts.ts's rules where one fits.
 * The street list covers a postal code only in its own states: a code Berlin shares with
 * Brandenburg keeps its Brandenburg towns.
 */
export interface LocalityJoin {
  readonly localities: DeLocalityRecord[];
  readonly report: JoinReport;
}

export const COVERED_BY_STREETS = "covered by the street list";

export function joinLocalities(
  streets: readonly Street[],
  postCodes: readonly PostCodeRow[],
  municipalities: readonly DeMunicipality[],
  gv: Gv100ad,
): LocalityJoin {
  const localities = new Map<string, DeLocalityRecord>();
  const add = (postalCode: string, name: string, municipality: DeMunicipality) => {
    const id = `${postalCode}\u0000${name}\u0000${municipality.key}`;
    if (!localities.has(id)) localities.set(id, localityOf(postalCode, name, municipality));
  };

  const byKey = new Map(municipalities.map((m) => [m.key, m]));
  // The postal codes the street list covers, per state: the street list is complete for those.
  const streetCodes = new Set<string>();
  // The localities seen, by municipality and postal code: a place is looked at once, not once per street.
  const seen = new Map<DeMunicipality, Map<string, Set<string>>>();
  for (const street of streets) {
    const municipality = byKey.get(street.municipality.key);
    if (municipality === undefined) continue;
    let codes = seen.get(municipality);
    if (codes === undefined) seen.set(municipality, (codes = new Map()));
    let names = codes.get(street.postalCode);
    if (names === undefined) {
      codes.set(street.postalCode, (names = new Set()));
      streetCodes.add(`${street.postalCode}\u0000${municipality.federalState.key}`);
    }
    if (names.has(street.locality)) continue;
    names.add(street.locality);
    add(street.postalCode, street.locality, municipality);
  }

  const scopes = new Scopes(gv, municipalities);
  const joinedByCode = new Map<string, Set<string>>();
  const townParts: { part: TownPart; row: PostCodeRow; where: string }[] = [];
  const counter = new JoinCounter(
    "de-postcodes",
    "GV100AD municipalities by name within the row's county (district)",
  );
  const renamed: Renaming[] = [];
  const skipped: SkippedRow[] = [];
  let crossDistrict = 0;
  for (const row of postCodes) {
    if (streetCodes.has(`${row.postalCode}\u0000${scopes.stateOf(row) ?? ""}`)) {
      counter.skip(COVERED_BY_STREETS);
      continue;
    }
    const name = row.city.replace(/\s+u\.\s?a\.$/, "");
    const skip = (cause: SkippedRow["cause"], detail: string) => {
      counter.skip(cause);
      skipped.push({
        postalCode: row.postalCode,
        name: row.city,
        county: row.county,
        cause,
        detail,
      });
    };
    const scope = scopes.of(row);
    if ("cause" in scope) {
      skip(scope.cause, scope.detail);
      continue;
    }
    const found = closestMatches(name, scope.municipalities, (m) => m.name);
    const municipality = found[0];
    if (municipality === undefined)
      townParts.push({
        row,
        where: scope.where,
        part: {
          postalCode: row.postalCode,
          name,
          district: scope.district ?? scope.where,
          municipalities: scope.municipalities,
        },
      });
    else if (found.length > 1)
      skip(
        "ambiguous",
        `${found.length} municipalities of that name in ${scope.where}: ${found.map((m) => m.key).join(", ")}`,
      );
    else {
      counter.join();
      if (scope.district !== undefined && !municipality.key.startsWith(scope.district))
        crossDistrict++;
      const official = officialShortName(municipality.name);
      if (official !== row.city)
        renamed.push({
          postalCode: row.postalCode,
          from: row.city,
          to: official,
          municipalityKey: municipality.key,
        });
      add(row.postalCode, official, municipality);
      const id = siblingsKey(row.postalCode, scope.district ?? scope.where);
      joinedByCode.set(id, (joinedByCode.get(id) ?? new Set()).add(municipality.key));
    }
  }
  const placement = placeTownParts(
    townParts.map((t) => t.part),
    joinedByCode,
    byKey,
  );
  const sourceOf = new Map(townParts.map((t) => [t.part, t]));
  for (const { part, municipality, via } of placement.placed) {
    counter.join();
    const official = officialShortName(municipality.name);
    renamed.push({
      postalCode: part.postalCode,
      from: sourceOf.get(part)?.row.city ?? part.name,
      to: official,
      municipalityKey: municipality.key,
      placedBy: via,
    });
    add(part.postalCode, official, municipality);
  }
  for (const part of placement.unplaced) {
    const source = sourceOf.get(part);
    counter.skip("unmatched");
    skipped.push({
      postalCode: part.postalCode,
      name: source?.row.city ?? part.name,
      county: source?.row.county ?? "",
      cause: "unmatched",
      detail: `no municipality of that name in ${source?.where ?? part.district}, and no town-part rule places it`,
    });
  }
  return {
    localities: [...localities.values()],
    report: counter.report({ crossDistrict, renamed, skipped }),
  };
}

function localityOf(
  postalCode: string,
  name: string,
  municipality: DeMunicipality,
): DeLocalityRecord {
  return {
    postalCode,
    name,
    municipality: { key: municipality.key, name: municipality.name, type: municipality.type },
    ...(municipality.district === undefined ? {} : { district: municipality.district }),
    federalState: municipality.federalState,
    ...(municipality.governmentRegion === undefined
      ? {}
      : { [GOVERNMENT_REGION_KEY]: municipality.governmentRegion.key }),
  };
}

type Scope =
  | {
      readonly municipalities: readonly DeMunicipality[];
      readonly where: string;
      readonly district?: string;
    }
  | { readonly cause: SkippedRow["cause"]; readonly detail: string };

/** District-free cities (Kreisfreie Stadt, Stadtkreis): what a county without "Landkreis"/"Kreis" names when a Landkreis has the same name. */
const CITY_TYPES = new Set([41, 42]);
const LANDKREIS = /^(landkreis|kreis)\s+/i;

/** Where a row's place may lie: the municipalities of its county's district, or of its state without a county. */
class Scopes {
  private readonly states: ReadonlyMap<string, string>;
  private readonly districts = new Map<string, GvTypedArea[]>();
  private readonly byDistrict = new Map<string, DeMunicipality[]>();
  private readonly byState = new Map<string, DeMunicipality[]>();
  /** A county's districts, worked out once per state and county (a few hundred, for thousands of rows). */
  private readonly counties = new Map<string, GvTypedArea[]>();

  constructor(gv: Gv100ad, municipalities: readonly DeMunicipality[]) {
    this.states = new Map(gv.federalStates.map((s) => [s.name, s.key]));
    for (const d of gv.districts) push(this.districts, d.key.slice(0, 2), d);
    // By key: Berlin's and Hamburg's municipality has no district (00), but lies in GV100AD's 11000 and 02000.
    // An uninhabited area is no place anyone's postal code names.
    for (const m of municipalities) {
      if (m.type === MUNICIPALITY_TYPES[UNINHABITED]) continue;
      push(this.byDistrict, m.key.slice(0, 5), m);
      push(this.byState, m.federalState.key, m);
    }
  }

  stateOf(row: PostCodeRow): string | undefined {
    return this.states.get(row.state);
  }

  of(row: PostCodeRow): Scope {
    const state = this.states.get(row.state);
    if (state === undefined)
      return { cause: "unmatched", detail: `state '${row.state}' is no GV100AD federal state` };
    if (row.county === "")
      return {
        municipalities: this.byState.get(state) ?? [],
        where: `state ${state} ${row.state} (the row names no county)`,
      };
    const id = `${state}\u0000${row.county}`;
    let districts = this.counties.get(id);
    if (districts === undefined)
      this.counties.set(
        id,
        (districts = this.countyDistricts(row.county, this.districts.get(state) ?? [])),
      );
    const [district] = districts;
    if (district === undefined)
      return {
        cause: "unmatched",
        detail: `county '${row.county}' is no GV100AD district of ${row.state}`,
      };
    if (districts.length > 1)
      return {
        cause: "ambiguous",
        detail: `county '${row.county}' names ${districts.length} districts: ${districts.map((d) => d.key).join(", ")}`,
      };
    return {
      municipalities: this.byDistrict.get(district.key) ?? [],
      where: `district ${district.key} ${district.name}`,
      district: district.key,
    };
  }

  /**
   * The district a county names: `Landkreis …` (or `Kreis …`) a Landkreis, a bare name the city
   * of that name where there is one, else the district of that name; either side of a bilingual
   * `Cottbus - Chóśebuz`.
   */
  private countyDistricts(county: string, districts: readonly GvTypedArea[]): GvTypedArea[] {
    for (const variant of [county, ...county.split(" - ")]) {
      if (LANDKREIS.test(variant)) {
        // `Landkreis Rostock` is GV100AD's own name; `Landkreis München` is the Landkreis named `München`.
        const whole = closestMatches(variant, districts, (d) => d.name);
        const found =
          whole.length > 0
            ? whole
            : closestMatches(
                variant.replace(LANDKREIS, ""),
                districts.filter((d) => !CITY_TYPES.has(d.type)),
                (d) => d.name,
              );
        if (found.length > 0) return found;
        continue;
      }
      // A bare name is the city where a city has it, however GV100AD qualifies the city (`Oldenburg` is `Oldenburg (Oldb), Stadt`, not the Landkreis `Oldenburg`).
      const cities = closestMatches(
        variant,
        districts.filter((d) => CITY_TYPES.has(d.type)),
        (d) => d.name,
      );
      const found = cities.length > 0 ? cities : closestMatches(variant, districts, (d) => d.name);
      if (found.length > 0) return found;
    }
    return [];
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
