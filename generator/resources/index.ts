import { atFederalProvinces, chCantons, liCommunes } from "./at-ch-li.ts";
import { deLocalities, federalStates, streets } from "./de.ts";
import * as de from "./de-regions.ts";
import * as chLi from "./ch-li.ts";
import * as at from "./at.ts";
import { chStreets, liStreets } from "./ch-li-streets.ts";
import type { AnyResource } from "./resource.ts";
import { fullTextSearchOf } from "./search.ts";

/** Full-text search per country, answered from the search index of its Streets (written when the build has those streets). */
export const FULL_TEXT_SEARCH: readonly AnyResource[] = [
  streets,
  at.atStreets,
  chStreets,
  liStreets,
].map((r) => fullTextSearchOf(r as unknown as AnyResource));
const [deSearch, atSearch, chSearch, liSearch] = FULL_TEXT_SEARCH as [
  AnyResource,
  AnyResource,
  AnyResource,
  AnyResource,
];

/** Every resource the API can serve; a build serves those it has records for (see `OPTIONAL_RESOURCES`), and writes them to the route table the Worker reads. */
export const RESOURCES: readonly AnyResource[] = [
  streets,
  federalStates,
  de.deGovernmentRegionsByState,
  de.deDistrictsByState,
  de.deDistrictsByRegion,
  de.deAssociationsByState,
  de.deAssociationsByRegion,
  de.deAssociationsByDistrict,
  de.deMunicipalitiesByState,
  de.deMunicipalitiesByRegion,
  de.deMunicipalitiesByDistrict,
  deLocalities,
  de.deLocalitiesByState,
  de.deLocalitiesByRegion,
  de.deLocalitiesByDistrict,
  atFederalProvinces,
  at.atDistrictsByProvince,
  at.atMunicipalitiesByProvince,
  at.atMunicipalitiesByDistrict,
  at.atStreets,
  at.atLocalities,
  at.atLocalitiesByProvince,
  at.atLocalitiesByDistrict,
  chCantons,
  chLi.chDistrictsByCanton,
  chLi.chCommunesByCanton,
  chLi.chCommunesByDistrict,
  chLi.chLocalities,
  chLi.chLocalitiesByCanton,
  chLi.chLocalitiesByDistrict,
  chStreets,
  liCommunes,
  chLi.liLocalities,
  liStreets,
  deSearch,
  atSearch,
  chSearch,
  liSearch,
];

/** Served only when the build reads their optional source (swisstopo's street directory, `ch-streets`): 404 otherwise. */
export const OPTIONAL_RESOURCES: readonly AnyResource[] = [
  chSearch,
  chStreets,
  liSearch,
  liStreets,
];

/** What a build of the embedded data serves. */
export const EMBEDDED_RESOURCES: readonly AnyResource[] = RESOURCES.filter(
  (r) => !OPTIONAL_RESOURCES.includes(r),
);
