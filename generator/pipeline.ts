import { joinLocalities } from "./model/de-localities.ts";
import { regionsOf } from "./model/de-regions.ts";
import { chRegisterOf, localitiesOf } from "./model/ch-li.ts";
import { atRegisterOf } from "./model/at.ts";
import * as at from "./resources/at.ts";
import { readAtDistricts, readAtMunicipalities, readAtStreets } from "./sources/at.ts";
import * as chLi from "./resources/ch-li.ts";
import { readChCommunes, readChDistricts, readLocalityRegister } from "./sources/ch.ts";
import { federalStatesOf, joinStreets } from "./model/de-streets.ts";
import { atFederalProvinces, chCantons, liCommunes } from "./resources/at-ch-li.ts";
import { deLocalities, federalStates, streets } from "./resources/de.ts";
import * as deRegions from "./resources/de-regions.ts";
import { readGv100ad } from "./sources/de-gv100ad.ts";
import { readPostCodes } from "./sources/de-postcodes.ts";
import { readStreets } from "./sources/de-streets.ts";
import { readChCantons, readLiCommunes } from "./sources/lists.ts";
import type { LoadedSources } from "./sources/load.ts";
import { PhaseTimer } from "./timing.ts";
import { prepare, type PreparedResource } from "./write/emit.ts";

export interface LoadReport {
  readonly resources: PreparedResource[];
  readonly notes: string[];
}

/** Turns the loaded sources into the resources the API serves (parsed, joined, grouped and sorted). */
export async function loadResources(loaded: LoadedSources, timer = new PhaseTimer()): Promise<LoadReport> {
  const label = (name: keyof LoadedSources) => loaded[name].label;
  const sources = await timer.measureAsync("read", async () => {
    const bytes = (name: keyof LoadedSources) => loaded[name].bytes;
    const gv = readGv100ad(bytes("de-gv100ad"), label("de-gv100ad"));
    return {
      gv,
      streets: joinStreets(await readStreets(bytes("de-streets"), label("de-streets")), gv),
      postCodes: await readPostCodes(bytes("de-postcodes"), label("de-postcodes")),
      atDistricts: readAtDistricts(bytes("at-districts"), label("at-districts")),
      atMunicipalities: readAtMunicipalities(bytes("at-municipalities"), label("at-municipalities")),
      // The street directory comes in one file per federal province: every part is read.
      atStreets: loaded["at-streets"].parts.flatMap((part) => readAtStreets(part.bytes, part.label)),
      chCantons: await readChCantons(bytes("ch-cantons"), label("ch-cantons")),
      liCommunes: await readLiCommunes(bytes("li-communes"), label("li-communes")),
      chDistricts: await readChDistricts(bytes("ch-districts"), label("ch-districts")),
      chCommunes: await readChCommunes(bytes("ch-communes"), label("ch-communes")),
      localityRegister: await readLocalityRegister(bytes("ch-localities"), label("ch-localities")),
    };
  });
  const notes: string[] = [];
  const { unknownRegionalKeys, duplicateRows } = sources.streets;
  if (unknownRegionalKeys > 0) notes.push(`${label("de-streets")}: skipped ${unknownRegionalKeys} rows whose RegionalKey is not a GV100AD municipality`);
  if (duplicateRows > 0) notes.push(`${label("de-streets")}: merged ${duplicateRows} duplicate rows`);
  const regions = regionsOf(sources.gv);
  const localities = joinLocalities(sources.streets.streets, sources.postCodes, regions.municipalities, sources.gv);
  if (localities.coveredByStreets > 0) notes.push(`${label("de-postcodes")}: ${localities.coveredByStreets} rows replaced by the street list's localities (same postal codes)`);
  if (localities.unmatched + localities.ambiguous > 0) {
    notes.push(`${label("de-postcodes")}: skipped ${localities.unmatched} places that match no GV100AD municipality by name and ${localities.ambiguous} that match several`);
  }
  const austria = atRegisterOf(sources.atDistricts, sources.atMunicipalities, sources.atStreets);
  if (austria.municipalitiesWithoutDistrict > 0) notes.push(`${label("at-municipalities")}: skipped ${austria.municipalitiesWithoutDistrict} rows whose district code is not in ${label("at-districts")}`);
  if (austria.streetsWithoutDistrict > 0) notes.push(`${label("at-streets")}: skipped ${austria.streetsWithoutDistrict} rows whose district code is not in ${label("at-districts")}`);
  const ch = chRegisterOf(sources.chCantons, sources.chDistricts, sources.chCommunes);
  if (ch.orphans > 0) notes.push(`${label("ch-communes")}: skipped ${ch.orphans} communes in force whose district or canton is not`);
  const chLiLocalities = localitiesOf(sources.localityRegister, ch.communes, sources.liCommunes);
  if (chLiLocalities.unknownCommunes > 0) notes.push(`${label("ch-localities")}: skipped ${chLiLocalities.unknownCommunes} rows whose BFS number is no commune in force`);
  const resources = timer.measure("sort", () => [
    prepare(streets, sources.streets.streets),
    prepare(federalStates, federalStatesOf(sources.gv)),
    prepare(deRegions.deGovernmentRegionsByState, regions.governmentRegions),
    prepare(deRegions.deDistrictsByState, regions.districts),
    prepare(deRegions.deDistrictsByRegion, regions.districts),
    prepare(deRegions.deAssociationsByState, regions.associations),
    prepare(deRegions.deAssociationsByRegion, regions.associations),
    prepare(deRegions.deAssociationsByDistrict, regions.associations),
    prepare(deRegions.deMunicipalitiesByState, regions.municipalities),
    prepare(deRegions.deMunicipalitiesByRegion, regions.municipalities),
    prepare(deRegions.deMunicipalitiesByDistrict, regions.municipalities),
    prepare(deLocalities, localities.localities),
    prepare(atFederalProvinces, sources.atDistricts.provinces),
    prepare(at.atDistrictsByProvince, austria.districts),
    prepare(at.atMunicipalitiesByProvince, austria.municipalities),
    prepare(at.atMunicipalitiesByDistrict, austria.municipalities),
    prepare(at.atStreets, austria.streets),
    prepare(at.atLocalities, austria.localities),
    prepare(at.atLocalitiesByProvince, austria.localities),
    prepare(at.atLocalitiesByDistrict, austria.localities),
    prepare(chCantons, sources.chCantons),
    prepare(chLi.chDistrictsByCanton, ch.districts),
    prepare(chLi.chCommunesByCanton, ch.communes),
    prepare(chLi.chCommunesByDistrict, ch.communes),
    prepare(chLi.chLocalities, chLiLocalities.ch),
    prepare(chLi.liLocalities, chLiLocalities.li),
    prepare(liCommunes, sources.liCommunes),
  ]);
  return { resources, notes };
}
