import { childResource, type ChildSpec, type ParentSpec } from "./children.ts";
import { DESTATIS } from "./credits.ts";
import {
  DE_FIELDS,
  deLocalities,
  GOVERNMENT_REGION_KEY,
  type DeDistrict,
  type DeGovernmentRegion,
  type DeLocalityRecord,
  type DeMunicipalAssociation,
  type DeMunicipalAssociationRecord,
  type DeMunicipality,
} from "./de.ts";
import type { KeyName, KeyNameType } from "./summaries.ts";
import { recordSchema, summary, type Fields } from "./schema.ts";

/** GV100AD units within federal states, government regions and districts, ordered by regional key. */

const governmentRegionRef = summary<KeyName>("GovernmentRegionSummary", {
  key: {
    description: "Government region key, three digits (federal state and region).",
    pattern: "^[0-9]{3}$",
    example: "091",
  },
  name: { description: "Government region name, as GV100AD writes it.", example: "Oberbayern" },
});
const headquarters = (what: string) => ({
  description: `Seat of the ${what}'s administration, as GV100AD writes it (may be empty).`,
  example: "München",
});

interface HasState {
  readonly federalState: KeyName;
}
interface HasRegion {
  readonly governmentRegion?: KeyName;
}

const byState = <R extends HasState>(): ParentSpec<R> => ({
  path: "/de/FederalStates",
  noun: "federal state",
  keyDescription: "Federal state key, two digits (09 is Bayern).",
  exampleKey: "09",
  value: (r) => r.federalState.key,
});
const byRegion = <R>(value: (record: R) => string | undefined): ParentSpec<R> => ({
  path: "/de/GovernmentRegions",
  noun: "government region",
  keyDescription: "Government region key, three digits (091 is Oberbayern).",
  exampleKey: "091",
  value,
});
const regionOf = (r: HasRegion) => r.governmentRegion?.key;
const byDistrict = <
  R extends { readonly district?: { readonly key: string } },
>(): ParentSpec<R> => ({
  path: "/de/Districts",
  noun: "district",
  keyDescription: "District key, five digits (09189 is Traunstein).",
  exampleKey: "09189",
  value: (r) => r.district?.key,
});

const governmentRegions: ChildSpec<DeGovernmentRegion> = {
  segment: "GovernmentRegions",
  noun: "government regions",
  title: "German government regions",
  description:
    "every GV100AD government region record (Regierungsbezirk; in some states a former one or a statistical region, as GV100AD names it), ordered by key.",
  sortKey: (r) => [r.key],
  record: recordSchema<DeGovernmentRegion>(
    "GovernmentRegion",
    "A German government region (Regierungsbezirk).",
    {
      ...governmentRegionRef,
      federalState: { description: "The federal state.", properties: DE_FIELDS.federalState },
      administrativeHeadquarters: headquarters("government region"),
    },
  ),
  credits: [DESTATIS],
};

const districts: ChildSpec<DeDistrict> = {
  segment: "Districts",
  noun: "districts",
  title: "German districts",
  description: "districts (Kreise) and district-free cities, ordered by key.",
  sortKey: (d) => [d.key],
  record: recordSchema<DeDistrict>("District", "A German district (Kreis) or district-free city.", {
    ...DE_FIELDS.district,
    governmentRegion: {
      description: "The government region; absent in states without one.",
      properties: governmentRegionRef,
      optional: true,
    },
    federalState: { description: "The federal state.", properties: DE_FIELDS.federalState },
    administrativeHeadquarters: headquarters("district"),
  }),
  credits: [DESTATIS],
};

const associations: ChildSpec<DeMunicipalAssociationRecord> = {
  segment: "MunicipalAssociations",
  noun: "municipal associations",
  title: "German municipal associations",
  description:
    "municipal associations (Ämter, Samtgemeinden, Verbandsgemeinden, Verwaltungsgemeinschaften, …; GV100AD types 51–58, not the type-50 entries of municipalities without one), ordered by key.",
  sortKey: (a) => [a.key],
  record: recordSchema<DeMunicipalAssociation>(
    "MunicipalAssociation",
    "A German municipal association (Gemeindeverband).",
    {
      key: {
        description: "Association key, nine digits (district key and four association digits).",
        pattern: "^[0-9]{9}$",
        example: "091895166",
      },
      name: { description: "Association name.", example: "Bergen (VGem)" },
      type: {
        description: "Kind of association, as GV100AD names it.",
        example: "Verwaltungsgemeinschaft",
      },
      district: { description: "The district.", properties: DE_FIELDS.district },
      federalState: { description: "The federal state.", properties: DE_FIELDS.federalState },
      administrativeHeadquarters: headquarters("association"),
    },
  ),
  credits: [DESTATIS],
};

const associationRef = summary<KeyNameType>("MunicipalAssociationSummary", {
  key: {
    description: "Association key, nine digits.",
    pattern: "^[0-9]{9}$",
    example: "091895166",
  },
  name: { description: "Association name.", example: "Bergen (VGem)" },
  type: { description: "Kind of association.", example: "Verwaltungsgemeinschaft" },
});

const municipalities: ChildSpec<DeMunicipality> = {
  segment: "Municipalities",
  noun: "municipalities",
  title: "German municipalities",
  description:
    "every GV100AD municipality (Gemeinde, including uninhabited areas with a key), ordered by key. A state lists its municipalities without district (Berlin, Hamburg) too; a district or government region does not.",
  sortKey: (m) => [m.key],
  record: recordSchema<DeMunicipality>("Municipality", "A German municipality (Gemeinde).", {
    ...DE_FIELDS.municipality,
    postalCode: {
      description: "Postal code of the administrative seat; absent for uninhabited areas.",
      pattern: "^[0-9]{5}$",
      example: "80331",
      optional: true,
    },
    multiplePostalCodes: {
      description: "Whether the municipality has more postal codes than this one.",
      boolean: true,
    },
    association: {
      description: "The municipal association; absent for municipalities without one.",
      properties: associationRef,
      optional: true,
    },
    district: {
      description:
        "The district; absent, as in the original, when the key has 00 as district digits: Berlin, Hamburg and three uninhabited areas.",
      properties: DE_FIELDS.district,
      optional: true,
    },
    governmentRegion: {
      description: "The government region; absent in states without one.",
      properties: governmentRegionRef,
      optional: true,
    },
    federalState: { description: "The federal state.", properties: DE_FIELDS.federalState },
  }),
  credits: [DESTATIS],
};

const localities: ChildSpec<DeLocalityRecord> = {
  segment: "Localities",
  noun: "localities",
  title: "German localities",
  description:
    "localities (postal code and place name) with their municipality, district and federal state, ordered by postal code and name, as /de/Localities has them. A state lists its cities without district (Berlin, Hamburg) too; a district or government region does not.",
  sortKey: deLocalities.sortKey,
  record: deLocalities.record,
  credits: deLocalities.credits,
};

export const deGovernmentRegionsByState = childResource(governmentRegions, byState());
export const deDistrictsByState = childResource(districts, byState());
export const deDistrictsByRegion = childResource(districts, byRegion(regionOf));
export const deAssociationsByState = childResource(associations, byState());
export const deAssociationsByRegion = childResource(
  associations,
  byRegion((a: DeMunicipalAssociationRecord) => a[GOVERNMENT_REGION_KEY]),
);
export const deAssociationsByDistrict = childResource(associations, byDistrict());
export const deMunicipalitiesByState = childResource(municipalities, byState());
export const deMunicipalitiesByRegion = childResource(municipalities, byRegion(regionOf));
export const deMunicipalitiesByDistrict = childResource(municipalities, byDistrict());
export const deLocalitiesByState = childResource(localities, byState());
export const deLocalitiesByRegion = childResource(
  localities,
  byRegion((l: DeLocalityRecord) => l[GOVERNMENT_REGION_KEY]),
);
export const deLocalitiesByDistrict = childResource(localities, byDistrict());
