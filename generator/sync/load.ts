import { forEachJsonRecord } from "../contract/json-records.ts";
import type { PublishedDataset } from "./datasets.ts";
import type { SyncSource } from "./source.ts";
import type { SyncStore } from "./store.ts";
import { rowOf, type TableSpec } from "./tables.ts";
import { readPart } from "./verified.ts";

/** Progress of a long step: a reporter per label (cli/progress.ts). */
export type Progress = (label: string) => (done: number, total: number) => void;

/** How many records a load takes between reports of its progress. */
const REPORT_EVERY = 10_000;
/** From how many records the indexes of a dataset take long enough to report (seconds nationally). */
const REPORT_INDEXES_FROM = 100_000;

/**
 * Loads one dataset from its JSON download into a new table (in the caller's transaction), part by
 * part: each part's SHA-256 checked before any of its records is taken, one part in memory at a
 * time. Returns the records loaded and whether the identity is a unique index.
 */
export async function loadDataset(
  store: SyncStore,
  source: SyncSource,
  spec: TableSpec,
  dataset: PublishedDataset,
  loaded?: (records: number) => void,
  progress?: Progress,
): Promise<{ records: number; unique: boolean }> {
  const insert = store.createTable(spec);
  let done = 0;
  for (const part of dataset.parts) {
    const bytes = await readPart(source, part);
    // Record by record: each one's objects die young, where a whole part's would fill the heap.
    let records = 0;
    forEachJsonRecord(bytes, (start, end) => {
      insert(rowOf(spec, JSON.parse(bytes.toString("utf8", start, end))));
      records++;
      if (++done % REPORT_EVERY === 0) loaded?.(REPORT_EVERY);
    });
    if (records !== part.file.records)
      throw new Error(
        `${source.where}${part.file.path}: ${records} records, but its manifest lists ${part.file.records}`,
      );
  }
  loaded?.(done % REPORT_EVERY);
  const indexed =
    done >= REPORT_INDEXES_FROM ? progress?.(`indexing ${dataset.resource}`) : undefined;
  return { records: done, ...store.finishTable(spec, indexed) };
}
