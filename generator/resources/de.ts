import { collationKey } from "./collation.ts";
import { DESTATIS, GEOPORTAL_BERLIN, OPEN_POSTAL_CODES } from "./credits.ts";
import { localityFilters } from "./localities.ts";
import { pagedQuery, UNPAGED, type Resource } from "./resource.ts";
import { recordSchema, summary } from "./schema.ts";
import { STREET_FILTER_PARAMETERS, STREETS_QUERY, streetLocalitySelector } from "./search.ts";
import type { KeyName, KeyNameType } from "./summaries.ts";

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

const municipality = summary<KeyNameType>("MunicipalitySummary", {
  key: {
    description: "Official municipality key (Amtlicher Gemeindeschlüssel), eight digits.",
    pattern: "^[0-9]{8}$",
    example: "11000000",
  },
  name: { description: "Official municipality name.", example: "Berlin, Stadt" },
  type: { description: "Kind of municipality, as GV100AD names it.", example: "Kreisfreie Stadt" },
});
const district = summary<KeyNameType>("DistrictSummary", {
  key: {
    description: "District key: the first five digits of the municipality key.",
    pattern: "^[0-9]{5}$",
    example: "05978",
  },
  name: { description: "District name.", example: "Unna" },
  type: { description: "Kind of district, as GV100AD names it.", example: "Kreis" },
});
const federalState = summary<KeyName>("FederalStateSummary", {
  key: { description: "Federal state key, two digits.", pattern: "^[0-9]{2}$", example: "11" },
  name: { description: "Federal state name.", example: "Berlin" },
});

const localitySelector = streetLocalitySelector<Street>();

export const streets: Resource<Street> = {
  id: "de.streets",
  path: "/de/Streets",
  title: "German streets",
  description:
    "Streets, each with its postal code and the municipality, district and federal state it belongs to, ordered by street name (German collation), postal code, borough and suburb: by locality, name, postal code or any combination of them (at least one).",
  query: STREETS_QUERY,
  selectors: [localitySelector],
  queryParameters: STREET_FILTER_PARAMETERS,
  search: { country: "de", role: "streets" },
  downloadsPerView: true,
  // Name, postal code, borough, suburb; then locality spelling and municipality, so the order is total.
  sortKey: (s) => [
    collationKey(s.name),
    s.postalCode,
    collationKey(s.borough ?? ""),
    collationKey(s.suburb ?? ""),
    s.locality,
    s.municipality.key,
  ],
  record: recordSchema<Street>(
    "Street",
    "A street of a locality, with its postal code and administrative units.",
    {
      name: { description: "Street name.", example: "Pariser Platz" },
      postalCode: {
        description: "Postal code, five digits.",
        pattern: "^[0-9]{5}$",
        example: "10117",
      },
      locality: {
        description: "Locality (Ort) of the street: the value the locality filter matches.",
        example: "Berlin",
      },
      borough: {
        description: "Borough (Bezirk), where the source has one.",
        example: "Mitte",
        optional: true,
      },
      suburb: {
        description: "Suburb (Ortsteil), where the source has one.",
        example: "Mitte",
        optional: true,
      },
      municipality: {
        description: "The municipality (Gemeinde) from GV100AD.",
        properties: municipality,
      },
      district: {
        description:
          "The district (Kreis) from GV100AD; absent for cities whose key has 00 as district digits (Berlin, Hamburg).",
        properties: district,
        optional: true,
      },
      federalState: { description: "The federal state (Land).", properties: federalState },
    },
  ),
  examples: [
    { summary: "First page of Berlin's streets (50 per page)", query: { locality: "Berlin" } },
    {
      summary: "Page 2 with 10 streets per page",
      query: { locality: "Berlin", page: "2", pageSize: "10" },
    },
    {
      summary: "Three streets as CSV",
      query: { locality: "Berlin", pageSize: "3", format: "csv" },
    },
    { summary: "By name and postal code", query: { postalCode: "10963", name: "askanisch" } },
    { summary: "Names starting with Am", query: { name: "^Am " } },
  ],
  credits: [GEOPORTAL_BERLIN, DESTATIS],
};

export const federalStates: Resource<FederalState> = {
  id: "de.federalstates",
  path: "/de/FederalStates",
  title: "German federal states",
  description:
    "The 16 federal states (Länder) of Germany with their seat of government, ordered by key.",
  query: UNPAGED,
  sortKey: (s) => [s.key],
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

export interface DeGovernmentRegion {
  readonly key: string;
  readonly name: string;
  readonly federalState: KeyName;
  readonly administrativeHeadquarters: string;
}

export interface DeDistrict {
  readonly key: string;
  readonly name: string;
  readonly type: string;
  readonly governmentRegion?: KeyName;
  readonly federalState: KeyName;
  readonly administrativeHeadquarters: string;
}

export interface DeMunicipalAssociation {
  readonly key: string;
  readonly name: string;
  readonly type: string;
  readonly district: KeyNameType;
  readonly federalState: KeyName;
  readonly administrativeHeadquarters: string;
}

/**
 * The government region of an association's or a locality's district, for
 * `/de/GovernmentRegions/{key}/…`: not part of their JSON shapes (the original's DTOs have none),
 * so kept under a symbol (JSON.stringify skips symbol keys).
 */
export const GOVERNMENT_REGION_KEY: unique symbol = Symbol("governmentRegionKey");
export type DeMunicipalAssociationRecord = DeMunicipalAssociation & {
  readonly [GOVERNMENT_REGION_KEY]?: string;
};

export interface DeMunicipality {
  readonly key: string;
  readonly name: string;
  readonly type: string;
  readonly postalCode?: string;
  readonly multiplePostalCodes: boolean;
  readonly association?: KeyNameType;
  readonly district?: KeyNameType;
  readonly governmentRegion?: KeyName;
  readonly federalState: KeyName;
}

export interface DeLocality {
  readonly postalCode: string;
  readonly name: string;
  readonly municipality: KeyNameType;
  readonly district?: KeyNameType;
  readonly federalState: KeyName;
}
export type DeLocalityRecord = DeLocality & { readonly [GOVERNMENT_REGION_KEY]?: string };

/** Field descriptions the DE records share. */
export const DE_FIELDS = { municipality, district, federalState } as const;

const localityFiltersDe = localityFilters<DeLocalityRecord>({
  postalCode: "10117",
  name: "Berlin",
});

export const deLocalities: Resource<DeLocalityRecord> = {
  id: "de.localities",
  path: "/de/Localities",
  title: "German localities",
  description:
    "Localities (postal code and place name) with their municipality, district and federal state, ordered by postal code and name (German collation). Where the street list covers a postal code, its localities come from the streets; elsewhere from Open Postal Codes joined to the GV100AD municipality of the same name in the row's county, under the municipality's official name (see the README for the limits).",
  ...localityFiltersDe,
  sortKey: (l) => [l.postalCode, collationKey(l.name), l.municipality.key],
  record: recordSchema<DeLocality>(
    "Locality",
    "A German locality: a postal code and a place it serves, with the municipality it lies in.",
    {
      postalCode: {
        description: "Postal code, five digits.",
        pattern: "^[0-9]{5}$",
        example: "10117",
      },
      name: { description: "Locality name: the value the name filter matches.", example: "Berlin" },
      municipality: {
        description: "The municipality (Gemeinde) from GV100AD.",
        properties: municipality,
      },
      district: {
        description:
          "The district (Kreis) from GV100AD; absent for cities whose key has 00 as district digits (Berlin, Hamburg), as in the original.",
        properties: district,
        optional: true,
      },
      federalState: { description: "The federal state (Land).", properties: federalState },
    },
  ),
  examples: [
    { summary: "The localities of postal code 10117", query: { postalCode: "^10117$" } },
    { summary: "Localities whose name contains Frankfurt", query: { name: "Frankfurt" } },
    {
      summary: "Localities named Berlin or Hamburg, page 2 with 2 per page",
      query: { name: "^(Berlin|Hamburg)$", page: "2", pageSize: "2" },
    },
    {
      summary: "Postal codes starting with 8033, as CSV",
      query: { postalCode: "^8033", format: "csv" },
    },
  ],
  credits: [GEOPORTAL_BERLIN, OPEN_POSTAL_CODES, DESTATIS],
};
