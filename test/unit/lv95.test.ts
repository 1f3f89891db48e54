import { describe, expect, it } from "vitest";
import { lv95ToWgs84 } from "../../generator/model/lv95.ts";
import { LOCALITY_REGISTER } from "../support/source-model.ts";

const dms = (degrees: number, minutes: number, seconds: number) =>
  degrees + minutes / 60 + seconds / 3600;

/** Distance in metres between two nearby WGS84 points (local flat approximation, plenty for metres). */
function metres(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const radius = 6_371_000;
  const rad = Math.PI / 180;
  const north = (a.latitude - b.latitude) * rad * radius;
  const east =
    (a.longitude - b.longitude) * rad * radius * Math.cos(((a.latitude + b.latitude) / 2) * rad);
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

describe("LV95 to WGS84", () => {
  it.each(REFERENCE_POINTS)(
    "meets swisstopo's reference point %s within 1 m",
    (_, east, north, latitude, longitude) => {
      const converted = lv95ToWgs84(east, north);
      expect(metres(converted, { latitude, longitude })).toBeLessThanOrEqual(1);
    },
  );

  it("rounds to 6 decimals (about 0.1 m), so JSON and CSV carry short numbers", () => {
    const { latitude, longitude } = lv95ToWgs84(2_683_247, 1_248_135);
    for (const value of [latitude, longitude]) expect(String(value)).toMatch(/^\d{1,2}\.\d{1,6}$/);
  });

  it("agrees everywhere with swisstopo's approximation formulas within their stated accuracy at the edges (3 m)", () => {
    // The approximation, as swisstopo publishes it; it errs most in the far west (Geneva).
    const approximate = (east: number, north: number) => {
      const [y, x] = [(east - 2_600_000) / 1e6, (north - 1_200_000) / 1e6];
      const lambda =
        2.6779094 + 4.728982 * y + 0.791484 * y * x + 0.1306 * y * x * x - 0.0436 * y ** 3;
      const phi =
        16.9023892 +
        3.238272 * x -
        0.270978 * y * y -
        0.002528 * x * x -
        0.0447 * y * y * x -
        0.014 * x ** 3;
      return { latitude: (phi * 100) / 36, longitude: (lambda * 100) / 36 };
    };
    const points = LOCALITY_REGISTER.map((row) =>
      metres(lv95ToWgs84(row.east, row.north), approximate(row.east, row.north)),
    );
    expect(points.length).toBeGreaterThan(5_000);
    expect(Math.max(...points)).toBeLessThan(3);
  });
});
