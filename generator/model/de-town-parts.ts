import type { DeMunicipality } from "../resources/de.ts";
import { officialShortName } from "./de-names.ts";
import type { Renaming } from "./join-report.ts";

/**
 * Rows of Open Postal Codes whose name is no municipality of their county: mostly town parts
 * (`Engers`, `Gladbach` for Neuwied's 56566) or a short form GV100AD writes otherwise (`Wehlen`
 * for `Stadt Wehlen`). Such a row is placed in a municipality of its county, never beyond it, when
 * exactly one fits, by the first of these rules that decides:
 *
 * 1. seat: the one municipality of the county whose administrative seat has the row's postal code
 *    (GV100AD's postal code of the seat);
 * 2. name: the one municipality of the county whose short name is a word sequence of the row's
 *    name (`Neuwied östliche Stadtteile: Block`);
 * 3. siblings: every row of the same postal code and county placed so far (by name or by these
 *    rules) lies in one municipality: the town part lies there too.
 *
 * A placed row is served under its municipality's official short name, as every joined row.
 */
export type TownPartRule = "seat" | "name" | "siblings";

export interface TownPart {
  readonly postalCode: string;
  readonly name: string;
  /** The county's district key, and its municipalities (the candidates). */
  readonly district: string;
  readonly municipalities: readonly DeMunicipality[];
}

export interface PlacedTownPart extends Renaming {
  readonly via: TownPartRule;
}

/**
 * Places what it can of `parts`; `placed` holds the municipalities already joined per postal code
 * and district (`code\0district` → keys), and grows with each placement.
 */
export function placeTownParts(
  parts: readonly TownPart[],
  placed: Map<string, Set<string>>,
  byKey: ReadonlyMap<string, DeMunicipality>,
): {
  placed: { part: TownPart; municipality: DeMunicipality; via: TownPartRule }[];
  unplaced: TownPart[];
} {
  const done: { part: TownPart; municipality: DeMunicipality; via: TownPartRule }[] = [];
  const place = (part: TownPart, municipality: DeMunicipality, via: TownPartRule) => {
    done.push({ part, municipality, via });
    const id = siblingsKey(part.postalCode, part.district);
    const keys = placed.get(id);
    if (keys === undefined) placed.set(id, new Set([municipality.key]));
    else keys.add(municipality.key);
  };
  let pending: TownPart[] = [];
  for (const part of parts) {
    const seat = part.municipalities.filter((m) => m.postalCode === part.postalCode);
    const named = part.municipalities.filter((m) =>
      containsWords(part.name, officialShortName(m.name)),
    );
    if (seat.length === 1 && seat[0] !== undefined) place(part, seat[0], "seat");
    else if (named.length === 1 && named[0] !== undefined) place(part, named[0], "name");
    else pending.push(part);
  }
  // Siblings until nothing changes: a placement may decide another row of the same code.
  for (let changed = true; changed;) {
    changed = false;
    const still: TownPart[] = [];
    for (const part of pending) {
      const keys = placed.get(siblingsKey(part.postalCode, part.district));
      const only = keys?.size === 1 ? byKey.get([...keys][0] ?? "") : undefined;
      if (only === undefined) still.push(part);
      else {
        place(part, only, "siblings");
        changed = true;
      }
    }
    pending = still;
  }
  return { placed: done, unplaced: pending };
}

export const siblingsKey = (postalCode: string, district: string) =>
  `${postalCode}\u0000${district}`;

/** Whether `words` occurs in `text` as whole words (case-insensitively). */
function containsWords(text: string, words: string): boolean {
  if (words === "") return false;
  const escaped = words.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, "iu").test(text);
}
