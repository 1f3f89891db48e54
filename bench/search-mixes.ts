/**
 * The request mixes of the street-search benches by name, as request paths, for the benches and
 * tools that take any of them (`bench:fresh --mix`, `diff:search`): built from a street list's own
 * rows (the national synthetic list by default), deterministic by seed.
 *
 * - `query`: bench/search-mix.ts (10,200 requests in eleven classes: FullTextSearch and filters);
 * - `adversarial`: bench/search-adversarial.ts (expensive on purpose, one-letter suffixes and
 *   infixes in every filter combination, deep pages);
 * - `address`: bench/search-address-form.ts (a street word beside a place, as an address form sends it);
 * - `grid`: the same file's addressGrid (street words beside postal-code digits of every shape);
 * - `localities`: bench/localities-patterns.ts (Localities patterns on every country; no street list needed);
 * - `typos`: Suggestions of misspelt names of the list, and the prefixes typed on the way to a name
 *   (bench/suggest-typos.ts, as `bench:suggest` draws them);
 * - `suggest`: bench:suggest's adversarial Suggestions texts and its address checks of the embedded
 *   Berlin list (bench/suggest-adversarial.ts).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { readStreets } from "../generator/sources/de-streets.ts";
import { localityPatternPath, localityPatterns } from "./localities-patterns.ts";
import { addressFormMix, addressGrid } from "./search-address-form.ts";
import { adversarialMix, requestPath } from "./search-adversarial.ts";
import { searchMix, type MixStreet } from "./search-mix.ts";
import { addressChecks, adversarialTexts } from "./suggest-adversarial.ts";
import { prefixSet, typoSet } from "./suggest-typos.ts";

export const MIX_NAMES = [
  "query",
  "adversarial",
  "address",
  "grid",
  "localities",
  "typos",
  "suggest",
] as const;
export type MixName = (typeof MIX_NAMES)[number];

export interface MixTarget {
  readonly mix: MixName;
  readonly class: string;
  readonly path: string;
}

/** The requests of one mix over `streets` (localities needs none). */
export function mixOf(name: MixName, streets: readonly MixStreet[], seed: number): MixTarget[] {
  switch (name) {
    case "query":
      return searchMix(streets, seed).map((r) => ({
        mix: name,
        class: r.class,
        path: requestPath(r),
      }));
    case "adversarial":
      return adversarialMix(streets).map((r) => ({
        mix: name,
        class: r.class,
        path: requestPath(r),
      }));
    case "address":
      return addressFormMix(streets).map((r) => ({
        mix: name,
        class: r.class,
        path: requestPath(r),
      }));
    case "grid":
      return addressGrid(streets).map((r) => ({
        mix: name,
        class: r.class,
        path: requestPath(r),
      }));
    case "localities":
      return localityPatterns().map(([country, param, pattern]) => ({
        mix: name,
        class: `localities: ${param}`,
        path: localityPatternPath(country, param, pattern),
      }));
    case "typos": {
      const names = [...new Set(streets.map((s) => s.name))].sort();
      return [
        ...typoSet(names, 200, seed).map((c) => ({ class: "suggest: typo", text: c.text })),
        ...prefixSet(names, 20, seed + 1).map((c) => ({ class: "suggest: prefix", text: c.text })),
      ].map((c) => ({ mix: name, class: c.class, path: suggestionPath(c.text) }));
    }
    case "suggest":
      return [
        ...adversarialTexts([...new Set(streets.map((s) => s.name))]).map((text) => ({
          mix: name,
          class: "suggest: adversarial",
          path: suggestionPath(text),
        })),
        ...addressChecks(BERLIN_STREETS, seed).map((path) => ({
          mix: name,
          class: "address check",
          path,
        })),
      ];
  }
}

const BERLIN_STREETS = resolve(import.meta.dirname, "../data/de/streets-berlin.csv");

const suggestionPath = (text: string) =>
  `/de/Suggestions?${new URLSearchParams({ searchTerm: text, pageSize: "10" }).toString()}`;

export const isMixName = (name: string): name is MixName =>
  (MIX_NAMES as readonly string[]).includes(name);

/** The requests of the named mixes over the street list in `source`, in the order named. */
export async function mixTargets(
  names: readonly string[],
  source: string,
  seed = 13,
): Promise<MixTarget[]> {
  const unknown = names.filter((name) => !isMixName(name));
  if (unknown.length > 0)
    throw new Error(`unknown mix ${unknown.join(", ")}: one of ${MIX_NAMES.join(", ")}`);
  const streets = names.every((name) => name === "localities")
    ? []
    : await readStreets(readFileSync(source), source);
  return names.flatMap((name) => mixOf(name as MixName, streets, seed));
}
