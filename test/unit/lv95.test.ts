import { describe, expect, it } from "vitest";
import { lv95ToWgs84 } from "../../generator/model/lv95.ts";

const dms = (degrees: number, minutes: number, seconds: number) => degrees + minutes / 60 + seconds / 3600;

/** Distance in metres between two nearby WGS84 points (local flat approximation, plenty for metres). */
function metres(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const radius = 6_371_000;
  const rad = Math.PI / 180;
  const north = (a.latitude - b.latitude) * rad * radius;
  const east = (a.longitude - b.longitude) * rad * radius * Math.cos(((a.latitude + b.latitude) / 2) * rad);
  return Math.hypot(north, east);
}

/**
 * swisstopo's own reference points, LV95 → WGS84:
 * - the fundamental point Zimmerwald, LV95 2 602 030.680 / 1 191 775.030, whose CHTRS95 (≈ WGS84)
 *   coordinates swisstopo publishes as 46° 52′ 37.540562″ N, 7° 27′ 54.983506″ E ("Reference
 *   systems in Switzerland", table of fundamental stations);
 * - the worked example of the approximation formulas' documentation ("Näherungsformeln für die
 *   Transformation zwischen Schweizer Projektionskoordinaten und WGS84"), LV95 2 700 000 /
 *   1 100 000, exactly 46° 02′ 38.87″ N, 8° 43′ 49.79″ E.
 */
const REFERENCE_POINTS = [
  ["Zimmerwald", 2_602_030.68, 1_191_775.03, dms(46, 52, 37.540562), dms(7, 27, 54.983506)],
  ["the formulas' worked example", 2_700_000, 1_100_000, dms(46, 2, 38.87), dms(8, 43, 49.79)],
] as const;

describe("LV95 to WGS84 (swisstopo's approximation formulas)", () => {
  it.each(REFERENCE_POINTS)("meets swisstopo's reference point %s within 1 m", (_, east, north, latitude, longitude) => {
    const converted = lv95ToWgs84(east, north);
    expect(metres(converted, { latitude, longitude })).toBeLessThanOrEqual(1);
  });

  it("rounds to 6 decimals (about 0.1 m), so JSON and CSV carry short numbers", () => {
    const { latitude, longitude } = lv95ToWgs84(2_683_247, 1_248_135);
    for (const value of [latitude, longitude]) expect(String(value)).toMatch(/^\d{1,2}\.\d{1,6}$/);
  });

  it("puts the projection's origin (the old observatory of Bern) where swisstopo's formulas do", () => {
    // The formulas' constants at y = x = 0: 16.9023892 and 2.6779094 units of 10000″.
    expect(lv95ToWgs84(2_600_000, 1_200_000)).toEqual({ latitude: 46.951081, longitude: 7.438637 });
  });
});
