import { PGlite } from "@electric-sql/pglite";
import { fuzzystrmatch } from "@electric-sql/pglite/contrib/fuzzystrmatch";
import fc from "fast-check";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHandler, type Handler } from "../../generator/edge/handler.ts";
import { findNames, TYPO_THRESHOLD, type NameHit } from "../../generator/contract/suggest/find.ts";
import {
  foldWords,
  skeletonOf,
  withoutLeadingWords,
} from "../../generator/contract/suggest/fold.ts";
import { pairTrie, shapesOf } from "../../generator/contract/suggest/names.ts";
import { shardOfPair, type SuggestMeta } from "../../generator/contract/suggest/meta.ts";
import { readingsOf } from "../../generator/contract/suggest/text.ts";
import { Alphabet } from "../../generator/contract/suggest/trie.ts";
import { FAR } from "../../generator/contract/suggest/walk.ts";
import { editWord, seeded } from "../../bench/suggest-typos.ts";
import { localAssets } from "../support/local-assets.ts";
import { allRecords, ask, EMBEDDED_BUDGET, sharedDataBuild } from "../support/memory-build.ts";
import { AT_STREETS } from "../support/source-model.ts";
import { table } from "../support/suggest-reference.ts";

/**
 * Suggestions over the embedded Berlin streets and the Vorarlberg sample (in-process handler):
 * a name with one random edit in a word finds its street, a name typed exactly ranks first,
 * answers are deterministic; and the typos the engine claims for a name, checked against
 * PostgreSQL's levenshtein (fuzzystrmatch, PGlite) and against a plain table of the same
 * distance (test/support/suggest-reference.ts), with every name within one typo found.
 * SUGGEST_SEED=<n> replays a run.
 */
const seed = Number(process.env["SUGGEST_SEED"] ?? Date.now() % 2 ** 31);

let handler: Handler;
/** The shared build's directory (request-logging.test.ts serves the same build). */
let dir: string;
const file = (path: string): Uint8Array | undefined =>
  existsSync(join(dir, path)) ? new Uint8Array(readFileSync(join(dir, path))) : undefined;
let berlin: string[];
let vorarlberg: string[];
let berlinByPosition: string[];
let db: PGlite;

beforeAll(async () => {
  // The build embeddedBuild serves (memory-build.ts), on disk: this suite serves it itself.
  ({ dir } = await sharedDataBuild(EMBEDDED_BUDGET));
  handler = createHandler(localAssets(dir));
  berlinByPosition = (
    (await allRecords(handler, "/de/Streets?locality=Berlin")) as unknown as { name: string }[]
  ).map((s) => s.name);
  berlin = [...new Set(berlinByPosition)];
  vorarlberg = [...new Set(AT_STREETS.map((s) => s.name))];
  db = await PGlite.create({ extensions: { fuzzystrmatch } });
  await db.exec("CREATE EXTENSION fuzzystrmatch;");
}, 300_000);
afterAll(async () => db?.close());

const skeleton = (text: string) => skeletonOf(foldWords(text));
/**
 * A skeleton with its free letters (trie.ts isFree) left out, runs of them too: `fluerstrasse` is
 * Flurstraße's `flurstrasse` with no typo, and `grueenaue` (KGA Grüen Aue) is `gruenau` (KGA
 * Grünau), the walk taking the first `e` after `u` as free and matching the second. Coarser than
 * the walk (`uee` and `u` are one here, a typo apart there): a misspelling it takes for another
 * name is only left unchecked.
 */
const asWalked = (skeleton: string): string =>
  skeleton.replace(/([aou])e+/g, "$1").replace(/s+/g, "s");
const withoutLeadingSkeleton = (name: string): string[] => {
  const rest = withoutLeadingWords(foldWords(name));
  return rest === undefined ? [] : [skeletonOf(rest)];
};
const names = async (country: string, text: string): Promise<string[]> => {
  const answer = await ask(
    handler,
    `/${country}/Suggestions?searchTerm=${encodeURIComponent(text)}&pageSize=50`,
  );
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.text) as { name: string }[]).map((s) => s.name);
};

/** One random edit (a–z) in a word of five letters or more; undefined when the name has none. */
function misspelt(name: string, random: () => number): string | undefined {
  const words = [...name.matchAll(/\p{L}+/gu)].filter((m) => Array.from(m[0]).length >= 5);
  const word = words[Math.floor(random() * words.length)];
  if (word === undefined) return undefined;
  const chars = Array.from(word[0]);
  editWord(chars, random);
  const at = word.index ?? 0;
  return name.slice(0, at) + chars.join("") + name.slice(at + word[0].length);
}

const datasets = () =>
  [
    ["de", berlin],
    ["at", vorarlberg],
  ] as const;

describe("suggestions", () => {
  it(`find a name with one random edit in a word, whole or being typed (seed ${seed})`, async () => {
    const random = seeded(seed);
    let checked = 0;
    for (const [country, list] of datasets()) {
      const skeletons = list.map(skeleton);
      // A name is also found whole without its leading words (`Halde` is Unter der Halde).
      const known = new Set([...skeletons, ...list.flatMap(withoutLeadingSkeleton)].map(asWalked));
      for (let n = 0; n < 150; n++) {
        const name = list[Math.floor(random() * list.length)] ?? "";
        const text = misspelt(name, random);
        // A misspelling that is another name, or begins several, is no misspelling to correct.
        if (text === undefined || known.has(asWalked(skeleton(text)))) continue;
        expect(await names(country, `${text} `), `${text} for ${name}`).toContain(name);
        const begins = skeletons.filter((s) => s.startsWith(skeleton(text))).length;
        if (begins < TYPO_THRESHOLD)
          expect(await names(country, text), `${text}… for ${name}`).toContain(name);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(200);
  }, 600_000);

  it(`rank a name typed exactly first (seed ${seed})`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...datasets()),
        fc.nat(),
        fc.boolean(),
        async ([country, list], i, typing) => {
          const name = list[i % list.length] ?? "";
          const [first] = await names(country, typing ? name : `${name} `);
          expect(first?.toLowerCase()).toBe(name.toLowerCase());
        },
      ),
      { seed, numRuns: 300 },
    );
  }, 600_000);

  // `Raue` begins Rauensteinweg as typed, and Raucheckweg as `Rau` with the free `e` left out.
  it.each([
    ["Raue", "Rauensteinweg", "Raucheckweg"],
    ["Heidelä", "Heideläuferweg", "Heidelandstraße"],
  ])(
    "rank a name begun as typed (%s: %s) before one begun through a free letter (%s)",
    async (text, typed, free) => {
      const found = await names("de", text);
      expect([found.includes(typed), found.includes(free)]).toEqual([true, true]);
      expect(found.indexOf(typed)).toBeLessThan(found.indexOf(free));
    },
  );

  it(`answer alike every time and on every handler (seed ${seed})`, async () => {
    const fresh = createHandler(localAssets(dir));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...datasets()),
        fc.nat(),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom("", " 101", " Berlin", " Bregenz", " 6900"),
        async ([country, list], i, length, place) => {
          const text = (list[i % list.length] ?? "").slice(0, length) + place;
          const target = `/${country}/Suggestions?searchTerm=${encodeURIComponent(text)}&pageSize=7`;
          const [a, b, c] = [
            await ask(handler, target),
            await ask(handler, target),
            await ask(fresh, target),
          ];
          expect(b).toEqual(a);
          expect(c).toEqual(a);
        },
      ),
      { seed, numRuns: 150 },
    );
  }, 600_000);
});

describe("the typos suggestions claim", () => {
  /** The name tries of the Berlin build, as the Worker reads them. */
  function streetNames(text: string) {
    const meta = JSON.parse(
      Buffer.from(file("/_s/de/suggest/meta.json") ?? []).toString("utf8"),
    ) as SuggestMeta;
    const alphabet = new Alphabet(meta.alphabet);
    const shardOf = (pair: string) => {
      const shard = file(`/_s/de/suggest/n/${shardOfPair(meta.shards, pair)}.bin`);
      return shard === undefined ? undefined : pairTrie(shard, pair);
    };
    const parts = readingsOf(text).map((r) => r.street);
    const found = new Map(
      parts.map((part) => {
        const names = new Map<number, NameHit>();
        findNames([{ part, found: names }], alphabet, shardOf, { typos: part.k, raw: false });
        return [part, names] as const;
      }),
    );
    return { alphabet, parts, found };
  }

  it(`agree with PostgreSQL's levenshtein and a plain table, and miss no name within one typo (seed ${seed})`, async () => {
    const random = seeded(seed + 1);
    // The letters the distance takes as free (an e after a, o or u; an s after s), left out.
    const collapse = (s: string) =>
      [...s]
        .filter(
          (ch, i) =>
            !((ch === "e" && "aou".includes(s[i - 1] ?? "")) || (ch === "s" && s[i - 1] === "s")),
        )
        .join("");
    let hits = 0;
    for (let n = 0; n < 25; n++) {
      const name = berlin[Math.floor(random() * berlin.length)] ?? "";
      const text = misspelt(name, random);
      if (text === undefined) continue;
      const { alphabet, parts, found } = streetNames(`${text} `);
      const [part] = parts;
      if (part === undefined) continue;
      const q = alphabet.encode(part.skeleton);
      const claimed = new Map<string, number>();
      for (const hit of found.get(part)?.values() ?? []) {
        if (hit.tier >= 2) continue; // names found without their leading words or begun
        const other = berlinByPosition[hit.position] ?? "";
        claimed.set(other, hit.typos);
        const lev = await db.query<{ d: number }>("SELECT levenshtein($1, $2) AS d", [
          part.skeleton,
          skeleton(other),
        ]);
        const collapsed = await db.query<{ d: number }>("SELECT levenshtein($1, $2) AS d", [
          collapse(part.skeleton),
          collapse(skeleton(other)),
        ]);
        const [plain, pairs] = [lev.rows[0]?.d ?? FAR, collapsed.rows[0]?.d ?? FAR];
        expect(hit.typos, `${text} → ${other}`).toBeLessThanOrEqual(plain);
        expect(pairs, `${text} → ${other}`).toBeLessThanOrEqual(2 * hit.typos);
        const s = alphabet.encode(skeleton(other));
        expect(hit.typos).toBe(table(q, s)[s.length]?.[q.length]);
        hits++;
      }
      // Every name within one typo, each of whose words would tolerate it, is found.
      for (const other of berlin) {
        const words = shapesOf(foldWords(other));
        if (words.some((w) => w.allowance === 0)) continue;
        const s = alphabet.encode(skeleton(other));
        if (Math.abs(s.length - q.length) > 3) continue;
        if ((table(q, s)[s.length]?.[q.length] ?? FAR) <= 1)
          expect(claimed.has(other), `${text} → ${other}`).toBe(true);
      }
    }
    expect(hits).toBeGreaterThan(15);
  }, 600_000);
});
