import { atFederalProvinces, chCantons, liCommunes } from "./at-ch-li.ts";
import { federalStates, streets } from "./de.ts";
import * as de from "./de-regions.ts";
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
  atFederalProvinces,
  chCantons,
  liCommunes,
];
