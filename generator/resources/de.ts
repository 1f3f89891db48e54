import { collationKey, compositeKey } from "../model/collation.ts";
import { DESTATIS, GEOPORTAL_BERLIN } from "./credits.ts";
import type { Resource } from "./resource.ts";
import { recordSchema, type Fields } from "./schema.ts";

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

const municipality: Fields<KeyNameType> = {
  key: { description: "Official municipality key (Amtlicher Gemeindeschlüssel), eight digits.", pattern: "^[0-9]{8}$", example: "11000000" },
  name: { description: "Official municipality name.", example: "Berlin, Stadt" },
  type: { description: "Kind of municipality, as GV100AD names it.", example: "Kreisfreie Stadt" },
};
const district: Fields<KeyNameType> = {
  key: { description: "District key: the first five digits of the municipality key.", pattern: "^[0-9]{5}$", example: "05978" },
  name: { description: "District name.", example: "Unna" },
  type: { description: "Kind of district, as GV100AD names it.", example: "Kreis" },
};
const federalState: Fields<KeyName> = {
  key: { description: "Federal state key, two digits.", pattern: "^[0-9]{2}$", example: "11" },
  name: { description: "Federal state name.", example: "Berlin" },
};

export const streets: Resource<Street> = {
  id: "de.streets",
  path: "/de/Streets",
  title: "German streets",
  description:
    "Streets of one locality, each with its postal code and the municipality, district and federal state it belongs to, ordered by street name (German collation), postal code, borough and suburb.",
  query: { paged: true, filters: ["locality"], unservedFilters: ["name", "postalCode"] },
  requiredFilter: {
    param: "locality",
    description: "Locality name. Exact match after Unicode NFC normalisation, trimming and lower-casing: berlin, ' BERLIN ' and Berlin are the same request.",
    detail: "No locality given. Filter by locality, or download the whole street list: /downloads/index.json lists the files.",
  },
  filterValue: (street) => street.locality,
  downloadsPerView: true,
  // Name, postal code, borough, suburb; then locality spelling and municipality, so the order is total.
  sortKey: (s) => compositeKey([collationKey(s.name), s.postalCode, collationKey(s.borough ?? ""), collationKey(s.suburb ?? ""), s.locality, s.municipality.key]),
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
  record: recordSchema<Street>("Street", "A street of a locality, with its postal code and administrative units.", {
    name: { description: "Street name.", example: "Pariser Platz" },
    postalCode: { description: "Postal code, five digits.", pattern: "^[0-9]{5}$", example: "10117" },
    locality: { description: "Locality (Ort) of the street: the value the locality filter matches.", example: "Berlin" },
    borough: { description: "Borough (Bezirk), where the source has one.", example: "Mitte", optional: true },
    suburb: { description: "Suburb (Ortsteil), where the source has one.", example: "Mitte", optional: true },
    municipality: { description: "The municipality (Gemeinde) from GV100AD.", properties: municipality },
    district: { description: "The district (Kreis) from GV100AD; absent for cities whose key has 00 as district digits (Berlin, Hamburg).", properties: district, optional: true },
    federalState: { description: "The federal state (Land).", properties: federalState },
  }),
  examples: [
    { summary: "First page of Berlin's streets (50 per page)", query: { locality: "Berlin" } },
    { summary: "Page 2 with 10 streets per page", query: { locality: "Berlin", page: "2", pageSize: "10" } },
    { summary: "Three streets as CSV", query: { locality: "Berlin", pageSize: "3", format: "csv" } },
  ],
  credits: [GEOPORTAL_BERLIN, DESTATIS],
};

export const federalStates: Resource<FederalState> = {
  id: "de.federalstates",
  path: "/de/FederalStates",
  title: "German federal states",
  description: "The 16 federal states (Länder) of Germany with their seat of government, ordered by key.",
  query: { paged: false, filters: [], unservedFilters: [] },
  sortKey: (s) => s.key,
  columns: [
    { header: "Key", value: (s) => s.key },
    { header: "Name", value: (s) => s.name },
    { header: "SeatOfGovernment", value: (s) => s.seatOfGovernment },
  ],
  record: recordSchema<FederalState>("FederalState", "A German federal state (Land).", {
    key: federalState.key,
    name: federalState.name,
    seatOfGovernment: { description: "Seat of the state government.", example: "Berlin" },
  }),
  examples: [
    { summary: "All federal states as JSON", query: {} },
    { summary: "All federal states as CSV", query: { format: "csv" } },
  ],
  credits: [DESTATIS],
};
