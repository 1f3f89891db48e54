import proj4 from "proj4";

/**
 * Swiss LV95 (EPSG:2056) as swisstopo defines it: the oblique conformal cylindrical projection
 * of the Bessel ellipsoid from the old observatory of Bern, and CH1903+ → CHTRS95 by the three
 * translations of the ordinance on geodesy (LVV, SR 510.620.1, Art. 7). CHTRS95 and WGS84 agree
 * to well under a metre. swisstopo's approximation formulas err by up to 2.8 m at the country's
 * edges (measured over the register of localities), so the rigorous transformation it is.
 */
const LV95 =
  "+proj=somerc +lat_0=46.95240555555556 +lon_0=7.439583333333333 +k_0=1 +x_0=2600000 +y_0=1200000 +ellps=bessel +towgs84=674.374,15.056,405.346,0,0,0,0 +units=m +no_defs";
const toWgs84 = proj4(LV95, "WGS84");

/** LV95 metres to WGS84 degrees, rounded to 6 decimals (at most 0.06 m). */
export function lv95ToWgs84(east: number, north: number): { latitude: number; longitude: number } {
  const [longitude = Number.NaN, latitude = Number.NaN] = toWgs84.forward([east, north]);
  return { latitude: round6(latitude), longitude: round6(longitude) };
}

function round6(degrees: number): number {
  return Math.round(degrees * 1e6) / 1e6;
}
