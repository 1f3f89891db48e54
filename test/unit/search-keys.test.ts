import { describe, expect, it } from "vitest";
import { COMMON_GRAM_RUNS, headRuns, trigramRuns } from "../../generator/build/search-keys.ts";
import { caseFoldKey } from "../../generator/contract/search/filter.ts";
import { gramsOf, NAME_END, NAME_START } from "../../generator/contract/search/store.ts";

/**
 * The n-gram lists the build writes: every 1-, 2- and 3-gram, and exactly the longer n-grams in
 * at least COMMON_GRAM_RUNS runs, each with exactly the runs whose case-folded name contains it;
 * and NAME_START with each name's first one and two characters, and longer prefixes likewise; and
 * each name's last one and two characters with NAME_END, and longer suffixes likewise.
 */
describe("n-gram runs", () => {
  // Names in order (some of two streets), sharing `straße` / `Weg` in many of them.
  const names = Array.from({ length: 2 * COMMON_GRAM_RUNS + 100 }, (_, i) => {
    const n = String(i).padStart(4, "0");
    return i % 3 === 0 ? `A${n} Weg` : i % 7 === 0 ? `B${n}-STRASSE` : `C${n}straße`;
  }).sort();
  const streets = names.flatMap((name, i) => (i % 5 === 0 ? [name, name] : [name]));
  const headOf = Int32Array.from(streets, (name) => names.indexOf(name));
  const runs = headRuns(headOf);
  const lists = new Map(trigramRuns({ heads: names.map((name) => [name]), headOf }, runs));
  // By brute force: every n-gram of every run's folded name, with its runs.
  const expected = new Map<string, number[]>();
  runs.start.forEach((position, run) => {
    const folded = caseFoldKey(streets[position] ?? "");
    const grams = new Set(
      Array.from({ length: Array.from(folded).length }, (_, n) => gramsOf(folded, n + 1)).flat(),
    );
    // Its starts: NAME_START and its first k characters, counted as n-grams of k + 1.
    const marked = Array.from(NAME_START + folded);
    for (let n = 2; n <= marked.length; n++) grams.add(marked.slice(0, n).join(""));
    // Its ends: its last k characters and NAME_END.
    const ended = Array.from(folded + NAME_END);
    for (let n = 2; n <= ended.length; n++) grams.add(ended.slice(-n).join(""));
    for (const gram of grams) (expected.get(gram) ?? expected.set(gram, []).get(gram))?.push(run);
  });

  it("holds every short n-gram and the common long ones, each with exactly its runs", () => {
    const long = [...expected].filter(
      ([gram, ofRuns]) => Array.from(gram).length <= 3 || ofRuns.length >= COMMON_GRAM_RUNS,
    );
    expect(long.map(([gram]) => gram).filter((gram) => gram.length >= 6)).toContain("STRAßE");
    expect(long.map(([gram]) => gram)).toContain(`${NAME_START}C0`);
    expect(long.map(([gram]) => gram)).toContain(`STRAßE${NAME_END}`);
    expect([...lists.keys()].filter((key) => key !== "").sort()).toEqual(
      long.map(([gram]) => gram).sort(),
    );
    for (const [gram, ofRuns] of long)
      expect([gram, [...(lists.get(gram) ?? [])]]).toEqual([gram, ofRuns]);
  });
});
