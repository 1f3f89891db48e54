import { matchTablePath } from "../contract/address.ts";
import { encodeMatchTable } from "../contract/match-table-encode.ts";
import { caseFoldKey } from "../contract/search/filter.ts";
import type { FileSink } from "../io/sink.ts";
import type { AnyResource, Resource } from "../resources/resource.ts";
import { sortRecords } from "./views.ts";

/**
 * Writes the match table of each resource with pattern filters: its records in the order of its
 * one view (the same stable sort as views.ts), so that a position in the table is a position in
 * the view's packed or inlined records. Returns how many files it wrote.
 */
export function writeMatchTables(
  datasets: readonly { readonly resource: AnyResource; readonly records: readonly unknown[] }[],
  sink: FileSink,
): number {
  let files = 0;
  for (const { resource, records } of datasets) {
    const typed = resource as unknown as Resource<unknown>;
    const patterns = typed.patterns;
    if (patterns === undefined) continue;
    const sorted = sortRecords(records, typed.sortKey);
    const columns = patterns.filters.map(({ param, ignoreCase }) => ({
      param,
      valueOf: (record: number) => patterns.value(sorted[record], param),
      ...(ignoreCase ? { fold: caseFoldKey } : {}),
    }));
    sink.write(matchTablePath(resource.id), encodeMatchTable(sorted.length, columns));
    files++;
  }
  return files;
}
