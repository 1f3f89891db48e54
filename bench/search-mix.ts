/**
 * The street-search query mix, built from a street file's own rows: the same requests
 * (same seed, same counts) for PostgreSQL (bench/postgres.ts) and for the static Worker, so their
 * figures can stand side by side per class.
 *
 * FullTextSearch: one word (common, rare), two and three words, with a postal code, and prefix
 * mode (the last word cut short, as typed). /Streets filters: name (substring), ^name, name with
 * postal code, locality, postal-code prefix. Every filter value is in the supported subset.
 */
import { positionedLexemes } from "../generator/contract/postgres/lexize.ts";

export interface MixStreet {
  readonly name: string;
  readonly postalCode: string;
  readonly locality: string;
}

export type SearchRequest =
  | {
      readonly class: string;
      readonly kind: "fts";
      readonly searchTerm: string;
      readonly prefix: boolean;
    }
  | {
      readonly class: string;
      readonly kind: "streets";
      readonly name?: string;
      readonly postalCode?: string;
      readonly locality?: string;
    };

/** Requests per class (defaults: 10,200 in all). Filter classes scan every street in PostgreSQL, hence fewer. */
export const DEFAULT_COUNTS: Readonly<Record<string, number>> = {
  "fts: 1 word, common": 1500,
  "fts: 1 word, rare": 1500,
  "fts: 2 words": 1500,
  "fts: 3 words": 1500,
  "fts: postal code + word": 1500,
  "fts: prefix mode": 1500,
  "streets: name": 240,
  "streets: ^name": 240,
  "streets: name + postalCode": 240,
  "streets: locality": 240,
  "streets: postalCode prefix": 240,
};

/** A deterministic generator of numbers in [0, 1) (mulberry32). */
export function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0; // mulberry32
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Words a user would search for: letters only, 3+ characters, not a stop word. */
export const wordsOf = (text: string): string[] =>
  text
    .split(/[^\p{L}]+/u)
    .filter((w) => w.length >= 3 && positionedLexemes(w).some((l) => l.lexeme !== null));
const escapeRegex = (text: string) => text.replace(/[.\\()[\]{}*+?|^$]/g, (ch) => `\\${ch}`);

export function searchMix(
  streets: readonly MixStreet[],
  seed = 13,
  counts: Readonly<Record<string, number>> = DEFAULT_COUNTS,
): SearchRequest[] {
  const rnd = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;
  const row = () => pick(streets);
  const frequency = new Map<string, number>();
  for (const s of streets)
    for (const w of new Set(wordsOf(`${s.name} ${s.locality}`)))
      frequency.set(w, (frequency.get(w) ?? 0) + 1);
  const byFrequency = [...frequency].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const common = byFrequency.slice(0, 100).map(([w]) => w);
  const rare = byFrequency.filter(([, n]) => n <= 3).map(([w]) => w);
  const nameWords = () => {
    for (;;) {
      const s = row();
      const words = wordsOf(s.name);
      if (words.length > 0) return { s, words };
    }
  };
  const substring = (text: string, min: number, max: number, fromStart: boolean) => {
    const chars = Array.from(text);
    const length = Math.min(chars.length, min + Math.floor(rnd() * (max - min + 1)));
    const start = fromStart ? 0 : Math.floor(rnd() * (chars.length - length + 1));
    return chars.slice(start, start + length).join("");
  };
  const lower = (text: string) => (rnd() < 0.5 ? text.toLowerCase() : text);

  const make: Record<string, () => SearchRequest> = {
    "fts: 1 word, common": () => ({
      class: "fts: 1 word, common",
      kind: "fts",
      searchTerm: pick(common),
      prefix: false,
    }),
    "fts: 1 word, rare": () => ({
      class: "fts: 1 word, rare",
      kind: "fts",
      searchTerm: pick(rare),
      prefix: false,
    }),
    "fts: 2 words": () => {
      const { s, words } = nameWords();
      return {
        class: "fts: 2 words",
        kind: "fts",
        searchTerm: lower(`${pick(words)} ${s.locality}`),
        prefix: false,
      };
    },
    "fts: 3 words": () => {
      const { s, words } = nameWords();
      const two = words.length > 1 ? words.slice(0, 2).join(" ") : `${words[0]} ${s.postalCode}`;
      return {
        class: "fts: 3 words",
        kind: "fts",
        searchTerm: lower(`${s.locality} ${two}`),
        prefix: false,
      };
    },
    "fts: postal code + word": () => {
      const { s, words } = nameWords();
      return {
        class: "fts: postal code + word",
        kind: "fts",
        searchTerm: `${s.postalCode} ${lower(pick(words))}`,
        prefix: false,
      };
    },
    "fts: prefix mode": () => {
      const { s, words } = nameWords();
      return {
        class: "fts: prefix mode",
        kind: "fts",
        searchTerm: lower(`${s.locality} ${substring(pick(words), 2, 6, true)}`),
        prefix: true,
      };
    },
    "streets: name": () => ({
      class: "streets: name",
      kind: "streets",
      name: escapeRegex(lower(substring(row().name, 4, 10, false))),
    }),
    "streets: ^name": () => ({
      class: "streets: ^name",
      kind: "streets",
      name: `^${escapeRegex(substring(row().name, 4, 10, true))}`,
    }),
    "streets: name + postalCode": () => {
      const s = row();
      return {
        class: "streets: name + postalCode",
        kind: "streets",
        name: escapeRegex(lower(substring(s.name, 3, 8, false))),
        postalCode: s.postalCode,
      };
    },
    "streets: locality": () => ({
      class: "streets: locality",
      kind: "streets",
      locality: escapeRegex(row().locality),
    }),
    "streets: postalCode prefix": () => ({
      class: "streets: postalCode prefix",
      kind: "streets",
      postalCode: `^${row().postalCode.slice(0, 3)}`,
    }),
  };
  const requests = Object.entries(counts).flatMap(([name, count]) =>
    Array.from({ length: count }, () => (make[name] ?? unknown(name))()),
  );
  for (let i = requests.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [requests[i], requests[j]] = [requests[j] as SearchRequest, requests[i] as SearchRequest];
  }
  return requests;
}

const unknown = (name: string): never => {
  throw new Error(`unknown query class ${name}`);
};
