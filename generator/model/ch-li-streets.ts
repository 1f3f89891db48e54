import type { ChStreet, LiStreet, StreetStatus } from "../resources/ch-li-streets.ts";
import type { ChCommuneRecord } from "../resources/ch-li.ts";
import type { SwissStreet, SwissStreetStatus } from "../sources/ch-streets.ts";
import type { LiCommuneRow } from "../sources/lists.ts";
import { DUPLICATE, JoinCounter, type JoinReport } from "./join-report.ts";

/** swisstopo's status as the original writes its `StreetStatus` enum. */
const STATUS: Readonly<Record<SwissStreetStatus, StreetStatus>> = {
  "": "None",
  planned: "Planned",
  real: "Real",
  outdated: "Outdated",
};

export interface SwissStreets {
  readonly ch: ChStreet[];
  readonly li: LiStreet[];
  /** Street entries (one per `ZIP_LABEL` locality) joined to the communes by COM_FOSNR: unmatched when that is no commune in force; `duplicate`: an entry with the key, postal code, locality and commune of an earlier one. */
  readonly report: JoinReport;
}

/**
 * The street directory's entries joined as the original joins them: the commune by its BFS number
 * (COM_FOSNR), its district and canton from the commune register (never from COM_CANTON);
 * Liechtenstein's communes (7001–7011) from `li/communes.csv`. No status or validity filter.
 */
export function swissStreetsOf(
  rows: readonly SwissStreet[],
  communes: readonly ChCommuneRecord[],
  liCommunes: readonly LiCommuneRow[],
): SwissStreets {
  const ch = new Map(communes.map((c) => [c.key, c]));
  const li = new Map(liCommunes.map((c) => [c.key, c]));
  const seen = new Set<string>();
  const result: { ch: ChStreet[]; li: LiStreet[] } = { ch: [], li: [] };
  const counter = new JoinCounter(
    "ch-streets",
    "communes in force (and Liechtenstein's) by COM_FOSNR",
  );
  for (const row of rows) {
    const id = `${row.key}\u0000${row.postalCode}\u0000${row.locality}\u0000${row.communeKey}`;
    if (seen.has(id)) {
      counter.skip(DUPLICATE);
      continue;
    }
    seen.add(id);
    const street = {
      key: row.key,
      name: row.name,
      postalCode: row.postalCode,
      locality: row.locality,
    };
    const liCommune = li.get(row.communeKey);
    const commune = ch.get(row.communeKey);
    if (liCommune !== undefined)
      result.li.push({
        ...street,
        commune: { key: liCommune.key, name: liCommune.name },
        status: STATUS[row.status],
      });
    else if (commune !== undefined) {
      const { district, canton } = commune;
      result.ch.push({
        ...street,
        commune: { key: commune.key, name: commune.name, shortName: commune.shortName },
        district,
        canton,
        status: STATUS[row.status],
      });
    } else {
      counter.skip("unmatched");
      continue;
    }
    counter.join();
  }
  return { ...result, report: counter.report() };
}
