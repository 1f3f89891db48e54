/**
 * What an address form sends to `/de/Streets`, built from a street file's own rows: a street word
 * (a common street word such as `straße`, `weg`, `platz`, `allee`: one of the eight most streets
 * hold; a common or a rare word of 4+ letters of the list's names; or a whole street name) beside
 * a locality's name (one of the 20 biggest cities, the street's own locality, or any place of the
 * list) or the first 2–5 digits of the street's postal code, or both; mostly
 * unanchored, as the original's users write them (its filters are `~*` substring matches), some
 * anchored (`^…`, `…$`, `^…$`). Every request twice: page 1 and a deeper page. Deterministic by
 * seed. Used by the differential run (test/tools/search-differential.ts) and `bench:fresh --mix
 * address`.
 */
import type { AdversarialRequest } from "./search-adversarial.ts";
import { random, wordsOf, type MixStreet } from "./search-mix.ts";

/** Street-type words an address form's users type alone; those the list holds are drawn by frequency. */
const STREET_WORDS = [
  "straße",
  "strasse",
  "weg",
  "platz",
  "allee",
  "gasse",
  "ring",
  "damm",
  "ufer",
  "chaussee",
  "pfad",
  "steig",
  "graben",
  "markt",
  "garten",
  "siedlung",
  "brücke",
  "winkel",
];

/** How many streets hold each word of the names, each street word, each locality. */
function countsOf(streets: readonly MixStreet[]) {
  const words = new Map<string, number>();
  const localities = new Map<string, number>();
  const typeWords = new Map<string, number>();
  for (const s of streets) {
    for (const w of new Set(wordsOf(s.name))) words.set(w, (words.get(w) ?? 0) + 1);
    localities.set(s.locality, (localities.get(s.locality) ?? 0) + 1);
    const lower = s.name.toLowerCase();
    for (const w of STREET_WORDS)
      if (lower.includes(w)) typeWords.set(w, (typeWords.get(w) ?? 0) + 1);
  }
  return { words, typeWords, localities };
}

/** The keys, most streets first (ties in code-unit order). */
const byCount = (counts: Map<string, number>) =>
  [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);

const escapeRegex = (text: string) => text.replace(/[.\\()[\]{}*+?|^$]/g, (ch) => `\\${ch}`);

export function addressFormMix(
  streets: readonly MixStreet[],
  seed = 41,
  pairs = 160,
): AdversarialRequest[] {
  const rnd = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;
  const { words, typeWords, localities } = countsOf(streets);
  const common = byCount(words)
    .filter((w) => Array.from(w).length >= 4)
    .slice(0, 60);
  const rare = byCount(words).filter((w) => Array.from(w).length >= 4 && (words.get(w) ?? 0) <= 3);
  // The eight street words most streets hold (straße, weg, platz, allee, …), each as likely.
  const streetWords = byCount(typeWords).slice(0, 8);
  const cities = byCount(localities).slice(0, 20);
  const places = [...localities.keys()].sort();
  const typed = (text: string) => (rnd() < 0.5 ? text.toLowerCase() : text);

  const out: AdversarialRequest[] = [];
  for (let i = 0; i < pairs; i++) {
    const s = pick(streets);
    const how = rnd();
    const [kind, word] =
      how < 0.4 && streetWords.length > 0
        ? ["street word", pick(streetWords)]
        : how < 0.55
          ? ["common word", typed(pick(common))]
          : how < 0.7
            ? ["rare word", typed(pick(rare.length > 0 ? rare : common))]
            : ["whole name", s.name];
    const anchor = rnd();
    const name =
      anchor < 0.7
        ? escapeRegex(word)
        : anchor < 0.8
          ? `^${escapeRegex(word)}`
          : anchor < 0.9
            ? `${escapeRegex(word)}$`
            : `^${escapeRegex(word)}$`;
    const where = rnd();
    // A big city, the street's own locality (mostly, for a whole name) or any place of the list.
    const locality = () => {
      const which = rnd();
      const own = kind === "whole name" ? 0.6 : 0.25;
      const value = which < own ? s.locality : which < own + 0.5 ? pick(cities) : pick(places);
      return rnd() < 0.8 ? escapeRegex(value) : `^${escapeRegex(value)}$`;
    };
    const postalCode = () => {
      const digits = s.postalCode.slice(0, 2 + Math.floor(rnd() * 4));
      return rnd() < 0.8 ? digits : `^${digits}`;
    };
    const [place, values] =
      where < 0.45
        ? ["locality", { locality: locality() }]
        : where < 0.8
          ? ["postal code", { postalCode: postalCode() }]
          : ["both", { locality: locality(), postalCode: postalCode() }];
    const klass = `address: ${kind} + ${place}`;
    out.push({ class: klass, kind: "streets", name, ...values });
    const pageSize = rnd() < 0.5 ? 10 : 50;
    out.push({
      class: `${klass}, deeper page`,
      kind: "streets",
      name,
      ...values,
      page: 2 + Math.floor(rnd() * 9),
      pageSize,
    });
  }
  return out;
}

/**
 * Every street word of STREET_WORDS the list holds and its 20 commonest words of 4+ letters, each
 * beside postal-code digits in every shape an address form's users write (two digits anywhere,
 * the first one or two, the last one or two, three anywhere, three to five from the start), taken
 * from `codes` postal codes of the list drawn by seed; page 1 at the default page size. The
 * classes the address-form mix draws only by chance, side by side.
 */
export function addressGrid(
  streets: readonly MixStreet[],
  seed = 43,
  codes = 2,
): AdversarialRequest[] {
  const rnd = random(seed);
  const { words, typeWords } = countsOf(streets);
  const common = byCount(words)
    .filter((w) => Array.from(w).length >= 4)
    .slice(0, 20)
    .map((w) => w.toLowerCase());
  const names = [...new Set([...STREET_WORDS.filter((w) => typeWords.has(w)), ...common])];
  const out: AdversarialRequest[] = [];
  for (let c = 0; c < codes && streets.length > 0; c++) {
    const code = streets[Math.floor(rnd() * streets.length)]?.postalCode ?? "";
    const middle = Math.floor(rnd() * Math.max(1, code.length - 2));
    const shapes: [string, string][] = [
      ["two digits", code.slice(middle, middle + 2)],
      ["first digit", `^${code.slice(0, 1)}`],
      ["first two", `^${code.slice(0, 2)}`],
      ["last digit", `${code.slice(-1)}$`],
      ["last two", `${code.slice(-2)}$`],
      ["three digits", code.slice(middle, middle + 3)],
      ["first three to five", `^${code.slice(0, 3 + Math.floor(rnd() * 3))}`],
    ];
    for (const [shape, postalCode] of shapes)
      for (const name of names)
        out.push({
          class: `address grid: word + ${shape}`,
          kind: "streets",
          name: escapeRegex(name),
          postalCode,
        });
  }
  return out;
}
