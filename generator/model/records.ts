import * as at from "../resources/at.ts";
import { atFederalProvinces, chCantons, liCommunes } from "../resources/at-ch-li.ts";
import * as chLi from "../resources/ch-li.ts";
import { chStreets, liStreets } from "../resources/ch-li-streets.ts";
import { deLocalities, federalStates, streets } from "../resources/de.ts";
import * as deRegions from "../resources/de-regions.ts";
import type { AnyResource, Resource } from "../resources/resource.ts";
import type { SourceRows } from "../sources/read.ts";
import { atRegisterOf } from "./at.ts";
import { chRegisterOf, localitiesOf } from "./ch-li.ts";
import { swissStreetsOf } from "./ch-li-streets.ts";
import { joinLocalities } from "./de-localities.ts";
import { regionsOf } from "./de-regions.ts";
import { federalStatesOf, joinStreets } from "./de-streets.ts";
import type { JoinReport } from "./join-report.ts";

/** A resource with the records it serves (type-checked against each other by `dataset`). */
export interface Dataset {
  readonly resource: AnyResource;
  readonly records: readonly unknown[];
}

function dataset<R>(resource: Resource<R>, records: readonly R[]): Dataset {
  return { resource: resource as unknown as AnyResource, records };
}

export interface Records {
  /** Every served resource with its records, in the order the API lists them. */
  readonly datasets: readonly Dataset[];
  /** Per source joined to another, what the join made of its rows (the build prints them, the downloads manifest records them). */
  readonly joins: readonly JoinReport[];
  /** Anything else the build should say about the sources. */
  readonly notes: readonly string[];
}

/** Joins the sources' rows into the records of every resource the API serves. */
export function recordsOf(rows: SourceRows): Records {
  const street = joinStreets(rows.takeStreets(), rows.gv);
  const regions = regionsOf(rows.gv);
  const localities = joinLocalities(street.streets, rows.postCodes, regions.municipalities, rows.gv);
  const austria = atRegisterOf(rows.atDistricts, rows.atMunicipalities, rows.atStreets);
  const ch = chRegisterOf(rows.chCantons, rows.chDistricts, rows.chCommunes);
  const chLiLocalities = localitiesOf(rows.localityRegister, ch.communes, rows.liCommunes);
  // The street directory is optional: its resources are served when the build reads it, and are absent (404) otherwise.
  const swissStreets = rows.swissStreets === undefined ? undefined : swissStreetsOf(rows.swissStreets, ch.communes, rows.liCommunes);

  const datasets = [
    dataset(streets, street.streets),
    dataset(federalStates, federalStatesOf(rows.gv)),
    dataset(deRegions.deGovernmentRegionsByState, regions.governmentRegions),
    dataset(deRegions.deDistrictsByState, regions.districts),
    dataset(deRegions.deDistrictsByRegion, regions.districts),
    dataset(deRegions.deAssociationsByState, regions.associations),
    dataset(deRegions.deAssociationsByRegion, regions.associations),
    dataset(deRegions.deAssociationsByDistrict, regions.associations),
    dataset(deRegions.deMunicipalitiesByState, regions.municipalities),
    dataset(deRegions.deMunicipalitiesByRegion, regions.municipalities),
    dataset(deRegions.deMunicipalitiesByDistrict, regions.municipalities),
    dataset(deLocalities, localities.localities),
    dataset(deRegions.deLocalitiesByState, localities.localities),
    dataset(deRegions.deLocalitiesByRegion, localities.localities),
    dataset(deRegions.deLocalitiesByDistrict, localities.localities),
    dataset(atFederalProvinces, rows.atDistricts.provinces),
    dataset(at.atDistrictsByProvince, austria.districts),
    dataset(at.atMunicipalitiesByProvince, austria.municipalities),
    dataset(at.atMunicipalitiesByDistrict, austria.municipalities),
    dataset(at.atStreets, austria.streets),
    dataset(at.atLocalities, austria.localities),
    dataset(at.atLocalitiesByProvince, austria.localities),
    dataset(at.atLocalitiesByDistrict, austria.localities),
    dataset(chCantons, ch.cantons),
    dataset(chLi.chDistrictsByCanton, ch.districts),
    dataset(chLi.chCommunesByCanton, ch.communes),
    dataset(chLi.chCommunesByDistrict, ch.communes),
    dataset(chLi.chLocalities, chLiLocalities.ch),
    dataset(chLi.chLocalitiesByCanton, chLiLocalities.ch),
    dataset(chLi.chLocalitiesByDistrict, chLiLocalities.ch),
    ...(swissStreets === undefined ? [] : [dataset(chStreets, swissStreets.ch)]),
    dataset(chLi.liLocalities, chLiLocalities.li),
    ...(swissStreets === undefined ? [] : [dataset(liStreets, swissStreets.li)]),
    dataset(liCommunes, rows.liCommunes),
  ];
  const joins = [street.report, localities.report, ...austria.reports, ch.report, chLiLocalities.report, ...(swissStreets === undefined ? [] : [swissStreets.report])];
  const label = rows.labels["ch-streets"] ?? "ch-streets";
  const notes = [
    ...(swissStreets?.ch.length === 0 ? [`${label}: no street of Switzerland, so /ch/Streets serves none`] : []),
    ...(swissStreets?.li.length === 0 ? [`${label}: no street of Liechtenstein, so /li/Streets serves none`] : []),
  ];
  return { datasets, joins, notes };
}
