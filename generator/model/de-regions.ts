import {
  GOVERNMENT_REGION_KEY,
  type DeDistrict,
  type DeGovernmentRegion,
  type DeMunicipalAssociationRecord,
  type DeMunicipality,
} from "../resources/de.ts";
import type { KeyName, KeyNameType } from "../resources/summaries.ts";
import type { Gv100ad } from "../sources/de-gv100ad.ts";
import { ASSOCIATION_TYPES, DISTRICT_TYPES, MUNICIPALITY_TYPES } from "./de-types.ts";

/** GV100AD type code of an entry that is no association: a municipality without one (verbandsfrei). */
export const NOT_AN_ASSOCIATION = 50;

/**
 * The GV100AD hierarchy as the API serves it. A unit's parents come from its regional key:
 * federal state = digits 1–2, government region = digits 1–3 (when GV100AD has that type-20
 * record; states without government regions have none), district = digits 1–5 unless digits 4–5
 * are `00` (see `districtKeyOf`), association = digits 1–5 plus the municipality's four
 * association digits, when that type-50 record is a real association (type 51–58; type 50
 * "verbandsfreie Gemeinde" is not one).
 */
export interface DeRegions {
  readonly governmentRegions: DeGovernmentRegion[];
  readonly districts: DeDistrict[];
  readonly associations: DeMunicipalAssociationRecord[];
  readonly municipalities: DeMunicipality[];
}

/**
 * The district a regional key lies in, as the original has it (`GetDistrictUniqueId`): none when
 * its district digits (4–5) are `00` — Berlin, Hamburg and three uninhabited areas — although
 * GV100AD has district records 11000 and 02000. So every endpoint shows these without district.
 */
export function districtKeyOf(regionalKey: string): string | undefined {
  return regionalKey.slice(3, 5) === "00" ? undefined : regionalKey.slice(0, 5);
}

export function regionsOf(gv: Gv100ad): DeRegions {
  const states = new Map(
    gv.federalStates.map((s) => [s.key, { key: s.key, name: s.name } satisfies KeyName]),
  );
  const stateOf = (key: string): KeyName =>
    states.get(key.slice(0, 2)) ?? { key: key.slice(0, 2), name: "" };
  const regions = new Map(
    gv.governmentRegions.map((r) => [r.key, { key: r.key, name: r.name } satisfies KeyName]),
  );
  const districts = new Map(
    gv.districts.map((d) => [
      d.key,
      { key: d.key, name: d.name, type: DISTRICT_TYPES[d.type] ?? "" } satisfies KeyNameType,
    ]),
  );
  const realAssociations = gv.associations.filter((a) => a.type !== NOT_AN_ASSOCIATION);
  const associations = new Map(
    realAssociations.map((a) => [
      a.key,
      { key: a.key, name: a.name, type: ASSOCIATION_TYPES[a.type] ?? "" } satisfies KeyNameType,
    ]),
  );

  return {
    governmentRegions: gv.governmentRegions.map((r) => ({
      key: r.key,
      name: r.name,
      federalState: stateOf(r.key),
      administrativeHeadquarters: r.administrativeHeadquarters,
    })),
    districts: gv.districts.map((d) => {
      const region = regions.get(d.key.slice(0, 3));
      return {
        key: d.key,
        name: d.name,
        type: DISTRICT_TYPES[d.type] ?? "",
        ...(region === undefined ? {} : { governmentRegion: region }),
        federalState: stateOf(d.key),
        administrativeHeadquarters: d.administrativeHeadquarters,
      };
    }),
    associations: realAssociations.flatMap((a) => {
      const district = districts.get(districtKeyOf(a.key) ?? "");
      if (district === undefined) return [];
      const region = regions.get(a.key.slice(0, 3));
      return [
        {
          key: a.key,
          name: a.name,
          type: ASSOCIATION_TYPES[a.type] ?? "",
          district,
          federalState: stateOf(a.key),
          administrativeHeadquarters: a.administrativeHeadquarters,
          ...(region === undefined ? {} : { [GOVERNMENT_REGION_KEY]: region.key }),
        },
      ];
    }),
    municipalities: gv.municipalities.map((m) => {
      const association = associations.get(m.key.slice(0, 5) + m.associationKey);
      const district = districts.get(districtKeyOf(m.key) ?? "");
      const region = district === undefined ? undefined : regions.get(m.key.slice(0, 3));
      return {
        key: m.key,
        name: m.name,
        type: MUNICIPALITY_TYPES[m.type] ?? "",
        ...(m.postalCode === "" ? {} : { postalCode: m.postalCode }),
        multiplePostalCodes: m.multiplePostalCodes,
        ...(association === undefined ? {} : { association }),
        ...(district === undefined ? {} : { district }),
        ...(region === undefined ? {} : { governmentRegion: region }),
        federalState: stateOf(m.key),
      };
    }),
  };
}
