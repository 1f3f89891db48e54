import * as at from "../resources/at.ts";
import { atFederalProvinces, chCantons, liCommunes } from "../resources/at-ch-li.ts";
import * as chLi from "../resources/ch-li.ts";
import { deLocalities, federalStates, streets } from "../resources/de.ts";
import * as deRegions from "../resources/de-regions.ts";
import type { AnyResource, Resource } from "../resources/resource.ts";
import type { SourceRows } from "../sources/read.ts";
import { atRegisterOf } from "./at.ts";
import { chRegisterOf, localitiesOf } from "./ch-li.ts";
import { joinLocalities } from "./de-localities.ts";
import { regionsOf } from "./de-regions.ts";
import { federalStatesOf, joinStreets } from "./de-streets.ts";

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
  /** What the joins skipped or merged, one line per source and cause. */
  readonly notes: readonly string[];
}

/** Joins the sources' rows into the records of every resource the API serves. */
export function recordsOf(rows: SourceRows): Records {
  const { labels } = rows;
  const notes: string[] = [];
  const note = (count: number, text: string) => count > 0 && notes.push(text);

  const street = joinStreets(rows.takeStreets(), rows.gv);
  note(street.unknownRegionalKeys, `${labels["de-streets"]}: skipped ${street.unknownRegionalKeys} rows whose RegionalKey is not a GV100AD municipality`);
  note(street.duplicateRows, `${labels["de-streets"]}: merged ${street.duplicateRows} duplicate rows`);
  const regions = regionsOf(rows.gv);
  const localities = joinLocalities(street.streets, rows.postCodes, regions.municipalities, rows.gv);
  note(localities.coveredByStreets, `${labels["de-postcodes"]}: ${localities.coveredByStreets} rows replaced by the street list's localities (same postal codes)`);
  note(
    localities.unmatched + localities.ambiguous,
    `${labels["de-postcodes"]}: skipped ${localities.unmatched} places that match no GV100AD municipality by name and ${localities.ambiguous} that match several`,
  );
  const austria = atRegisterOf(rows.atDistricts, rows.atMunicipalities, rows.atStreets);
  note(austria.municipalitiesWithoutDistrict, `${labels["at-municipalities"]}: skipped ${austria.municipalitiesWithoutDistrict} rows whose district code is not in ${labels["at-districts"]}`);
  note(austria.streetsWithoutDistrict, `${labels["at-streets"]}: skipped ${austria.streetsWithoutDistrict} rows whose district code is not in ${labels["at-districts"]}`);
  const ch = chRegisterOf(rows.chCantons, rows.chDistricts, rows.chCommunes);
  note(ch.orphans, `${labels["ch-communes"]}: skipped ${ch.orphans} communes in force whose district or canton is not`);
  const chLiLocalities = localitiesOf(rows.localityRegister, ch.communes, rows.liCommunes);
  note(chLiLocalities.unknownCommunes, `${labels["ch-localities"]}: skipped ${chLiLocalities.unknownCommunes} rows whose BFS number is no commune in force`);

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
    dataset(atFederalProvinces, rows.atDistricts.provinces),
    dataset(at.atDistrictsByProvince, austria.districts),
    dataset(at.atMunicipalitiesByProvince, austria.municipalities),
    dataset(at.atMunicipalitiesByDistrict, austria.municipalities),
    dataset(at.atStreets, austria.streets),
    dataset(at.atLocalities, austria.localities),
    dataset(at.atLocalitiesByProvince, austria.localities),
    dataset(at.atLocalitiesByDistrict, austria.localities),
    dataset(chCantons, rows.chCantons),
    dataset(chLi.chDistrictsByCanton, ch.districts),
    dataset(chLi.chCommunesByCanton, ch.communes),
    dataset(chLi.chCommunesByDistrict, ch.communes),
    dataset(chLi.chLocalities, chLiLocalities.ch),
    dataset(chLi.liLocalities, chLiLocalities.li),
    dataset(liCommunes, rows.liCommunes),
  ];
  return { datasets, notes };
}
