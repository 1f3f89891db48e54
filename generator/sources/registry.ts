import { readFile } from "node:fs/promises";
import { resolve } from "node:path";

/** The sources a build reads, by the name used in `--source NAME=PATH`, with their embedded default. */
export const SOURCE_DEFAULTS = {
  "de-streets": "data/de/streets-berlin.csv",
  "de-gv100ad": "data/de/GV100AD_30112025.txt",
  "de-postcodes": "data/de/post_code.csv",
  "at-districts": "data/at/districts-2015.txt",
  "at-municipalities": "data/at/gemliste_knz.csv",
  "at-streets": "data/at/gemplzstr_8-vorarlberg-sample.csv",
  "ch-cantons": "data/ch/GDEHist_KT.txt",
  "ch-districts": "data/ch/GDEHist_BEZ.txt",
  "ch-communes": "data/ch/GDEHist_GDE.txt",
  "ch-localities": "data/ch/AMTOVZ_CSV_LV95.csv",
  "li-communes": "data/li/communes.csv",
} as const;

export type SourceName = keyof typeof SOURCE_DEFAULTS;

export function isSourceName(name: string): name is SourceName {
  return Object.hasOwn(SOURCE_DEFAULTS, name);
}

/** Resolves `--source` overrides over the defaults, relative to `root`. */
export function sourcePaths(root: string, overrides: Readonly<Partial<Record<SourceName, string>>>): Record<SourceName, string> {
  const paths = {} as Record<SourceName, string>;
  for (const name of Object.keys(SOURCE_DEFAULTS) as SourceName[]) paths[name] = resolve(root, overrides[name] ?? SOURCE_DEFAULTS[name]);
  return paths;
}

/** The only code that reads source files. */
export async function readSource(path: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    throw new Error(`cannot read source ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}
