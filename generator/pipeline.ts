import { relative } from "node:path";
import { regionsOf } from "./model/de-regions.ts";
import { federalStatesOf, joinStreets } from "./model/de-streets.ts";
import { atFederalProvinces, chCantons, liCommunes } from "./resources/at-ch-li.ts";
import { federalStates, streets } from "./resources/de.ts";
import * as deRegions from "./resources/de-regions.ts";
import { readGv100ad } from "./sources/de-gv100ad.ts";
import { readStreets } from "./sources/de-streets.ts";
import { readAtFederalProvinces, readChCantons, readLiCommunes } from "./sources/lists.ts";
import { readSource, type SourceName } from "./sources/registry.ts";
import { PhaseTimer } from "./timing.ts";
import { prepare, type PreparedResource } from "./write/emit.ts";

export interface LoadReport {
  readonly resources: PreparedResource[];
  readonly notes: string[];
}

/** Reads every source and turns it into the resources the API serves (grouped and sorted). */
export async function loadResources(paths: Readonly<Record<SourceName, string>>, root: string, timer = new PhaseTimer()): Promise<LoadReport> {
  const label = (name: SourceName) => relative(root, paths[name]) || paths[name];
  const sources = await timer.measureAsync("read", async () => {
    const read = async (name: SourceName) => readSource(paths[name]);
    const [streetBytes, gvBytes, atBytes, chBytes, liBytes] = await Promise.all([
      read("de-streets"),
      read("de-gv100ad"),
      read("at-districts"),
      read("ch-cantons"),
      read("li-communes"),
    ]);
    const gv = readGv100ad(gvBytes, label("de-gv100ad"));
    return {
      gv,
      streets: joinStreets(await readStreets(streetBytes, label("de-streets")), gv),
      atProvinces: readAtFederalProvinces(atBytes, label("at-districts")),
      chCantons: await readChCantons(chBytes, label("ch-cantons")),
      liCommunes: await readLiCommunes(liBytes, label("li-communes")),
    };
  });
  const notes: string[] = [];
  const { unknownRegionalKeys, duplicateRows } = sources.streets;
  if (unknownRegionalKeys > 0) notes.push(`${label("de-streets")}: skipped ${unknownRegionalKeys} rows whose RegionalKey is not a GV100AD municipality`);
  if (duplicateRows > 0) notes.push(`${label("de-streets")}: merged ${duplicateRows} duplicate rows`);
  const regions = regionsOf(sources.gv);
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
    prepare(atFederalProvinces, sources.atProvinces),
    prepare(chCantons, sources.chCantons),
    prepare(liCommunes, sources.liCommunes),
  ]);
  return { resources, notes };
}
