import { federalStatesOf, joinStreets } from "./model/de-streets.ts";
import { atFederalProvinces, chCantons, liCommunes } from "./resources/at-ch-li.ts";
import { federalStates, streets } from "./resources/de.ts";
import { readGv100ad } from "./sources/de-gv100ad.ts";
import { readStreets } from "./sources/de-streets.ts";
import { readAtFederalProvinces, readChCantons, readLiCommunes } from "./sources/lists.ts";
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
    const gv = readGv100ad(loaded["de-gv100ad"].bytes, label("de-gv100ad"));
    return {
      gv,
      streets: joinStreets(await readStreets(loaded["de-streets"].bytes, label("de-streets")), gv),
      atProvinces: readAtFederalProvinces(loaded["at-districts"].bytes, label("at-districts")),
      chCantons: await readChCantons(loaded["ch-cantons"].bytes, label("ch-cantons")),
      liCommunes: await readLiCommunes(loaded["li-communes"].bytes, label("li-communes")),
    };
  });
  const notes: string[] = [];
  const { unknownRegionalKeys, duplicateRows } = sources.streets;
  if (unknownRegionalKeys > 0) notes.push(`${label("de-streets")}: skipped ${unknownRegionalKeys} rows whose RegionalKey is not a GV100AD municipality`);
  if (duplicateRows > 0) notes.push(`${label("de-streets")}: merged ${duplicateRows} duplicate rows`);
  const resources = timer.measure("sort", () => [
    prepare(streets, sources.streets.streets),
    prepare(federalStates, federalStatesOf(sources.gv)),
    prepare(atFederalProvinces, sources.atProvinces),
    prepare(chCantons, sources.chCantons),
    prepare(liCommunes, sources.liCommunes),
  ]);
  return { resources, notes };
}
