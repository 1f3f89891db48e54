import { collationKey, numericKey } from "./collation.ts";
import { childResource, type ChildSpec, type ParentSpec } from "./children.ts";
import { BFS, OPENPLZ_DATA, SWISSTOPO } from "./credits.ts";
import { localityFilters } from "./localities.ts";
import { pagedQuery, type Resource } from "./resource.ts";
import { recordSchema, summary, type Fields } from "./schema.ts";

export interface KeyNameShort {
  readonly key: string;
  readonly name: string;
  readonly shortName: string;
}

export interface ChDistrict {
  readonly key: string;
  readonly historicalCode: string;
  readonly name: string;
  readonly shortName: string;
  readonly canton: KeyNameShort;
}

export interface ChCommune {
  readonly key: string;
  readonly historicalCode: string;
  readonly name: string;
  readonly shortName: string;
  readonly district: KeyNameShort;
  readonly canton: KeyNameShort;
}

export interface ChLocality extends Coordinates {
  readonly postalCode: string;
  readonly name: string;
  readonly commune: KeyNameShort;
  readonly district: KeyNameShort;
  readonly canton: KeyNameShort;
}

/** WGS84, beyond the original (additive: the last properties and CSV columns). */
export interface Coordinates {
  readonly latitude: number;
  readonly longitude: number;
}

/**
 * The historical number of a record's district (BFS `BZHISTID`), which `/ch/Districts/{key}/…`
 * matches besides the district number, as the original does (`Key == key || HistoricalCode ==
 * key`). The district summaries of the JSON shapes have no such field, so it is kept under a
 * symbol (JSON.stringify skips symbol keys). A canton's historical code is its number (the
 * register gives cantons no other), so canton keys need nothing of the kind.
 */
export const DISTRICT_HISTORICAL_CODE: unique symbol = Symbol("districtHistoricalCode");
export interface InHistoricalDistrict {
  readonly [DISTRICT_HISTORICAL_CODE]: string;
}
export type ChCommuneRecord = ChCommune & InHistoricalDistrict;
export type ChLocalityRecord = ChLocality & InHistoricalDistrict;

export interface LiLocality extends Coordinates {
  readonly postalCode: string;
  readonly name: string;
  readonly commune: { readonly key: string; readonly name: string };
}

export const cantonFields = summary<KeyNameShort>("CantonSummary", {
  key: { description: "Canton number (BFS).", pattern: "^[0-9]{1,2}$", example: "1" },
  name: { description: "Canton name.", example: "Zürich" },
  shortName: {
    description: "Two-letter canton abbreviation.",
    pattern: "^[A-Z]{2}$",
    example: "ZH",
  },
});
export const districtFields = summary<KeyNameShort>("ChDistrictSummary", {
  key: { description: "District number (BFS).", pattern: "^[0-9]{1,4}$", example: "101" },
  name: { description: "District name.", example: "Bezirk Affoltern" },
  shortName: { description: "Short district name.", example: "Affoltern" },
});
export const communeFields = summary<KeyNameShort>("ChCommuneSummary", {
  key: { description: "Commune number (BFS).", pattern: "^[0-9]{1,4}$", example: "2" },
  name: { description: "Official commune name.", example: "Affoltern am Albis" },
  shortName: { description: "Short commune name.", example: "Affoltern am Albis" },
});
export const liCommuneFields = summary<LiLocality["commune"]>("LiCommuneSummary", {
  key: {
    description: "Commune number (BFS), 7001 to 7011.",
    pattern: "^70[0-9]{2}$",
    example: "7001",
  },
  name: { description: "Commune name.", example: "Vaduz" },
});
const historicalCode = (what: string) => ({
  description: `The ${what}'s historical number in the BFS register (changes with every mutation).`,
  pattern: "^[0-9]+$",
  example: "10001",
});

const byCanton = <R extends { readonly canton: KeyNameShort }>(): ParentSpec<R> => ({
  path: "/ch/Cantons",
  noun: "canton",
  keyDescription:
    "Canton number (BFS), one or two digits without leading zero (1 is Zürich); a canton's historical code, which the original matches too, is the same number.",
  exampleKey: "1",
  value: (r) => r.canton.key,
});
const byDistrict = <
  R extends { readonly district: KeyNameShort } & InHistoricalDistrict,
>(): ParentSpec<R> => ({
  path: "/ch/Districts",
  noun: "district",
  keyDescription:
    "District number (BFS), e.g. 101 (Bezirk Affoltern), or its historical number (10053), as the original matches either.",
  exampleKey: "101",
  value: (r) => [r.district.key, r[DISTRICT_HISTORICAL_CODE]],
});

const districts: ChildSpec<ChDistrict> = {
  segment: "Districts",
  noun: "districts",
  title: "Swiss districts",
  description:
    "the districts (Bezirke; in cantons without districts the canton itself, as the BFS register has it) in force today, ordered by number.",
  sortKey: (d) => [numericKey(d.key)],
  record: recordSchema<ChDistrict>("ChDistrict", "A Swiss district (Bezirk) in force today.", {
    key: districtFields.key,
    historicalCode: historicalCode("district"),
    name: districtFields.name,
    shortName: districtFields.shortName,
    canton: { description: "The canton.", properties: cantonFields },
  }),
  credits: [BFS],
};

const communes: ChildSpec<ChCommuneRecord> = {
  segment: "Communes",
  noun: "communes",
  title: "Swiss communes",
  description:
    "the political communes (Gemeinden) in force today — abolished and merged ones are not listed — ordered by number.",
  sortKey: (c) => [numericKey(c.key)],
  record: recordSchema<ChCommune>(
    "ChCommune",
    "A Swiss political commune (Gemeinde) in force today.",
    {
      key: communeFields.key,
      historicalCode: historicalCode("commune"),
      name: communeFields.name,
      shortName: communeFields.shortName,
      district: { description: "The district.", properties: districtFields },
      canton: { description: "The canton.", properties: cantonFields },
    },
  ),
  credits: [BFS],
};

export const chDistrictsByCanton = childResource(districts, byCanton());
export const chCommunesByCanton = childResource(communes, byCanton());
export const chCommunesByDistrict = childResource(communes, byDistrict());

/** WGS84 coordinates of a locality, from the register's LV95 point (see `model/lv95.ts`). */
const coordinates = {
  latitude: {
    description:
      "WGS84 latitude in degrees (6 decimals) of the register's point for this locality, converted from its LV95 coordinates with swisstopo's projection and datum shift (proj4, EPSG:2056). Not in the original API.",
    number: true,
    minimum: 45.7,
    maximum: 47.9,
    example: 47.372309,
  },
  longitude: {
    description: "WGS84 longitude in degrees (6 decimals), as latitude. Not in the original API.",
    number: true,
    minimum: 5.9,
    maximum: 10.6,
    example: 8.542454,
  },
} as const;

const localities: ChildSpec<ChLocalityRecord> = {
  segment: "Localities",
  noun: "localities",
  title: "Swiss localities",
  description:
    "localities (Ortschaften: postal code and name) of the official swisstopo register, each with its commune, district and canton (a locality spanning several communes once per commune), ordered by postal code and name.",
  sortKey: (l) => [l.postalCode, collationKey(l.name), numericKey(l.commune.key)],
  record: recordSchema<ChLocality>(
    "ChLocality",
    "A Swiss locality (Ortschaft) with its commune, district and canton.",
    {
      postalCode: {
        description: "Postal code, four digits.",
        pattern: "^[0-9]{4}$",
        example: "8001",
      },
      name: { description: "Locality name: the value the name filter matches.", example: "Zürich" },
      commune: { description: "The commune.", properties: communeFields },
      district: { description: "The district.", properties: districtFields },
      canton: { description: "The canton.", properties: cantonFields },
      ...coordinates,
    },
  ),
  credits: [SWISSTOPO, BFS],
};

export const chLocalitiesByCanton = childResource(localities, byCanton());
export const chLocalitiesByDistrict = childResource(localities, byDistrict());

const chLocalityFilters = localityFilters<ChLocalityRecord>({ postalCode: "8001", name: "Zürich" });

export const chLocalities: Resource<ChLocalityRecord> = {
  id: "ch.localities",
  path: "/ch/Localities",
  title: "Swiss localities",
  description:
    "Localities (Ortschaften: postal code and name) of the official swisstopo register with their commune, district and canton, ordered by postal code and name. A locality spanning several communes is listed once per commune.",
  ...chLocalityFilters,
  sortKey: localities.sortKey,
  record: localities.record,
  examples: [
    { summary: "The localities of postal code 8001", query: { postalCode: "8001" } },
    {
      summary: "Localities whose name contains Zürich, page 2 with 2 per page",
      query: { name: "Zürich", page: "2", pageSize: "2" },
    },
    {
      summary: "Postal code and name, as CSV",
      query: { postalCode: "^8001$", name: "^zürich$", format: "csv" },
    },
    { summary: "Postal codes from 3000 to 3099", query: { postalCode: "^30[0-9]{2}$" } },
  ],
  credits: localities.credits,
};

const liLocalityFilters = localityFilters<LiLocality>({ postalCode: "9490", name: "Vaduz" });

export const liLocalities: Resource<LiLocality> = {
  id: "li.localities",
  path: "/li/Localities",
  title: "Localities of Liechtenstein",
  description:
    "The localities of Liechtenstein (postal code and name) from the swisstopo register, with their commune, ordered by postal code and name.",
  ...liLocalityFilters,
  sortKey: (l) => [l.postalCode, collationKey(l.name), l.commune.key],
  record: recordSchema<LiLocality>("LiLocality", "A locality of Liechtenstein with its commune.", {
    postalCode: {
      description: "Postal code, four digits.",
      pattern: "^94[0-9]{2}$",
      example: "9490",
    },
    name: { description: "Locality name: the value the name filter matches.", example: "Vaduz" },
    commune: {
      description: "The commune.",
      properties: liCommuneFields,
    },
    ...coordinates,
  }),
  examples: [
    {
      summary: "All localities of Liechtenstein (every postal code starts with 94)",
      query: { postalCode: "^94" },
    },
    { summary: "Page 2 with 2 per page", query: { postalCode: "^94", page: "2", pageSize: "2" } },
    { summary: "Postal code 9490 as CSV", query: { postalCode: "9490", format: "csv" } },
    { summary: "By name", query: { name: "vaduz" } },
  ],
  credits: [SWISSTOPO, OPENPLZ_DATA],
};
