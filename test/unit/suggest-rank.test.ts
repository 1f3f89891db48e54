import { describe, expect, it } from "vitest";
import { NO_PLACE, type NameHit } from "../../generator/contract/suggest/find.ts";
import { groupOf, proximities, type PlaceFilter } from "../../generator/contract/suggest/rank.ts";

// Ten places: postal codes 10110 + p; places 0-5 lie in the text's locality (5 with a typo), 6-9 not.
const code = (place: number) => String(10110 + place);
const shared = (digits: string) => (place: number) => {
  let n = 0;
  while (n < digits.length && code(place)[n] === digits[n]) n++;
  return n;
};
const locality = { of: (p: number) => (p <= 4 ? 0 : p === 5 ? 1 : NO_PLACE), typos: 0 };
const postal = { digits: "10113", first: 3, end: 4, shared: shared("10113") };
const hit = (position: number, count: number): NameHit => ({ position, count, typos: 0, tier: 0 });

// Names found together: their streets lie in places that repeat across them.
const names: [NameHit, number[]][] = [
  [hit(0, 4), [7, 2, 3, 9]],
  [hit(4, 3), [6, 8, 9]],
  [hit(7, 5), [3, 3, 5, 1, 8]],
  [hit(12, 2), [5, 5]],
  [hit(14, 3), [1, 2, 0]],
];

describe("a name's group beside places, its proximities kept for the next names", () => {
  it.each<[string, PlaceFilter]>([
    ["a locality", { locality, postal: undefined }],
    ["a postal code", { locality: undefined, postal }],
    ["both", { locality, postal }],
  ])("%s: the same groups as each name worked out alone", (_, filter) => {
    const known = proximities(10);
    const alone = names.map(([h, places]) =>
      groupOf(h, filter, Int32Array.from(places), proximities(10)),
    );
    const shared = names.map(([h, places]) => groupOf(h, filter, Int32Array.from(places), known));
    expect(shared).toEqual(alone);
    expect(alone.some((g) => g === undefined) || filter.locality === undefined).toBe(true);
  });

  it("keeps a name's streets nearest to the postal code in the locality", () => {
    const known = proximities(10);
    const groups = names.map(([h, p]) =>
      groupOf(h, { locality, postal }, Int32Array.from(p), known),
    );
    expect(groups.map((g) => g?.positions)).toEqual([
      [2],
      undefined,
      [7, 8],
      [12, 13],
      [14, 15, 16],
    ]);
    expect(groups.map((g) => g?.proximity)).toEqual([0, undefined, 0, 2, 1]);
  });
});
