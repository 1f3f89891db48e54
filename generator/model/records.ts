import * as at from "../resources/at.ts";
import { atFederalProvinces, chCantons, liCommunes } from "../resources/at-ch-li.ts";
import * as chLi from "../resources/ch-li.ts";
import { chStreets, liStreets } from "../resources/ch-li-streets.ts";
import { deLocalities, federalStates, streets } from "../resources/de.ts";
import * as deRegions from "../resources/de-regions.ts";
import { RESOURCES } from "../resources/index.ts";
import type { AnyResource, Resource } from "../resources/resource.ts";
import type { SourceRows } from "../sources/read.ts";
import type { SourceName } from "../sources/registry.ts";
import { atRegisterOf } from "./at.ts";
import { chRegisterOf, localitiesOf } from "./ch-li.ts";
import { swissStreetsOf } from "./ch-li-streets.ts";
import { joinLocalities } from "./de-localities.ts";
import { regionsOf } from "./de-regions.ts";
import { federalStatesOf, joinStreets } from "./de-streets.ts";
import type { JoinReport } from "./join-report.ts";

/** A resource with the records it serves (type-checked against each other by `datasets`), and the sources they are made of. */
export interface Dataset {
  readonly resource: AnyResource;
  readonly records: readonly unknown[];
  readonly sources: readonly SourceName[];
}

/**
 * The sources each family of records is made of: its own first (the guards take it as the one
 * the records come from), then those it is joined to, named as in sources/registry.ts.
 */
const DE_REGISTER = ["de-gv100ad"] as const satisfies readonly SourceName[];
const DE_STREETS = ["de-streets", ...DE_REGISTER] as const;
const DE_LOCALITIES = ["de-streets", "de-postcodes", ...DE_REGISTER] as const;
const AT_DISTRICTS = ["at-districts"] as const satisfies readonly SourceName[];
const AT_MUNICIPALITIES = ["at-municipalities", ...AT_DISTRICTS] as const;
const AT_STREETS = ["at-streets", ...AT_MUNICIPALITIES] as const;
const CH_CANTONS = ["ch-cantons"] as const satisfies readonly SourceName[];
const CH_DISTRICTS = ["ch-districts", ...CH_CANTONS] as const;
const CH_COMMUNES = ["ch-communes", ...CH_DISTRICTS] as const;
const LI_COMMUNES = ["li-communes"] as const satisfies readonly SourceName[];

/** The same records served by each of `resources` (type-checked against them), made of `sources`. */
function datasets<R>(
  resources: readonly Resource<R>[],
  records: readonly R[] | undefined,
  sources: readonly SourceName[],
): Dataset[] {
  return records === undefined
    ? []
    : resources.map((resource) => ({
        resource: resource as unknown as AnyResource,
        records,
        sources,
      }));
}

export interface Records {
  /** Every served resource with its records, in the order the API lists them. */
  readonly datasets: readonly Dataset[];
  /** Per source joined to another, what the join made of its rows (the build prints them, the downloads manifest records them). */
  readonly joins: readonly JoinReport[];
  /** Anything else the build should say about the sources. */
  readonly notes: readonly string[];
}

/** Joins the sources' rows into the records of every resource the API serves. */
export function recordsOf(rows: SourceRows): Records {
  const street = joinStreets(rows.takeStreets(), rows.gv);
  const regions = regionsOf(rows.gv);
  const localities = joinLocalities(
    street.streets,
    rows.postCodes,
    regions.municipalities,
    rows.gv,
  );
  const austria = atRegisterOf(rows.atDistricts, rows.atMunicipalities, rows.atStreets);
  const ch = chRegisterOf(rows.chCantons, rows.chDistricts, rows.chCommunes);
  const chLiLocalities = localitiesOf(rows.localityRegister, ch.communes, rows.liCommunes);
  // The street directory is optional: its resources are served when the build reads it, and are absent (404) otherwise.
  const swissStreets =
    rows.swissStreets === undefined
      ? undefined
      : swissStreetsOf(rows.swissStreets, ch.communes, rows.liCommunes);

  const made = [
    ...datasets([streets], street.streets, DE_STREETS),
    ...datasets([federalStates], federalStatesOf(rows.gv), DE_REGISTER),
    ...datasets([deRegions.deGovernmentRegionsByState], regions.governmentRegions, DE_REGISTER),
    ...datasets(
      [deRegions.deDistrictsByState, deRegions.deDistrictsByRegion],
      regions.districts,
      DE_REGISTER,
    ),
    ...datasets(
      [
        deRegions.deAssociationsByState,
        deRegions.deAssociationsByRegion,
        deRegions.deAssociationsByDistrict,
      ],
      regions.associations,
      DE_REGISTER,
    ),
    ...datasets(
      [
        deRegions.deMunicipalitiesByState,
        deRegions.deMunicipalitiesByRegion,
        deRegions.deMunicipalitiesByDistrict,
      ],
      regions.municipalities,
      DE_REGISTER,
    ),
    ...datasets(
      [
        deLocalities,
        deRegions.deLocalitiesByState,
        deRegions.deLocalitiesByRegion,
        deRegions.deLocalitiesByDistrict,
      ],
      localities.localities,
      DE_LOCALITIES,
    ),
    ...datasets([atFederalProvinces], rows.atDistricts.provinces, AT_DISTRICTS),
    ...datasets([at.atDistrictsByProvince], austria.districts, AT_DISTRICTS),
    ...datasets(
      [at.atMunicipalitiesByProvince, at.atMunicipalitiesByDistrict],
      austria.municipalities,
      AT_MUNICIPALITIES,
    ),
    ...datasets([at.atStreets], austria.streets, AT_STREETS),
    ...datasets(
      [at.atLocalities, at.atLocalitiesByProvince, at.atLocalitiesByDistrict],
      austria.localities,
      AT_STREETS,
    ),
    ...datasets([chCantons], ch.cantons, CH_CANTONS),
    ...datasets([chLi.chDistrictsByCanton], ch.districts, CH_DISTRICTS),
    ...datasets([chLi.chCommunesByCanton, chLi.chCommunesByDistrict], ch.communes, CH_COMMUNES),
    ...datasets(
      [chLi.chLocalities, chLi.chLocalitiesByCanton, chLi.chLocalitiesByDistrict],
      chLiLocalities.ch,
      ["ch-localities", ...CH_COMMUNES],
    ),
    ...datasets([chStreets], swissStreets?.ch, ["ch-streets", ...CH_COMMUNES]),
    ...datasets([chLi.liLocalities], chLiLocalities.li, ["ch-localities", ...LI_COMMUNES]),
    ...datasets([liStreets], swissStreets?.li, ["ch-streets", ...LI_COMMUNES]),
    ...datasets([liCommunes], rows.liCommunes, LI_COMMUNES),
  ];
  // In the order the API lists them; a resource of RESOURCES without records is not served.
  const datasetOf = new Map(made.map((d) => [d.resource, d]));
  const served = RESOURCES.flatMap((resource) => datasetOf.get(resource) ?? []);
  if (served.length !== made.length)
    throw new Error("records made for a resource not in RESOURCES");
  const joins = [
    street.report,
    localities.report,
    ...austria.reports,
    ch.districtReport,
    ch.report,
    chLiLocalities.report,
    ...(swissStreets === undefined ? [] : [swissStreets.report]),
  ];
  const label = rows.labels["ch-streets"] ?? "ch-streets";
  const notes = [
    ...(swissStreets?.ch.length === 0
      ? [`${label}: no street of Switzerland, so /ch/Streets serves none`]
      : []),
    ...(swissStreets?.li.length === 0
      ? [`${label}: no street of Liechtenstein, so /li/Streets serves none`]
      : []),
  ];
  return { datasets: served, joins, notes };
}
