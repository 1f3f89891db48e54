import type { NotServedRoute } from "../contract/routes.ts";

/**
 * Every endpoint of the original OpenPLZ API (openpotato/openplzapi 1.2, its four controllers),
 * each with what a build that does not serve it says. Whether a build serves an endpoint is
 * decided by the build alone: one with a resource at that path serves it, and the rest are listed
 * as not served in the route table, answered with a 404 that gives the reason.
 */
interface OriginalEndpoint {
  readonly path: string;
  /**
   * What a build without it says: why this project does not serve it (yet), or why a build made
   * without its optional source cannot. Absent for an endpoint every full build serves.
   */
  readonly reason?: string;
}

const NO_STREETS =
  "there is no street data: the swisstopo street directory (Switzerland and Liechtenstein), the optional source ch-streets, is not among this build's sources";

export const ORIGINAL_ENDPOINTS: readonly OriginalEndpoint[] = [
  { path: "/de/FullTextSearch" },
  { path: "/de/FederalStates" },
  { path: "/de/FederalStates/{key}/GovernmentRegions" },
  { path: "/de/FederalStates/{key}/Districts" },
  { path: "/de/GovernmentRegions/{key}/Districts" },
  { path: "/de/FederalStates/{key}/MunicipalAssociations" },
  { path: "/de/GovernmentRegions/{key}/MunicipalAssociations" },
  { path: "/de/Districts/{key}/MunicipalAssociations" },
  { path: "/de/FederalStates/{key}/Municipalities" },
  { path: "/de/GovernmentRegions/{key}/Municipalities" },
  { path: "/de/Districts/{key}/Municipalities" },
  { path: "/de/Localities" },
  { path: "/de/FederalStates/{key}/Localities" },
  { path: "/de/GovernmentRegions/{key}/Localities" },
  { path: "/de/Districts/{key}/Localities" },
  { path: "/de/Streets" },
  { path: "/at/FullTextSearch" },
  { path: "/at/FederalProvinces" },
  { path: "/at/FederalProvinces/{key}/Districts" },
  { path: "/at/FederalProvinces/{key}/Municipalities" },
  { path: "/at/Districts/{key}/Municipalities" },
  { path: "/at/Localities" },
  { path: "/at/FederalProvinces/{key}/Localities" },
  { path: "/at/Districts/{key}/Localities" },
  { path: "/at/Streets" },
  { path: "/ch/FullTextSearch", reason: NO_STREETS },
  { path: "/ch/Cantons" },
  { path: "/ch/Cantons/{key}/Districts" },
  { path: "/ch/Cantons/{key}/Communes" },
  { path: "/ch/Districts/{key}/Communes" },
  { path: "/ch/Localities" },
  { path: "/ch/Cantons/{key}/Localities" },
  { path: "/ch/Districts/{key}/Localities" },
  { path: "/ch/Streets", reason: NO_STREETS },
  { path: "/li/FullTextSearch", reason: NO_STREETS },
  { path: "/li/Communes" },
  { path: "/li/Localities" },
  { path: "/li/Streets", reason: NO_STREETS },
];

/** Said of an endpoint this project has a resource for, in a build made without it (e.g. a test fixture). */
const LEFT_OUT = "this build was made without it";

/** The original's endpoints a build with resources at `servedPaths` does not serve, with the reason each. */
export function notServedRoutes(servedPaths: readonly string[]): NotServedRoute[] {
  const served = new Set(servedPaths.map((path) => path.toLowerCase()));
  return ORIGINAL_ENDPOINTS.filter((e) => !served.has(e.path.toLowerCase())).map((e) => ({
    path: e.path,
    reason: e.reason ?? LEFT_OUT,
  }));
}
