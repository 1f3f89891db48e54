import { collationKey, numericKey } from "./collation.ts";
import { BFS, OPENPLZ_DATA, SWISSTOPO_STREETS } from "./credits.ts";
import {
  cantonFields,
  communeFields,
  districtFields,
  liCommuneFields,
  type KeyNameShort,
} from "./ch-li.ts";
import type { Resource } from "./resource.ts";
import { STREET_FILTER_PARAMETERS, STREETS_QUERY, streetLocalitySelector } from "./search.ts";
import { recordSchema } from "./schema.ts";
import type { KeyName } from "./summaries.ts";

/**
 * Streets of Switzerland and Liechtenstein from swisstopo's official street directory: served
 * only by a build that reads it (the optional source `ch-streets`, with `--source` or `--remote`).
 * One record per street and postal locality, as the original has them (a street whose `ZIP_LABEL`
 * names two localities is listed under each).
 */

/** The original's `StreetStatus`, written as its C# names: swisstopo's `real`, `planned`, `outdated`; `None` where it gives none. */
export type StreetStatus = "None" | "Planned" | "Real" | "Outdated";

export interface ChStreet {
  readonly key: string;
  readonly name: string;
  readonly postalCode: string;
  readonly locality: string;
  readonly commune: KeyNameShort;
  readonly district: KeyNameShort;
  readonly canton: KeyNameShort;
  readonly status: StreetStatus;
}

export interface LiStreet {
  readonly key: string;
  readonly name: string;
  readonly postalCode: string;
  readonly locality: string;
  readonly commune: KeyName;
  readonly status: StreetStatus;
}

const keyField = {
  description: "Federal street identifier (ESID) of swisstopo's street directory.",
  pattern: "^[0-9]+$",
  example: "10061643",
} as const;
const nameField = { description: "Street name (STN_LABEL).", example: "Bahnhofstrasse" } as const;
const postalCodeField = {
  description: "Postal code of the locality, four digits.",
  pattern: "^[0-9]{4}$",
  example: "8001",
} as const;
const localityField = {
  description: "Locality (Ortschaft) of the street: the value the locality filter matches.",
  example: "Zürich",
} as const;
const statusField = {
  description:
    "Status of the street: Real, Planned or Outdated (swisstopo's real, planned, outdated), None where the directory gives none.",
  pattern: "^(None|Planned|Real|Outdated)$",
  example: "Real",
} as const;

const streetOrder = (s: ChStreet | LiStreet) => [
  collationKey(s.name),
  s.postalCode,
  collationKey(s.locality),
  numericKey(s.key),
  numericKey(s.commune.key),
];
const ORDER = "ordered by street name (German collation), postal code and locality";
const chSelector = streetLocalitySelector<ChStreet>();
const liSelector = streetLocalitySelector<LiStreet>();

export const chStreets: Resource<ChStreet> = {
  id: "ch.streets",
  path: "/ch/Streets",
  title: "Swiss streets",
  description: `Streets of one locality (Ortschaft) from swisstopo's official street directory, with postal code, commune, district, canton and status, ${ORDER}. Served only when the build reads the street directory (the source ch-streets).`,
  query: STREETS_QUERY,
  queryParameters: STREET_FILTER_PARAMETERS,
  search: { country: "ch", role: "streets" },
  selectors: [chSelector],
  sortKey: streetOrder,
  record: recordSchema<ChStreet>("ChStreet", "A Swiss street of a locality.", {
    key: keyField,
    name: nameField,
    postalCode: postalCodeField,
    locality: localityField,
    commune: {
      description: "The commune (BFS number COM_FOSNR, joined to the communes in force).",
      properties: communeFields,
    },
    district: { description: "The commune's district.", properties: districtFields },
    canton: { description: "The district's canton.", properties: cantonFields },
    status: statusField,
  }),
  examples: [
    { summary: "First page of Zürich's streets", query: { locality: "Zürich" } },
    {
      summary: "Page 2 with 10 streets per page",
      query: { locality: "Zürich", page: "2", pageSize: "10" },
    },
    {
      summary: "Three streets as CSV",
      query: { locality: "Zürich", pageSize: "3", format: "csv" },
    },
  ],
  credits: [SWISSTOPO_STREETS, BFS],
};

export const liStreets: Resource<LiStreet> = {
  id: "li.streets",
  path: "/li/Streets",
  title: "Streets of Liechtenstein",
  description: `Streets of one locality of Liechtenstein from swisstopo's official street directory, with postal code, commune and status, ${ORDER}. Served only when the build reads the street directory (the source ch-streets).`,
  query: STREETS_QUERY,
  queryParameters: STREET_FILTER_PARAMETERS,
  search: { country: "li", role: "streets" },
  selectors: [liSelector],
  sortKey: streetOrder,
  record: recordSchema<LiStreet>("LiStreet", "A street of a locality of Liechtenstein.", {
    key: keyField,
    name: { ...nameField, example: "Städtle" },
    postalCode: { ...postalCodeField, pattern: "^94[0-9]{2}$", example: "9490" },
    locality: { ...localityField, example: "Vaduz" },
    commune: {
      description: "The commune (BFS number COM_FOSNR, 7001 to 7011).",
      properties: liCommuneFields,
    },
    status: statusField,
  }),
  examples: [
    { summary: "First page of Vaduz's streets", query: { locality: "Vaduz" } },
    {
      summary: "Page 2 with 10 streets per page",
      query: { locality: "Vaduz", page: "2", pageSize: "10" },
    },
    { summary: "Three streets as CSV", query: { locality: "Vaduz", pageSize: "3", format: "csv" } },
  ],
  credits: [SWISSTOPO_STREETS, OPENPLZ_DATA],
};
