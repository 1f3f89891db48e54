import { collationKey } from "./collation.ts";
import { childResource, type ChildSpec, type ParentSpec } from "./children.ts";
import { STATISTIK_AUSTRIA, STATISTIK_AUSTRIA_REGISTERS } from "./credits.ts";
import { localityFilters } from "./localities.ts";
import { pagedQuery, type Resource } from "./resource.ts";
import { recordSchema, summary, type Fields } from "./schema.ts";
import { STREET_FILTER_PARAMETERS, STREETS_QUERY, streetLocalitySelector } from "./search.ts";
import type { KeyName } from "./summaries.ts";

export interface KeyCodeName {
  readonly key: string;
  readonly code: string;
  readonly name: string;
}

/** A municipality inside a street or locality: the original's `MunicipalitySummary`, with the Gemeindeliste's status. */
export interface AtMunicipalitySummary extends KeyCodeName {
  readonly status?: string;
}

export interface AtDistrict {
  readonly key: string;
  readonly code: string;
  readonly name: string;
  readonly federalProvince: KeyName;
}

export interface AtMunicipality {
  readonly key: string;
  readonly code: string;
  readonly name: string;
  readonly postalCode: string;
  readonly multiplePostalCodes: boolean;
  readonly status?: string;
  readonly district: KeyCodeName;
  readonly federalProvince: KeyName;
}

export interface AtStreet {
  readonly key: string;
  readonly name: string;
  readonly postalCode: string;
  readonly locality: string;
  readonly municipality: AtMunicipalitySummary;
  readonly district: KeyCodeName;
  readonly federalProvince: KeyName;
}

export interface AtLocality {
  readonly key: string;
  readonly postalCode: string;
  readonly name: string;
  readonly municipality: AtMunicipalitySummary;
  readonly district: KeyCodeName;
  readonly federalProvince: KeyName;
}

const provinceFields = summary<KeyName>("FederalProvinceSummary", {
  key: { description: "Federal province key, one digit.", pattern: "^[1-9]$", example: "8" },
  name: { description: "Federal province name.", example: "Vorarlberg" },
});
const districtFields = summary<KeyCodeName>("AtDistrictSummary", {
  key: {
    description:
      "District key (Kennziffer pol. Bezirk), three digits; 900 for every district of Vienna.",
    pattern: "^[1-9][0-9]{2}$",
    example: "802",
  },
  code: {
    description: "District code (Politischer Bez. Code): the key, except in Vienna (901–923).",
    pattern: "^[1-9][0-9]{2}$",
    example: "802",
  },
  name: { description: "District name.", example: "Bregenz" },
});
const municipalityFields: Fields<KeyCodeName> = {
  key: {
    description:
      "Municipality key (Gemeindekennziffer), five digits; 90001 for every row of Vienna.",
    pattern: "^[1-9][0-9]{4}$",
    example: "80207",
  },
  code: {
    description:
      "Municipality code (Gemeindecode), five digits; its first three are the district code.",
    pattern: "^[1-9][0-9]{4}$",
    example: "80207",
  },
  name: { description: "Municipality name.", example: "Bregenz" },
};

const statusField = {
  description: "Statutarstadt, Stadtgemeinde or Marktgemeinde; absent for other municipalities.",
  example: "Statutarstadt",
  optional: true,
} as const;
const municipalitySummaryFields = summary<AtMunicipalitySummary>("AtMunicipalitySummary", {
  ...municipalityFields,
  status: {
    ...statusField,
    description: `The Gemeindeliste's status of the municipality with this code: ${statusField.description}`,
  },
});

const byProvince = <R extends { readonly federalProvince: KeyName }>(): ParentSpec<R> => ({
  path: "/at/FederalProvinces",
  noun: "federal province",
  keyDescription: "Federal province key, one digit (8 is Vorarlberg).",
  exampleKey: "8",
  value: (r) => r.federalProvince.key,
});
const byDistrict = <R extends { readonly district: KeyCodeName }>(): ParentSpec<R> => ({
  path: "/at/Districts",
  noun: "district",
  keyDescription:
    "District key (Kennziffer pol. Bezirk) or district code, three digits, as the original matches either (802 is Bregenz; the key 900 is all of Vienna, the codes 901–923 its Bezirke).",
  exampleKey: "802",
  value: (r) => [r.district.key, r.district.code],
});

const districts: ChildSpec<AtDistrict> = {
  segment: "Districts",
  noun: "districts",
  title: "Austrian districts",
  description:
    "political districts (Bezirke) from the embedded district list of 2015 (see the README: it still has Wien-Umgebung, dissolved in 2017), ordered by key and code.",
  sortKey: (d) => [d.key, d.code],
  record: recordSchema<AtDistrict>("AtDistrict", "An Austrian political district (Bezirk).", {
    ...districtFields,
    federalProvince: { description: "The federal province.", properties: provinceFields },
  }),
  credits: [STATISTIK_AUSTRIA],
};

const municipalities: ChildSpec<AtMunicipality> = {
  segment: "Municipalities",
  noun: "municipalities",
  title: "Austrian municipalities",
  description:
    "every row of Statistik Austria's Gemeindeliste (Vienna as one row per Bezirk), ordered by key and code.",
  sortKey: (m) => [m.key, m.code],
  record: recordSchema<AtMunicipality>(
    "AtMunicipality",
    "An Austrian municipality (Gemeinde) as the Gemeindeliste lists it.",
    {
      ...municipalityFields,
      postalCode: {
        description: "Postal code of the municipal office.",
        pattern: "^[0-9]{4}$",
        example: "6900",
      },
      multiplePostalCodes: {
        description: "Whether the municipality has further postal codes.",
        boolean: true,
      },
      status: statusField,
      district: { description: "The district.", properties: districtFields },
      federalProvince: { description: "The federal province.", properties: provinceFields },
    },
  ),
  credits: [STATISTIK_AUSTRIA_REGISTERS, STATISTIK_AUSTRIA],
};

const localities: ChildSpec<AtLocality> = {
  segment: "Localities",
  noun: "localities",
  title: "Austrian localities",
  description:
    "localities (Ortschaften with a postal code) of the street directory — only the nine Vorarlberg municipalities of the embedded sample — ordered by postal code and name.",
  sortKey: (l) => [l.postalCode, collationKey(l.name), l.key, l.municipality.code],
  record: recordSchema<AtLocality>(
    "AtLocality",
    "An Austrian locality (Ortschaft) with a postal code.",
    {
      key: {
        description: "Locality key (Ortschaftskennziffer), five digits.",
        pattern: "^[0-9]{5}$",
        example: "17134",
      },
      postalCode: {
        description: "Postal code, four digits.",
        pattern: "^[0-9]{4}$",
        example: "6900",
      },
      name: {
        description: "Locality name: the value the name filter matches.",
        example: "Bregenz",
      },
      municipality: { description: "The municipality.", properties: municipalitySummaryFields },
      district: { description: "The district.", properties: districtFields },
      federalProvince: { description: "The federal province.", properties: provinceFields },
    },
  ),
  credits: [STATISTIK_AUSTRIA_REGISTERS, STATISTIK_AUSTRIA],
};

export const atDistrictsByProvince = childResource(districts, byProvince());
export const atMunicipalitiesByProvince = childResource(municipalities, byProvince());
export const atMunicipalitiesByDistrict = childResource(municipalities, byDistrict());
export const atLocalitiesByProvince = childResource(localities, byProvince());
export const atLocalitiesByDistrict = childResource(localities, byDistrict());

const atLocalityFilters = localityFilters<AtLocality>({ postalCode: "6900", name: "Bregenz" });

export const atLocalities: Resource<AtLocality> = {
  id: "at.localities",
  path: "/at/Localities",
  title: "Austrian localities",
  description: `Localities (Ortschaften with a postal code) of Statistik Austria's street directory with their municipality, district and federal province, ordered by postal code and name. The embedded data is the directory's sample of nine Vorarlberg municipalities: other localities are not served.`,
  ...atLocalityFilters,
  sortKey: localities.sortKey,
  record: localities.record,
  examples: [
    { summary: "The localities of postal code 6900", query: { postalCode: "6900" } },
    {
      summary: "Postal codes starting with 69, page 2 with 2 per page",
      query: { postalCode: "^69", page: "2", pageSize: "2" },
    },
    { summary: "By name, as CSV", query: { name: "bregenz", format: "csv" } },
  ],
  credits: localities.credits,
};

const localitySelector = streetLocalitySelector<AtStreet>();

export const atStreets: Resource<AtStreet> = {
  id: "at.streets",
  path: "/at/Streets",
  title: "Austrian streets",
  description:
    "Streets of one locality (Ortschaft) from Statistik Austria's street directory, with postal code, municipality, district and federal province, ordered by street name (German collation), postal code and locality. The embedded data is the directory's sample of nine Vorarlberg municipalities.",
  query: STREETS_QUERY,
  selectors: [localitySelector],
  queryParameters: STREET_FILTER_PARAMETERS,
  search: { country: "at", role: "streets" },
  sortKey: (s) => [collationKey(s.name), s.postalCode, collationKey(s.locality), s.key],
  record: recordSchema<AtStreet>("AtStreet", "An Austrian street of a locality.", {
    key: {
      description: "Street key (Straßenkennziffer), six digits.",
      pattern: "^[0-9]{6}$",
      example: "042417",
    },
    name: { description: "Street name.", example: "Achgasse" },
    postalCode: {
      description: "Postal code, four digits.",
      pattern: "^[0-9]{4}$",
      example: "6900",
    },
    locality: {
      description: "Locality (Ortschaft): the value the locality filter matches.",
      example: "Bregenz",
    },
    municipality: { description: "The municipality.", properties: municipalitySummaryFields },
    district: { description: "The district.", properties: districtFields },
    federalProvince: { description: "The federal province.", properties: provinceFields },
  }),
  examples: [
    { summary: "First page of Bregenz's streets", query: { locality: "Bregenz" } },
    {
      summary: "Page 2 with 10 streets per page",
      query: { locality: "Bregenz", page: "2", pageSize: "10" },
    },
    {
      summary: "Three streets as CSV",
      query: { locality: "Bregenz", pageSize: "3", format: "csv" },
    },
    { summary: "By name and postal code", query: { postalCode: "6900", name: "^ach" } },
  ],
  credits: [STATISTIK_AUSTRIA_REGISTERS, STATISTIK_AUSTRIA],
};
