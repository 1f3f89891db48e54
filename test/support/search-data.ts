import { readFileSync } from "node:fs";
import { readModelStreets } from "./model.ts";
import { dataFile } from "./paths.ts";

/** The street files the search tests run on: the embedded Berlin streets and the OpenPLZ sample. */
export const SEARCH_FILES = ["de/streets-berlin.csv", "de/streets-openplz-sample.csv"] as const;

export interface SearchStreet {
  readonly id: number;
  readonly name: string;
  readonly postalCode: string;
  readonly locality: string;
}

/** Every row of both files, numbered from 1 in file order (duplicates kept, as the original's table keeps them). */
export async function searchStreets(): Promise<SearchStreet[]> {
  const rows = (
    await Promise.all(SEARCH_FILES.map((file) => readModelStreets(dataFile(file))))
  ).flat();
  return rows.map((r, i) => ({
    id: i + 1,
    name: r.name,
    postalCode: r.postalCode,
    locality: r.locality,
  }));
}

/** The distinct runs of letters in the street files (all columns), for stemmer and generator vocabularies. */
export function dataWords(): Set<string> {
  const words = new Set<string>();
  for (const file of SEARCH_FILES)
    for (const word of readFileSync(dataFile(file), "utf8").split(/[^\p{L}]+/u))
      if (word !== "") words.add(word);
  return words;
}

/** UTF-8 byte order, as PostgreSQL sorts a tsvector's lexemes. */
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** A document's lexemes as PostgreSQL prints the tsvector (`to_tsvector(…)::text`). */
export function tsvectorText(lexemes: ReadonlyMap<string, readonly number[]>): string {
  return [...lexemes]
    .sort(([a], [b]) => byteOrder(a, b))
    .map(
      ([lexeme, positions]) =>
        `'${lexeme.replaceAll("'", "''").replaceAll("\\", "\\\\")}':${positions.join(",")}`,
    )
    .join(" ");
}
