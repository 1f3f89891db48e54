import { relative } from "node:path";
import { federalStatesOf, joinStreets } from "./model/de-streets.ts";
import { atFederalProvinces, chCantons, liCommunes } from "./resources/at-ch-li.ts";
import { federalStates, streets } from "./resources/de.ts";
import { readGv100ad } from "./sources/de-gv100ad.ts";
import { readStreets } from "./sources/de-streets.ts";
import { readAtFederalProvinces, readChCantons, readLiCommunes } from "./sources/lists.ts";
import { readSource, type SourceName } from "./sources/registry.ts";
import { prepare, type PreparedResource } from "./write/emit.ts";

export interface LoadReport {
  readonly resources: PreparedResource[];
  readonly notes: string[];
}

/** Reads every source and turns it into the resources the API serves. */
export async function loadResources(paths: Readonly<Record<SourceName, string>>, root: string): Promise<LoadReport> {
  const label = (name: SourceName) => relative(root, paths[name]) || paths[name];
  const read = async (name: SourceName) => readSource(paths[name]);
  const [streetBytes, gvBytes, atBytes, chBytes, liBytes] = await Promise.all([
    read("de-streets"),
    read("de-gv100ad"),
    read("at-districts"),
    read("ch-cantons"),
    read("li-communes"),
  ]);
  const gv = readGv100ad(gvBytes, label("de-gv100ad"));
  const rows = await readStreets(streetBytes, label("de-streets"));
  const joined = joinStreets(rows, gv);
  const notes: string[] = [];
  if (joined.unknownRegionalKeys > 0) notes.push(`${label("de-streets")}: skipped ${joined.unknownRegionalKeys} rows whose RegionalKey is not a GV100AD municipality`);
  if (joined.duplicateRows > 0) notes.push(`${label("de-streets")}: merged ${joined.duplicateRows} duplicate rows`);
  return {
    resources: [
      prepare(streets, joined.streets),
      prepare(federalStates, federalStatesOf(gv)),
      prepare(atFederalProvinces, readAtFederalProvinces(atBytes, label("at-districts"))),
      prepare(chCantons, await readChCantons(chBytes, label("ch-cantons"))),
      prepare(liCommunes, await readLiCommunes(liBytes, label("li-communes"))),
    ],
    notes,
  };
}
