import * as at from "../resources/at.ts";
import { atFederalProvinces, chCantons, liCommunes } from "../resources/at-ch-li.ts";
import * as chLi from "../resources/ch-li.ts";
import { chStreets, liStreets } from "../resources/ch-li-streets.ts";
import { deLocalities, federalStates, streets } from "../resources/de.ts";
import * as deRegions from "../resources/de-regions.ts";
import type { AnyResource, Resource } from "../resources/resource.ts";
import type { SourceRows } from "../sources/read.ts";
import type { SourceName } from "../sources/registry.ts";
import { atRegisterOf } from "./at.ts";
import { chRegisterOf, localitiesOf } from "./ch-li.ts";
import { swissStreetsOf } from "./ch-li-streets.ts";
import { joinLocalities } from "./de-localities.ts";
import { regionsOf } from "./de-regions.ts";
import { federalStatesOf, joinStreets } from "./de-streets.ts";
import type { JoinReport } from "./join-report.ts";

/** A resource with the records it serves (type-checked against each other by `dataset`), and the sources they are made of. */
export interface Dataset {
  readonly resource: AnyResource;
  readonly records: readonly unknown[];
  readonly sources: readonly SourceName[];
}

function dataset<R>(
  resource: Resource<R>,
  records: readonly R[],
  sources: readonly SourceName[],
): Dataset {
  return { resource: resource as unknown as AnyResource, records, sources };
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
  const localities = joinLocalities(
    street.streets,
    rows.postCodes,
    regions.municipalities,
    rows.gv,
  );
  const austria = atRegisterOf(rows.atDistricts, rows.atMunicipalities, rows.atStreets);
  const ch = chRegisterOf(rows.chCantons, rows.chDistricts, rows.chCommunes);
  const chLiLocalities = localitiesOf(rows.localityRegister, ch.communes, rows.liCommunes);
  // The street directory is optional: its resources are served when the build reads it, and are absent (404) otherwise.
  const swissStreets =
    rows.swissStreets === undefined
      ? undefined
      : swissStreetsOf(rows.swissStreets, ch.communes, rows.liCommunes);

  const datasets = [
    dataset(streets, street.streets, ["de-streets", "de-gv100ad"]),
    dataset(federalStates, federalStatesOf(rows.gv), ["de-gv100ad"]),
    dataset(deRegions.deGovernmentRegionsByState, regions.governmentRegions, ["de-gv100ad"]),
    dataset(deRegions.deDistrictsByState, regions.districts, ["de-gv100ad"]),
    dataset(deRegions.deDistrictsByRegion, regions.districts, ["de-gv100ad"]),
    dataset(deRegions.deAssociationsByState, regions.associations, ["de-gv100ad"]),
    dataset(deRegions.deAssociationsByRegion, regions.associations, ["de-gv100ad"]),
    dataset(deRegions.deAssociationsByDistrict, regions.associations, ["de-gv100ad"]),
    dataset(deRegions.deMunicipalitiesByState, regions.municipalities, ["de-gv100ad"]),
    dataset(deRegions.deMunicipalitiesByRegion, regions.municipalities, ["de-gv100ad"]),
    dataset(deRegions.deMunicipalitiesByDistrict, regions.municipalities, ["de-gv100ad"]),
    dataset(deLocalities, localities.localities, ["de-streets", "de-postcodes", "de-gv100ad"]),
    dataset(deRegions.deLocalitiesByState, localities.localities, [
      "de-streets",
      "de-postcodes",
      "de-gv100ad",
    ]),
    dataset(deRegions.deLocalitiesByRegion, localities.localities, [
      "de-streets",
      "de-postcodes",
      "de-gv100ad",
    ]),
    dataset(deRegions.deLocalitiesByDistrict, localities.localities, [
      "de-streets",
      "de-postcodes",
      "de-gv100ad",
    ]),
    dataset(atFederalProvinces, rows.atDistricts.provinces, ["at-districts"]),
    dataset(at.atDistrictsByProvince, austria.districts, ["at-districts"]),
    dataset(at.atMunicipalitiesByProvince, austria.municipalities, [
      "at-municipalities",
      "at-districts",
    ]),
    dataset(at.atMunicipalitiesByDistrict, austria.municipalities, [
      "at-municipalities",
      "at-districts",
    ]),
    dataset(at.atStreets, austria.streets, ["at-streets", "at-municipalities", "at-districts"]),
    dataset(at.atLocalities, austria.localities, [
      "at-streets",
      "at-municipalities",
      "at-districts",
    ]),
    dataset(at.atLocalitiesByProvince, austria.localities, [
      "at-streets",
      "at-municipalities",
      "at-districts",
    ]),
    dataset(at.atLocalitiesByDistrict, austria.localities, [
      "at-streets",
      "at-municipalities",
      "at-districts",
    ]),
    dataset(chCantons, ch.cantons, ["ch-cantons"]),
    dataset(chLi.chDistrictsByCanton, ch.districts, ["ch-districts", "ch-cantons"]),
    dataset(chLi.chCommunesByCanton, ch.communes, ["ch-communes", "ch-districts", "ch-cantons"]),
    dataset(chLi.chCommunesByDistrict, ch.communes, ["ch-communes", "ch-districts", "ch-cantons"]),
    dataset(chLi.chLocalities, chLiLocalities.ch, [
      "ch-localities",
      "ch-communes",
      "ch-districts",
      "ch-cantons",
    ]),
    dataset(chLi.chLocalitiesByCanton, chLiLocalities.ch, [
      "ch-localities",
      "ch-communes",
      "ch-districts",
      "ch-cantons",
    ]),
    dataset(chLi.chLocalitiesByDistrict, chLiLocalities.ch, [
      "ch-localities",
      "ch-communes",
      "ch-districts",
      "ch-cantons",
    ]),
    ...(swissStreets === undefined
      ? []
      : [
          dataset(chStreets, swissStreets.ch, [
            "ch-streets",
            "ch-communes",
            "ch-districts",
            "ch-cantons",
          ]),
        ]),
    dataset(chLi.liLocalities, chLiLocalities.li, ["ch-localities", "li-communes"]),
    ...(swissStreets === undefined
      ? []
      : [dataset(liStreets, swissStreets.li, ["ch-streets", "li-communes"])]),
    dataset(liCommunes, rows.liCommunes, ["li-communes"]),
  ];
  const joins = [
    street.report,
    localities.report,
    ...austria.reports,
    ch.districtReport,
    ch.report,
    chLiLocalities.report,
    ...(swissStreets === undefined ? [] : [swissStreets.report]),
  ];
  const label = rows.labels["ch-streets"] ?? "ch-streets";
  const notes = [
    ...(swissStreets?.ch.length === 0
      ? [`${label}: no street of Switzerland, so /ch/Streets serves none`]
      : []),
    ...(swissStreets?.li.length === 0
      ? [`${label}: no street of Liechtenstein, so /li/Streets serves none`]
      : []),
  ];
  return { datasets, joins, notes };
}
