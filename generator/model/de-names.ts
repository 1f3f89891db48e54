/**
 * Comparing the place and county names of Open Postal Codes (OSM spellings: `Mühldorf am Inn`,
 * `Halle/ Saale`, `Cottbus - Chóśebuz`) with GV100AD's official ones (`Mühldorf a.Inn`,
 * `Halle (Saale), Stadt`, `Cottbus/Chóśebuz, Stadt`). Closer matches are tried first, so a
 * looser rule never overrides an exact one.
 */

/**
 * How closely two names match:
 * 1 exactly (after folding);
 * 2 one is a side of the other's bilingual or double name (`Bautzen` of `Bautzen / Budyšin`);
 * 3 word by word, abbreviations matching their words (`a.d.` = `an der`), or so once the
 *   prepositions are gone (`Bergen/ Rügen` = `Bergen auf Rügen`);
 * 4 the same name without what qualifies it — a parenthesis, a second side, a `bei …`, `am …` —
 *   when only one of the two is qualified (`Frankfurt` of `Frankfurt (Oder)` and of `Frankfurt am
 *   Main`; `Wentorf` of `Wentorf bei Hamburg` and of `Wentorf (Amt Sandesneben)`, which then
 *   cannot be told apart);
 * 0 not at all.
 */
export type Closeness = 0 | 1 | 2 | 3 | 4;

/** GV100AD's name without its suffix: `Frankfurt (Oder), Stadt` → `Frankfurt (Oder)`. */
export function officialShortName(name: string): string {
  return (name.split(",")[0] ?? name).trim();
}

/**
 * Case, Unicode form, the space after an abbreviation's dot (`a. Chiemsee` = `a.Chiemsee`) and a
 * space on one side of a slash (`Halle/ Saale` = `Halle/Saale`) do not matter; a slash spaced on
 * both sides separates the two languages of a name (`Lübbenau/Spreewald / Lubnjow/Błota`).
 */
export function fold(value: string): string {
  return value
    .normalize("NFC")
    .trim()
    .toLowerCase()
    .replace(/\.\s+/g, ".")
    .replace(/\s+\/(?!\s)/g, "/")
    .replace(/(?<!\s)\/\s+/g, "/");
}

/** The sides of a bilingual or double name: `A / B`, `A - B`, else `A/B`; none for a simple name. */
function sides(folded: string): string[] {
  const spaced = folded.split(/\s+\/\s+|\s+-\s+/);
  const parts = spaced.length > 1 ? spaced : folded.split("/");
  return parts.length > 1 ? parts.map((s) => s.trim()).filter((s) => s !== "") : [];
}

/** Words, an abbreviation keeping its dot: `neustadt a.d.aisch-bad windsheim` → neustadt, a., d., aisch-bad, windsheim. */
function words(folded: string): string[] {
  return (folded.match(/[^\s./()]+\.?/gu) ?? []).filter((word) => word !== "-");
}

/** `a.` ≈ `am`, `opf.` ≈ `oberpfalz`, `st.` ≈ `sankt`: an abbreviation's letters in order, from the first letter on. */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.endsWith(".")
    ? [a.slice(0, -1), b.replace(/\.$/, "")]
    : b.endsWith(".")
      ? [b.slice(0, -1), a]
      : [undefined, undefined];
  if (short === undefined || long === undefined || short === "" || short[0] !== long[0])
    return false;
  let at = 0;
  for (const ch of long) if (ch === short[at]) at++;
  return at === short.length;
}

/** Word by word, and at least one word in full: `u.a.` is no abbreviation of `Ummanz`. */
function sameWords(a: readonly string[], b: readonly string[]): boolean {
  return (
    a.length === b.length &&
    a.some((word, i) => word === b[i]) &&
    a.every((word, i) => sameWord(word, b[i] ?? ""))
  );
}

/** Words that start a name's qualifier: `Wentorf bei Hamburg`, `Landsberg am Lech`, `Weiden i.d.OPf.`. */
const QUALIFIERS = new Set([
  "bei",
  "b.",
  "am",
  "an",
  "a.",
  "im",
  "in",
  "i.",
  "ob",
  "o.",
  "vor",
  "v.",
  "auf",
  "unter",
  "u.",
  "zu",
  "z.",
]);

/** The articles after a preposition: `an der`, `a.d.`. */
const ARTICLES = new Set(["der", "dem", "den", "d."]);

/** A name's words without its qualifiers: `frankfurt (oder)`, `frankfurt am main` → frankfurt. */
function baseWords(folded: string): string[] {
  const [first = ""] = folded
    .replace(/\s*\([^)]*\)\s*/g, " ")
    .trim()
    .split(/\/|\s+-\s+/);
  const list = words(first);
  const at = list.findIndex((word, i) => i > 0 && QUALIFIERS.has(word));
  return at < 0 ? list : list.slice(0, at);
}

/** How closely a source name matches an official one (see `Closeness`). */
export function closeness(sourceName: string, officialName: string): Closeness {
  return closenessOf(formsOf(sourceName), officialFormsOf(officialName));
}

function closenessOf(a: Forms, b: Forms): Closeness {
  if (a.folded === b.folded) return 1;
  if (a.sides.includes(b.folded) || b.sides.includes(a.folded)) return 2;
  // A whole name against the other whole or one of its sides, never side against side (`Auerbach/Vogtl.` is no `Falkenstein/Vogtl.`).
  if (
    sameWords(a.words, b.words) ||
    b.sideWords.some((side) => sameWords(a.words, side)) ||
    a.sideWords.some((side) => sameWords(side, b.words))
  )
    return 3;
  // The same words once the prepositions are gone: `Bergen/ Rügen` is `Bergen auf Rügen`, `Frankfurt/Oder` is `Frankfurt (Oder)`.
  if (sameWords(a.content, b.content)) return 3;
  // Only one of them may be qualified: `Berka/Werra` is not `Berka v. d. Hainich`.
  if ((a.bare || b.bare) && sameWords(a.base, b.base)) return 4;
  return 0;
}

interface Forms {
  readonly folded: string;
  readonly sides: readonly string[];
  readonly words: readonly string[];
  readonly sideWords: readonly (readonly string[])[];
  readonly base: readonly string[];
  /** Its words without prepositions (`an`, `a.`, `der`, `d.`, …). */
  readonly content: readonly string[];
  /** Without any qualifier: its base is all of it. */
  readonly bare: boolean;
}

/** A name's forms, worked out once per name: a join compares each official name with thousands of rows. */
const forms = new Map<string, Forms>();
function formsOf(name: string): Forms {
  let found = forms.get(name);
  if (found === undefined) {
    const folded = fold(name);
    const sideList = sides(folded);
    const wordList = words(folded);
    const base = baseWords(folded);
    const content = wordList.filter(
      (word, i) => i === 0 || !(QUALIFIERS.has(word) || ARTICLES.has(word)),
    );
    found = {
      folded,
      sides: sideList,
      words: wordList,
      sideWords: sideList.map(words),
      base,
      bare: base.length === wordList.length,
      content,
    };
    forms.set(name, found);
  }
  return found;
}

/** An official name's forms by the whole name (its suffix not split off again for every row). */
const officialForms = new Map<string, Forms>();
function officialFormsOf(officialName: string): Forms {
  let found = officialForms.get(officialName);
  if (found === undefined)
    officialForms.set(officialName, (found = formsOf(officialShortName(officialName))));
  return found;
}

/**
 * The candidates a name matches most closely: those of the best closeness there is (several when
 * they cannot be told apart), none when it matches none.
 */
export function closestMatches<T>(
  sourceName: string,
  candidates: readonly T[],
  officialName: (candidate: T) => string,
): T[] {
  const source = formsOf(sourceName);
  let best: Closeness = 0;
  let found: T[] = [];
  for (const candidate of candidates) {
    const c = closenessOf(source, officialFormsOf(officialName(candidate)));
    if (c === 0 || (best !== 0 && c > best)) continue;
    if (c < best || best === 0) found = [];
    best = c;
    found.push(candidate);
  }
  return found;
}
