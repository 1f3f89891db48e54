import { collationKey, numericKey } from "./collation.ts";
import { childResource, type ChildSpec, type ParentSpec } from "./children.ts";
import { BFS, OPENPLZ_DATA, SWISSTOPO } from "./credits.ts";
import { localitySelectors } from "./localities.ts";
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

export interface ChLocality {
  readonly postalCode: string;
  readonly name: string;
  readonly commune: KeyNameShort;
  readonly district: KeyNameShort;
  readonly canton: KeyNameShort;
}

export interface LiLocality {
  readonly postalCode: string;
  readonly name: string;
  readonly commune: { readonly key: string; readonly name: string };
}

const cantonFields = summary<KeyNameShort>("CantonSummary", {
  key: { description: "Canton number (BFS).", pattern: "^[0-9]{1,2}$", example: "1" },
  name: { description: "Canton name.", example: "Zürich" },
  shortName: { description: "Two-letter canton abbreviation.", pattern: "^[A-Z]{2}$", example: "ZH" },
});
const districtFields = summary<KeyNameShort>("ChDistrictSummary", {
  key: { description: "District number (BFS).", pattern: "^[0-9]{1,4}$", example: "101" },
  name: { description: "District name.", example: "Bezirk Affoltern" },
  shortName: { description: "Short district name.", example: "Affoltern" },
});
const communeFields = summary<KeyNameShort>("ChCommuneSummary", {
  key: { description: "Commune number (BFS).", pattern: "^[0-9]{1,4}$", example: "2" },
  name: { description: "Official commune name.", example: "Affoltern am Albis" },
  shortName: { description: "Short commune name.", example: "Affoltern am Albis" },
});
const historicalCode = (what: string) => ({ description: `The ${what}'s historical number in the BFS register (changes with every mutation).`, pattern: "^[0-9]+$", example: "10001" });

const byCanton = <R extends { readonly canton: KeyNameShort }>(): ParentSpec<R> => ({
  path: "/ch/Cantons",
  noun: "canton",
  keyDescription: "Canton number (BFS), one or two digits without leading zero (1 is Zürich).",
  exampleKey: "1",
  value: (r) => r.canton.key,
});
const byDistrict = <R extends { readonly district: KeyNameShort }>(): ParentSpec<R> => ({
  path: "/ch/Districts",
  noun: "district",
  keyDescription: "District number (BFS), e.g. 101 (Bezirk Affoltern).",
  exampleKey: "101",
  value: (r) => r.district.key,
});

const districts: ChildSpec<ChDistrict> = {
  segment: "Districts",
  noun: "districts",
  title: "Swiss districts",
  description: "the districts (Bezirke; in cantons without districts the canton itself, as the BFS register has it) in force today, ordered by number.",
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

const communes: ChildSpec<ChCommune> = {
  segment: "Communes",
  noun: "communes",
  title: "Swiss communes",
  description: "the political communes (Gemeinden) in force today — abolished and merged ones are not listed — ordered by number.",
  sortKey: (c) => [numericKey(c.key)],
  record: recordSchema<ChCommune>("ChCommune", "A Swiss political commune (Gemeinde) in force today.", {
    key: communeFields.key,
    historicalCode: historicalCode("commune"),
    name: communeFields.name,
    shortName: communeFields.shortName,
    district: { description: "The district.", properties: districtFields },
    canton: { description: "The canton.", properties: cantonFields },
  }),
  credits: [BFS],
};

export const chDistrictsByCanton = childResource(districts, byCanton());
export const chCommunesByCanton = childResource(communes, byCanton());
export const chCommunesByDistrict = childResource(communes, byDistrict());

const chLocalitySelectors = localitySelectors<ChLocality>({ postalCode: "8001", name: "Zürich" });

export const chLocalities: Resource<ChLocality> = {
  id: "ch.localities",
  path: "/ch/Localities",
  title: "Swiss localities",
  description:
    "Localities (Ortschaften: postal code and name) of the official swisstopo register with their commune, district and canton, ordered by postal code and name. A locality spanning several communes is listed once per commune.",
  query: pagedQuery(chLocalitySelectors),
  selectors: chLocalitySelectors,
  sortKey: (l) => [l.postalCode, collationKey(l.name), numericKey(l.commune.key)],
  record: recordSchema<ChLocality>("ChLocality", "A Swiss locality (Ortschaft) with its commune, district and canton.", {
    postalCode: { description: "Postal code, four digits.", pattern: "^[0-9]{4}$", example: "8001" },
    name: { description: "Locality name: the value the name filter matches.", example: "Zürich" },
    commune: { description: "The commune.", properties: communeFields },
    district: { description: "The district.", properties: districtFields },
    canton: { description: "The canton.", properties: cantonFields },
  }),
  examples: [
    { summary: "The localities of postal code 8001", query: { postalCode: "8001" } },
    { summary: "Localities named Zürich, page 2 with 2 per page", query: { name: "Zürich", page: "2", pageSize: "2" } },
    { summary: "Postal code and name, as CSV", query: { postalCode: "8001", name: "zürich", format: "csv" } },
    { summary: "All localities, first page", query: {} },
  ],
  credits: [SWISSTOPO, BFS],
};

const liLocalitySelectors = localitySelectors<LiLocality>({ postalCode: "9490", name: "Vaduz" });

export const liLocalities: Resource<LiLocality> = {
  id: "li.localities",
  path: "/li/Localities",
  title: "Localities of Liechtenstein",
  description: "The localities of Liechtenstein (postal code and name) from the swisstopo register, with their commune, ordered by postal code and name.",
  query: pagedQuery(liLocalitySelectors),
  selectors: liLocalitySelectors,
  sortKey: (l) => [l.postalCode, collationKey(l.name), l.commune.key],
  record: recordSchema<LiLocality>("LiLocality", "A locality of Liechtenstein with its commune.", {
    postalCode: { description: "Postal code, four digits.", pattern: "^94[0-9]{2}$", example: "9490" },
    name: { description: "Locality name: the value the name filter matches.", example: "Vaduz" },
    commune: {
      description: "The commune.",
      properties: summary<LiLocality["commune"]>("LiCommuneSummary", {
        key: { description: "Commune number (BFS), 7001 to 7011.", pattern: "^70[0-9]{2}$", example: "7001" },
        name: { description: "Commune name.", example: "Vaduz" },
      }),
    },
  }),
  examples: [
    { summary: "All localities of Liechtenstein", query: {} },
    { summary: "Page 2 with 2 per page", query: { page: "2", pageSize: "2" } },
    { summary: "Postal code 9490 as CSV", query: { postalCode: "9490", format: "csv" } },
    { summary: "By name", query: { name: "vaduz" } },
  ],
  credits: [SWISSTOPO, OPENPLZ_DATA],
};
