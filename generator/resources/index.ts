import { atFederalProvinces, chCantons, liCommunes } from "./at-ch-li.ts";
import { deLocalities, federalStates, streets } from "./de.ts";
import * as de from "./de-regions.ts";
import * as chLi from "./ch-li.ts";
import * as at from "./at.ts";
import type { AnyResource } from "./resource.ts";

/** Every served resource; the Worker routes over this list and the generator renders it. */
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
  liCommunes,
  chLi.liLocalities,
];
