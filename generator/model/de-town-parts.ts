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
    const named = part.municipalities.filter((m) => containsWords(part.name, shortNameOf(m)));
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

/** Each municipality's short name, split off once: a town part is tested against all of its county's. */
const shortNames = new WeakMap<DeMunicipality, string>();
function shortNameOf(municipality: DeMunicipality): string {
  let name = shortNames.get(municipality);
  if (name === undefined)
    shortNames.set(municipality, (name = officialShortName(municipality.name)));
  return name;
}

export const siblingsKey = (postalCode: string, district: string) =>
  `${postalCode}\u0000${district}`;

/**
 * Whether `words` occurs in `text` as whole words, case-insensitively: as the pattern
 * `(^|[^\p{L}\p{N}])words($|[^\p{L}\p{N}])` with the flags `iu` decides, without compiling it. Such a
 * pattern takes most of a millisecond to compile (its classes are closed under case folding), and
 * each town part is tested against every municipality of its county: 14–18 s of a 20–30 s build of
 * the embedded data. A literal `iu` pattern compiles in microseconds; the boundaries are checked
 * beside each of its matches.
 */
export function containsWords(text: string, words: string): boolean {
  if (words === "") return false;
  if (LATIN_1.test(text) && LATIN_1.test(words)) return containsLatin1Words(text, words);
  const literal = literalPattern(words);
  literal.lastIndex = 0;
  for (let match = literal.exec(text); match !== null; match = literal.exec(text)) {
    const start = match.index;
    const end = start + match[0].length;
    if (
      !WORD_CHARACTER.test(codePointBefore(text, start)) &&
      !WORD_CHARACTER.test(codePointFrom(text, end))
    )
      return true;
    // The next start, a whole code point on (as the pattern's own scan advances): matches may overlap.
    literal.lastIndex = start + ((text.codePointAt(start) ?? 0) > 0xffff ? 2 : 1);
  }
  return false;
}

/**
 * Most names (German ones: umlauts, ß, é) are Latin-1 throughout. Within Latin-1 the pattern's case
 * folding pairs exactly the letters `toLowerCase` pairs (A–Z, À–Þ but ×) and leaves ß, µ and ÿ alone
 * (their partners ẞ, μ, Ÿ lie beyond it), one character for one: so when both strings are Latin-1 a
 * plain search of the lower-cased strings finds the pattern's matches at the same positions, without
 * running the regular expression (the county's every municipality for each town part).
 */
const LATIN_1 = /^[\u0000-\u00ff]*$/;
const WORD_CHARACTER = /^[\p{L}\p{N}]$/u;

function containsLatin1Words(text: string, words: string): boolean {
  const lowerText = text.toLowerCase();
  const lowerWords = words.toLowerCase();
  for (
    let start = lowerText.indexOf(lowerWords);
    start !== -1;
    start = lowerText.indexOf(lowerWords, start + 1)
  ) {
    const end = start + lowerWords.length;
    if (!isWordCharacter(text.charCodeAt(start - 1)) && !isWordCharacter(text.charCodeAt(end)))
      return true;
  }
  return false;
}

/** Whether a Latin-1 code unit (NaN beyond either end) is a letter or a digit (`[\p{L}\p{N}]`). */
function isWordCharacter(unit: number): boolean {
  return unit >= 0 && LATIN_1_WORD[unit] === 1;
}
const LATIN_1_WORD = Uint8Array.from({ length: 256 }, (_, unit) =>
  WORD_CHARACTER.test(String.fromCharCode(unit)) ? 1 : 0,
);

const literalPatterns = new Map<string, RegExp>();
function literalPattern(words: string): RegExp {
  let pattern = literalPatterns.get(words);
  if (pattern === undefined) {
    pattern = new RegExp(words.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "giu");
    literalPatterns.set(words, pattern);
  }
  return pattern;
}

/** The code point that ends at `index` (a surrogate pair whole), or "" at the start. */
function codePointBefore(text: string, index: number): string {
  if (index === 0) return "";
  const low = text.charCodeAt(index - 1);
  const high = index >= 2 ? text.charCodeAt(index - 2) : 0;
  return low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff
    ? text.slice(index - 2, index)
    : text.slice(index - 1, index);
}

/** The code point that starts at `index`, or "" at the end. */
function codePointFrom(text: string, index: number): string {
  const point = text.codePointAt(index);
  return point === undefined ? "" : String.fromCodePoint(point);
}
