import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { typosOf, WARM_CASES, warmTyposOf } from "../../generator/contract/suggest/distance.ts";
import { Alphabet, encodeTrie } from "../../generator/contract/suggest/trie.ts";
import { FAR, TrieWalker } from "../../generator/contract/suggest/walk.ts";
import { table } from "../support/suggest-reference.ts";

/**
 * The suggestions' bounded walk (walk.ts) against a plain edit-distance table computed here for
 * every skeleton: the same skeletons found, with the same distances, for generated tries and
 * queries (prefix mode too), and the word-by-word check (distance.ts) against the same table
 * with its weights. SUGGEST_SEED=<n> replays a run.
 */
const seed = Number(process.env["SUGGEST_SEED"] ?? Date.now() % 2 ** 31);
const alphabet = new Alphabet("abcdefghijklmnopqrstuvwxyz0123456789");

const letters = fc.constantFrom(..."aeosurtnbl16");
const skeleton = fc.array(letters, { minLength: 1, maxLength: 9 }).map((a) => a.join(""));

function walked(
  skeletons: readonly string[],
  query: string,
  k: number,
  prefix: boolean,
): Map<string, [number, number]> {
  const entries = skeletons.map((text, i) => ({
    key: alphabet.encode(text),
    payload: Uint8Array.of(i),
  }));
  const trie = encodeTrie(entries);
  const found = new Map<string, [number, number]>();
  new TrieWalker().walk(trie, alphabet.encode(query), k, prefix, (from, to, full, best) => {
    for (let at = from; at < to; at++) found.set(skeletons[trie[at] ?? 0] ?? "", [full, best]);
    return true;
  });
  return found;
}

function expected(
  skeletons: readonly string[],
  query: string,
  k: number,
  prefix: boolean,
): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (const text of new Set(skeletons)) {
    const d = table(alphabet.encode(query), alphabet.encode(text));
    const m = query.length;
    const full = d[text.length]![m]!;
    const best = Math.min(...d.map((row) => row[m]!));
    if (full <= k || (prefix && best <= k))
      out.set(text, [full <= k ? full : FAR, prefix ? best : FAR]);
  }
  return out;
}

// The query: another skeleton (mostly far), or the words' text with up to three edits (near
// the bound, where a cut-off that left out a cell within it would show).
const edit = fc.record({
  kind: fc.integer({ min: 0, max: 3 }),
  at: fc.nat(),
  letter: letters,
});
const edited = (text: string, edits: readonly { kind: number; at: number; letter: string }[]) => {
  let out = text;
  for (const { kind, at, letter } of edits) {
    const i = at % (out.length + 1);
    if (kind === 0) out = out.slice(0, i) + letter + out.slice(i);
    else if (kind === 1) out = out.slice(0, i) + out.slice(i + 1);
    else if (kind === 2) out = out.slice(0, i) + letter + out.slice(i + 1);
    else out = out.slice(0, i) + out.slice(i + 1, i + 2) + out.slice(i, i + 1) + out.slice(i + 2);
  }
  return out === "" ? text : out;
};
const queryFor = fc.oneof(
  skeleton.map((query) => () => query),
  fc.array(edit, { maxLength: 3 }).map((edits) => (text: string) => edited(text, edits)),
);

describe("the suggestions' walk", () => {
  it(`finds every skeleton within k edits, with its distance (seed ${seed})`, () => {
    fc.assert(
      fc.property(
        fc.array(skeleton, { minLength: 1, maxLength: 30 }),
        fc.nat(),
        queryFor,
        fc.integer({ min: 0, max: 2 }),
        fc.boolean(),
        (skeletons, pick, queryOf, k, prefix) => {
          // A near miss of one of the skeletons (or another skeleton).
          const query = queryOf(skeletons[pick % skeletons.length] ?? "");
          expect(walked(skeletons, query, k, prefix)).toEqual(
            expected(skeletons, query, k, prefix),
          );
        },
      ),
      { seed, numRuns: 3000 },
    );
  });

  it(`answers a beginning of the query along its walk as its own walk does (seed ${seed})`, () => {
    fc.assert(
      fc.property(
        fc.array(skeleton, { minLength: 1, maxLength: 30 }),
        skeleton,
        skeleton,
        fc.integer({ min: 0, max: 2 }),
        fc.boolean(),
        (skeletons, begin, rest, k, prefix) => {
          const trie = encodeTrie(
            skeletons.map((text, i) => ({ key: alphabet.encode(text), payload: Uint8Array.of(i) })),
          );
          const walker = new TrieWalker();
          const along = new Map<string, number>();
          walker.walk(
            trie,
            alphabet.encode(begin + rest),
            k,
            prefix,
            (from, to) => {
              const full = walker.fullAt(begin.length);
              if (full <= k)
                for (let at = from; at < to; at++) along.set(skeletons[trie[at] ?? 0] ?? "", full);
              return true;
            },
            [begin.length],
          );
          const own = new Map(
            [...walked(skeletons, begin, k, false)].map(([text, [full]]) => [text, full]),
          );
          expect(along).toEqual(own);
        },
      ),
      { seed, numRuns: 2000 },
    );
  });

  it.each([
    ["muller", "mueller", 0],
    ["strase", "strasse", 0],
    ["schutzenstrasse", "schuetzenstrasse", 0],
    ["ruecktstrasse", "rucktstrasse", 0],
    ["rcuek", "rueck", 1],
    ["kurfurstendam", "kurfuerstendamm", 1],
    ["karlmarxalee", "karlmarxallee", 1],
    ["frnakfurterallee", "frankfurterallee", 1],
    ["hauptstrase", "hauptweg", FAR],
    ["kielerstraess6", "kielerstrasse6", 1],
    ["kielerstraess6", "kielerstrasse", 2],
    ["weg1", "wega", 2],
  ])("takes %s to %s in %s", (query, name, distance) => {
    const found = walked([name], query, 2, false).get(name);
    expect(found?.[0] ?? FAR).toBe(distance);
  });
});

describe("the word-by-word check", () => {
  const shaped = fc.array(
    fc.record({ word: skeleton, allowance: fc.integer({ min: 0, max: 2 }) }),
    { minLength: 1, maxLength: 3 },
  );
  it.each([
    ["a skeleton and query longer than the scratch tables' first size", 120, 0],
    ["the same with a letter left out", 120, 1],
  ])("grows its tables for %s", (_, length, edits) => {
    const text = "strasse".repeat(Math.ceil(length / 7)).slice(0, length);
    const query = edits === 0 ? text : text.slice(0, 50) + text.slice(51);
    const shapes = [{ length, allowance: 2 }];
    const typos = typosOf(
      alphabet.encode(query),
      alphabet.encode(text),
      length,
      shapes,
      true,
      false,
    );
    expect(typos.full).toBe(edits);
  });
  it(`weighs edits in words that tolerate none out, as the table does (seed ${seed})`, () => {
    fc.assert(
      fc.property(shaped, queryFor, fc.boolean(), (words, queryOf, prefix) => {
        const text = words.map((w) => w.word).join("");
        const query = queryOf(text);
        const shapes = words.map((w) => ({ length: w.word.length, allowance: w.allowance }));
        const weight: number[] = words.flatMap((w) =>
          Array.from(w.word, () => (w.allowance > 0 ? 1 : 3)),
        );
        const caps: number[] = [0];
        let allowed = 0;
        for (const w of words) {
          allowed += w.allowance;
          for (let i = 0; i < w.word.length; i++) caps.push(Math.min(2, allowed));
        }
        const q = alphabet.encode(query);
        const d = table(q, alphabet.encode(text), (i) => weight[i] ?? 1);
        const m = query.length;
        const whole = d[text.length]![m]!;
        const best = Math.min(
          FAR,
          ...d.flatMap((row, i) => (row[m]! <= caps[i]! ? [row[m]!] : [])),
        );
        const typos = typosOf(q, alphabet.encode(text), text.length, shapes, true, prefix);
        expect(typos).toEqual({
          full: whole <= caps[text.length]! ? whole : FAR,
          prefix: prefix ? best : FAR,
        });
      }),
      { seed, numRuns: 3000 },
    );
  });
});

describe("the word check's startup rounds (warmTyposOf)", () => {
  const base = Alphabet.of([]);
  it.each(WARM_CASES)(
    "%s: its near miss %s is within the typos its words allow",
    (name, shapes, text) => {
      expect(shapes.reduce((sum, shape) => sum + shape.length, 0)).toBe(name.length);
      const typos = typosOf(base.encode(text), base.encode(name), name.length, shapes, true, true);
      expect(Math.min(typos.full, typos.prefix)).toBeGreaterThan(0);
      expect(Math.min(typos.full, typos.prefix)).toBeLessThanOrEqual(2);
    },
  );
  it("answers the same in every round", () => {
    const encode = (skeleton: string) => base.encode(skeleton);
    expect(warmTyposOf(4, encode)).toBe(2 * warmTyposOf(2, encode));
  });
});
