import { atFederalProvinces, chCantons, liCommunes } from "./at-ch-li.ts";
import { deLocalities, federalStates, streets } from "./de.ts";
import * as de from "./de-regions.ts";
import * as chLi from "./ch-li.ts";
import * as at from "./at.ts";
import { chStreets, liStreets } from "./ch-li-streets.ts";
import type { AnyResource } from "./resource.ts";
import { fullTextSearchOf } from "./search.ts";
import { addressCheckOf, suggestionsOf } from "./suggest.ts";

const deSearch = fullTextSearchOf(streets as unknown as AnyResource);
const atSearch = fullTextSearchOf(at.atStreets as unknown as AnyResource);
const chSearch = fullTextSearchOf(chStreets as unknown as AnyResource);
const liSearch = fullTextSearchOf(liStreets as unknown as AnyResource);
/** Suggestions and the address check of a country's streets, listed after its FullTextSearch. */
const suggesting = (streets: unknown): [AnyResource, AnyResource] => [
  suggestionsOf(streets as AnyResource),
  addressCheckOf(streets as AnyResource),
];
const [deSuggestions, deCheck] = suggesting(streets);
const [atSuggestions, atCheck] = suggesting(at.atStreets);
const [chSuggestions, chCheck] = suggesting(chStreets);
const [liSuggestions, liCheck] = suggesting(liStreets);

/**
 * Every resource the API can serve, in the order the API lists them (route table, docs page,
 * downloads manifest), each FullTextSearch after the Streets it searches. A build serves those it
 * has records for (see `OPTIONAL_RESOURCES`); model/records.ts makes each one's records.
 */
export const RESOURCES: readonly AnyResource[] = [
  streets,
  deSearch,
  deSuggestions,
  deCheck,
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
  atSearch,
  atSuggestions,
  atCheck,
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
  chSearch,
  chSuggestions,
  chCheck,
  chLi.liLocalities,
  liStreets,
  liSearch,
  liSuggestions,
  liCheck,
  liCommunes,
];

/** Served only when the build reads their optional source (swisstopo's street directory, `ch-streets`): 404 otherwise. */
export const OPTIONAL_RESOURCES: readonly AnyResource[] = [
  chStreets,
  chSearch,
  chSuggestions,
  chCheck,
  liStreets,
  liSearch,
  liSuggestions,
  liCheck,
];

/** What a build of the embedded data serves. */
export const EMBEDDED_RESOURCES: readonly AnyResource[] = RESOURCES.filter(
  (r) => !OPTIONAL_RESOURCES.includes(r),
);
