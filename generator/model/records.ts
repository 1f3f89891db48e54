import * as at from "../resources/at.ts";
import { atFederalProvinces, chCantons, liCommunes } from "../resources/at-ch-li.ts";
import * as chLi from "../resources/ch-li.ts";
import { deLocalities, federalStates, streets } from "../resources/de.ts";
import * as deRegions from "../resources/de-regions.ts";
import type { AnyResource, Resource } from "../resources/resource.ts";
import type { SourceRows } from "../sources/read.ts";
import type { SourceName } from "../sources/registry.ts";
import { atRegisterOf } from "./at.ts";
import { chRegisterOf, localitiesOf } from "./ch-li.ts";
import { joinLocalities } from "./de-localities.ts";
import { regionsOf } from "./de-regions.ts";
import { federalStatesOf, joinStreets } from "./de-streets.ts";

/** A resource with the records it serves (type-checked against each other by `dataset`), and the sources they are made of. */
export interface Dataset {
  readonly resource: AnyResource;
  readonly records: readonly unknown[];
  readonly sources: readonly SourceName[];
}

function dataset<R>(resource: Resource<R>, records: readonly R[], sources: readonly SourceName[]): Dataset {
  return { resource: resource as unknown as AnyResource, records, sources };
}

/**
 * What one join did with a source's rows: `considered = joined + Σ skipped`. The build notes are
 * written from it, and the join guard refuses a join that skips too many rows.
 */
export interface JoinReport {
  /** The source whose rows were joined. */
  readonly source: SourceName;
  /** Rows the join looked at. */
  readonly considered: number;
  /** Rows that became a record (or merged into one). */
  readonly joined: number;
  /** Rows that became no record, per cause. */
  readonly skipped: readonly JoinSkip[];
}

export interface JoinSkip {
  /** The cause in a word: `unmatched`, `ambiguous`, `unknown-key`, `no-parent`. */
  readonly cause: string;
  readonly rows: number;
  /** Those rows in the build note's words, e.g. "rows whose RegionalKey is not a GV100AD municipality". */
  readonly what: string;
}

function joinReport(source: SourceName, considered: number, skipped: readonly JoinSkip[]): JoinReport {
  return { source, considered, joined: considered - skipped.reduce((sum, s) => sum + s.rows, 0), skipped };
}

/** A join's note: `file: skipped 559 places that … and 29 that …`; none when nothing was skipped. */
export function joinNote(report: JoinReport, label: string): string | undefined {
  const skipped = report.skipped.filter((s) => s.rows > 0);
  return skipped.length === 0 ? undefined : `${label}: skipped ${skipped.map((s) => `${s.rows} ${s.what}`).join(" and ")}`;
}

export interface Records {
  /** Every served resource with its records, in the order the API lists them. */
  readonly datasets: readonly Dataset[];
  /** Every join of a source's rows with the registers it refers to. */
  readonly joins: readonly JoinReport[];
  /** What the joins skipped or merged, one line per source. */
  readonly notes: readonly string[];
}

/** Joins the sources' rows into the records of every resource the API serves. */
export function recordsOf(rows: SourceRows): Records {
  const { labels } = rows;
  const street = joinStreets(rows.streets, rows.gv);
  const regions = regionsOf(rows.gv);
  const localities = joinLocalities(street.streets, rows.postCodes, regions.municipalities, rows.gv);
  const austria = atRegisterOf(rows.atDistricts, rows.atMunicipalities, rows.atStreets);
  const ch = chRegisterOf(rows.chCantons, rows.chDistricts, rows.chCommunes);
  const chLiLocalities = localitiesOf(rows.localityRegister, ch.communes, rows.liCommunes);

  const notInDistricts = `rows whose district code is not in ${labels["at-districts"]}`;
  const joins = [
    joinReport("de-streets", rows.streets.length, [{ cause: "unknown-key", rows: street.unknownRegionalKeys, what: "rows whose RegionalKey is not a GV100AD municipality" }]),
    // A row whose postal code the street list has is represented by the street list's localities: joined.
    joinReport("de-postcodes", rows.postCodes.length, [
      { cause: "unmatched", rows: localities.unmatched, what: "places that match no GV100AD municipality by name" },
      { cause: "ambiguous", rows: localities.ambiguous, what: "that match several" },
    ]),
    joinReport("at-municipalities", rows.atMunicipalities.length, [{ cause: "no-parent", rows: austria.municipalitiesWithoutDistrict, what: notInDistricts }]),
    joinReport("at-streets", rows.atStreets.length, [{ cause: "no-parent", rows: austria.streetsWithoutDistrict, what: notInDistricts }]),
    joinReport("ch-districts", rows.chDistricts.length, [{ cause: "no-parent", rows: ch.districtsWithoutCanton, what: `rows whose canton is not in ${labels["ch-cantons"]}` }]),
    joinReport("ch-communes", ch.politicalCommunes, [{ cause: "no-parent", rows: ch.orphans, what: "communes in force whose district or canton is not" }]),
    joinReport("ch-localities", rows.localityRegister.length, [{ cause: "unknown-key", rows: chLiLocalities.unknownCommunes, what: "rows whose BFS number is no commune in force" }]),
  ];
  const notes = [
    ...(street.duplicateRows > 0 ? [`${labels["de-streets"]}: merged ${street.duplicateRows} duplicate rows`] : []),
    ...(localities.coveredByStreets > 0 ? [`${labels["de-postcodes"]}: ${localities.coveredByStreets} rows replaced by the street list's localities (same postal codes)`] : []),
    ...joins.flatMap((join) => joinNote(join, labels[join.source]) ?? []),
  ];

  const datasets = [
    dataset(streets, street.streets, ["de-streets", "de-gv100ad"]),
    dataset(federalStates, federalStatesOf(rows.gv), ["de-gv100ad"]),
    dataset(deRegions.deGovernmentRegionsByState, regions.governmentRegions, ["de-gv100ad"]),
    dataset(deRegions.deDistrictsByState, regions.districts, ["de-gv100ad"]),
    dataset(deRegions.deDistrictsByRegion, regions.districts, ["de-gv100ad"]),
    dataset(deRegions.deAssociationsByState, regions.associations, ["de-gv100ad"]),
    dataset(deRegions.deAssociationsByRegion, regions.associations, ["de-gv100ad"]),
    dataset(deRegions.deAssociationsByDistrict, regions.associations, ["de-gv100ad"]),
    dataset(deRegions.deMunicipalitiesByState, regions.municipalities, ["de-gv100ad"]),
    dataset(deRegions.deMunicipalitiesByRegion, regions.municipalities, ["de-gv100ad"]),
    dataset(deRegions.deMunicipalitiesByDistrict, regions.municipalities, ["de-gv100ad"]),
    dataset(deLocalities, localities.localities, ["de-streets", "de-postcodes", "de-gv100ad"]),
    dataset(atFederalProvinces, rows.atDistricts.provinces, ["at-districts"]),
    dataset(at.atDistrictsByProvince, austria.districts, ["at-districts"]),
    dataset(at.atMunicipalitiesByProvince, austria.municipalities, ["at-municipalities", "at-districts"]),
    dataset(at.atMunicipalitiesByDistrict, austria.municipalities, ["at-municipalities", "at-districts"]),
    dataset(at.atStreets, austria.streets, ["at-streets", "at-districts"]),
    dataset(at.atLocalities, austria.localities, ["at-streets", "at-districts"]),
    dataset(at.atLocalitiesByProvince, austria.localities, ["at-streets", "at-districts"]),
    dataset(at.atLocalitiesByDistrict, austria.localities, ["at-streets", "at-districts"]),
    dataset(chCantons, rows.chCantons, ["ch-cantons"]),
    dataset(chLi.chDistrictsByCanton, ch.districts, ["ch-districts", "ch-cantons"]),
    dataset(chLi.chCommunesByCanton, ch.communes, ["ch-communes", "ch-districts", "ch-cantons"]),
    dataset(chLi.chCommunesByDistrict, ch.communes, ["ch-communes", "ch-districts", "ch-cantons"]),
    dataset(chLi.chLocalities, chLiLocalities.ch, ["ch-localities", "ch-communes"]),
    dataset(chLi.liLocalities, chLiLocalities.li, ["ch-localities", "li-communes"]),
    dataset(liCommunes, rows.liCommunes, ["li-communes"]),
  ];
  return { datasets, joins, notes };
}
