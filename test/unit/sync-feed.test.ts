import { describe, expect, it } from "vitest";
import type { ChangeFeed, FeedBuild } from "../../generator/contract/changes.ts";
import { chainOf } from "../../generator/sync/feed.ts";

const T = (day: number) => `2026-01-${String(day).padStart(2, "0")}T03:00:00.000Z`;
const build = (since: number, builtAt: number): FeedBuild => ({
  builtAt: T(builtAt),
  since: T(since),
  files: [],
});
/** A feed of `builds` (oldest first), written by the newest. */
const feed = (...builds: FeedBuild[]): ChangeFeed => ({
  builtAt: builds.at(-1)?.builtAt ?? T(1),
  predecessor: builds.at(-1)?.since ?? null,
  note: "",
  days: 90,
  builds: [...builds].reverse(),
});

describe("the builds that take a copy forward", () => {
  it.each([
    ["one build", feed(build(1, 2)), 1, 2, [2]],
    [
      "every build since the copy's, oldest first",
      feed(build(1, 2), build(2, 3), build(3, 4)),
      2,
      4,
      [3, 4],
    ],
    ["from the oldest build's since", feed(build(1, 2), build(2, 3)), 1, 3, [2, 3]],
  ])("%s", (_, given, from, to, builtAts) => {
    expect(chainOf(given, T(from), T(to))).toEqual({
      builds: builtAts.map((d) => expect.objectContaining({ builtAt: T(d) })),
    });
  });

  it.each([
    [
      "an empty feed",
      feed(),
      1,
      1,
      "the change feed lists no builds (its build had no predecessor)",
    ],
    [
      "a copy older than the feed reaches",
      feed(build(3, 4)),
      1,
      4,
      `the change feed reaches back to the build of ${T(3)}, and the copy is of ${T(1)}`,
    ],
    [
      "a build the feed does not start from",
      feed(build(1, 3), build(3, 4)),
      2,
      4,
      `the copy's build ${T(2)} is not one the change feed starts a build from`,
    ],
    [
      "a gap",
      feed(build(1, 2), build(3, 4)),
      1,
      4,
      `the change feed has no build since ${T(2)} (the next is since ${T(3)})`,
    ],
    [
      "a copy newer than the source",
      feed(build(1, 2)),
      5,
      2,
      `the copy is of the build of ${T(5)}, later than the source's ${T(2)}`,
    ],
    [
      "a feed of another build",
      feed(build(1, 2)),
      1,
      3,
      `the change feed is of the build of ${T(2)}, not ${T(3)}`,
    ],
  ])("none for %s, and why", (_, given, from, to, reason) => {
    expect(chainOf(given, T(from), T(to))).toEqual({ reason });
  });
});
