import { describe, expect, it } from "vitest";
import { choosePageSizes, pageFilesFor } from "../../generator/build/file-budget.ts";

describe("pageFilesFor", () => {
  it.each([
    [[11920], 50, 2 * 239],
    [[11920], 1, 2 * 11920],
    [[3, 1], 50, 4],
    [[100], 10, 20],
  ])("%j at size %i → %i files", (views, size, files) => {
    expect(pageFilesFor(views, size)).toBe(files);
  });
});

describe("choosePageSizes", () => {
  const berlin = [{ resource: "de.streets", viewSizes: [11920] }];
  const all = Array.from({ length: 50 }, (_, i) => i + 1).reduce(
    (sum, s) => sum + pageFilesFor([11920], s),
    0,
  );

  it("materialises all 50 sizes when they fit", () => {
    const plan = choosePageSizes(berlin, 10, all + 10);
    expect(plan.sizes.get("de.streets")).toHaveLength(50);
    expect(plan.pageFiles).toBe(all);
  });

  it("drops the most expensive sizes first under the default budget", () => {
    const plan = choosePageSizes(berlin, 10, 100_000);
    expect(all).toBeGreaterThan(100_000);
    expect(plan.sizes.get("de.streets")).toEqual(Array.from({ length: 49 }, (_, i) => i + 2));
    expect(plan.pageFiles + 10).toBeLessThanOrEqual(100_000);
  });

  it("writes size 50 first when it fits, needs no page file at all, and fails clearly when not even the other files fit", () => {
    expect(choosePageSizes(berlin, 0, 478).sizes.get("de.streets")).toEqual([50]);
    expect(choosePageSizes(berlin, 0, 477).sizes.get("de.streets")).toEqual([]); // size 49 alone takes 488
    expect(choosePageSizes(berlin, 0, 478 + 488).sizes.get("de.streets")).toEqual([49, 50]);
    expect(choosePageSizes(berlin, 10, 10)).toMatchObject({ pageFiles: 0, minimumFiles: 10 });
    expect(choosePageSizes(berlin, 10, 10).sizes.get("de.streets")).toEqual([]);
    expect(() => choosePageSizes(berlin, 11, 10)).toThrow(/needs at least 11/);
  });
});
