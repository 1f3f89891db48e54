import type { DeLocality, DeMunicipality, Street } from "../resources/de.ts";
import type { Gv100ad } from "../sources/de-gv100ad.ts";
import type { PostCodeRow } from "../sources/de-postcodes.ts";

/**
 * German localities (postal code + place name + municipality) from the best data there is:
 * - where the street list has a postal code, its (postal code, locality, municipality) triples:
 *   exact, with the municipality's official key;
 * - elsewhere Open Postal Codes (`post_code.csv`, all of Germany, OSM-derived), whose places have
 *   no municipality key: a place is joined to the GV100AD municipality of the same name in the
 *   same federal state (names compared without GV100AD's suffixes such as ", Stadt" and either
 *   side of a bilingual "Bautzen/Budyšin"); several candidates are told apart by the county. A
 *   place that matches no municipality, or several, is skipped and counted.
 */
export interface LocalityJoin {
  readonly localities: DeLocality[];
  /** post_code.csv rows whose postal code the street list covers (the streets win). */
  readonly coveredByStreets: number;
  readonly unmatched: number;
  readonly ambiguous: number;
}

export function joinLocalities(streets: readonly Street[], postCodes: readonly PostCodeRow[], municipalities: readonly DeMunicipality[], gv: Gv100ad): LocalityJoin {
  const byKey = new Map(municipalities.map((m) => [m.key, m]));
  const localities = new Map<string, DeLocality>();
  const add = (postalCode: string, name: string, municipality: DeMunicipality) => {
    const id = `${postalCode}\u0000${name}\u0000${municipality.key}`;
    if (localities.has(id)) return;
    localities.set(id, {
      postalCode,
      name,
      municipality: { key: municipality.key, name: municipality.name, type: municipality.type },
      ...(municipality.district === undefined ? {} : { district: municipality.district }),
      federalState: municipality.federalState,
    });
  };

  const streetCodes = new Set<string>();
  for (const street of streets) {
    const municipality = byKey.get(street.municipality.key);
    if (municipality === undefined) continue;
    streetCodes.add(street.postalCode);
    add(street.postalCode, street.locality, municipality);
  }

  const stateNames = new Map(gv.federalStates.map((s) => [s.name, s.key]));
  const candidates = new Map<string, DeMunicipality[]>();
  for (const m of municipalities) {
    for (const name of nameVariants(m.name.split(",")[0] ?? m.name)) {
      const id = `${m.federalState.key}\u0000${name}`;
      const list = candidates.get(id) ?? [];
      if (!list.includes(m)) list.push(m);
      candidates.set(id, list);
    }
  }
  let coveredByStreets = 0;
  let unmatched = 0;
  let ambiguous = 0;
  for (const row of postCodes) {
    if (streetCodes.has(row.postalCode)) {
      coveredByStreets++;
      continue;
    }
    const name = row.city.replace(/\s+u\.\s?a\.$/, "");
    const state = stateNames.get(row.state) ?? "";
    // The closest spelling first: as written, then without a parenthesis, then either side of a slash.
    const found = nameVariants(name).map((variant) => candidates.get(`${state}\u0000${variant}`) ?? []).find((list) => list.length > 0) ?? [];
    const county = countyName(row.county.split(" - ")[0] ?? "");
    const chosen = found.length <= 1 ? found : found.filter((m) => m.district !== undefined && countyName(m.district.name.split(",")[0] ?? "") === county);
    const municipality = chosen[0];
    if (municipality === undefined) (found.length > 1 ? ambiguous++ : unmatched++);
    else if (chosen.length > 1) ambiguous++;
    else add(row.postalCode, name, municipality);
  }
  return { localities: [...localities.values()], coveredByStreets, unmatched, ambiguous };
}

/**
 * Spellings a place name is compared in, closest first: `Halle (Saale)` → `halle (saale)`,
 * `halle`; `Bautzen/Budyšin` → `bautzen/budyšin`, `bautzen`, `budyšin`; `Halle/ Saale` → …, `halle`, `saale`.
 */
function nameVariants(name: string): string[] {
  const folded = fold(name);
  const withoutParenthesis = folded.replace(/\s*\([^)]*\)\s*/g, " ").trim();
  return [...new Set([folded, withoutParenthesis, ...folded.split("/").map((part) => part.trim())])].filter((v) => v !== "");
}

/** `Landkreis München` and `München` (GV100AD's name of that Landkreis) compare equal. */
function countyName(name: string): string {
  return fold(name).replace(/^(landkreis|kreis|regionalverband|städteregion|region)\s+/, "");
}

/** Case, Unicode form and the spaces after abbreviations (`a. Chiemsee` = `a.Chiemsee`) do not matter. */
function fold(value: string): string {
  return value.normalize("NFC").trim().toLowerCase().replace(/\.\s+/g, ".");
}
