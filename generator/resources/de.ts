import { collationKey, compositeKey } from "../model/collation.ts";
import type { Resource } from "./resource.ts";

export interface KeyName {
  readonly key: string;
  readonly name: string;
}
export interface KeyNameType extends KeyName {
  readonly type: string;
}

export interface Street {
  readonly name: string;
  readonly postalCode: string;
  readonly locality: string;
  readonly borough?: string;
  readonly suburb?: string;
  readonly municipality: KeyNameType;
  readonly district?: KeyNameType;
  readonly federalState: KeyName;
}

export interface FederalState {
  readonly key: string;
  readonly name: string;
  readonly seatOfGovernment: string;
}

export const streets: Resource<Street> = {
  id: "de.streets",
  path: "/de/Streets",
  title: "German streets",
  query: { paged: true, filters: ["locality"], unservedFilters: ["name", "postalCode"] },
  requiredFilter: {
    param: "locality",
    detail: "No locality given. Filter by locality, or download the whole street list from /downloads/.",
  },
  filterValue: (street) => street.locality,
  sortKey: (s) => compositeKey([collationKey(s.name), s.postalCode, collationKey(s.borough ?? ""), collationKey(s.suburb ?? "")]),
  columns: [
    { header: "Name", value: (s) => s.name },
    { header: "PostalCode", value: (s) => s.postalCode },
    { header: "Locality", value: (s) => s.locality },
    { header: "Borough", value: (s) => s.borough },
    { header: "Suburb", value: (s) => s.suburb },
    { header: "Municipality.Key", value: (s) => s.municipality.key },
    { header: "Municipality.Name", value: (s) => s.municipality.name },
    { header: "Municipality.Type", value: (s) => s.municipality.type },
    { header: "District.Key", value: (s) => s.district?.key },
    { header: "District.Name", value: (s) => s.district?.name },
    { header: "District.Type", value: (s) => s.district?.type },
    { header: "FederalState.Key", value: (s) => s.federalState.key },
    { header: "FederalState.Name", value: (s) => s.federalState.name },
  ],
};

export const federalStates: Resource<FederalState> = {
  id: "de.federalstates",
  path: "/de/FederalStates",
  title: "German federal states",
  query: { paged: false, filters: [], unservedFilters: [] },
  sortKey: (s) => s.key,
  columns: [
    { header: "Key", value: (s) => s.key },
    { header: "Name", value: (s) => s.name },
    { header: "SeatOfGovernment", value: (s) => s.seatOfGovernment },
  ],
};
