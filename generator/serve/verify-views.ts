import { normalizeSelectorValue } from "../contract/address.ts";
import { csvHeader, cutOutsideQuotes } from "../contract/csv.ts";
import { datasetPath, type DownloadFile } from "../contract/downloads.ts";
import { jsonRecord } from "../contract/page.ts";
import { exampleTarget, type AnyResource, type SelectorValue } from "../resources/resource.ts";

/** A view to ask the API for, with the records (as JSON and CSV rows) it must answer with. */
export interface ViewCase {
  /** The request target without paging, e.g. `/de/FederalStates/09/Districts`. */
  readonly target: string;
  readonly json: readonly string[];
  readonly csv: readonly string[];
}

/** A complete download, read: its records, its CSV rows (each with its CRLF) and its CSV header line. */
interface Download {
  readonly records: readonly unknown[];
  readonly csv: readonly string[];
  readonly header?: string;
}

/** `GET` a download file's text (throws on anything but 200). */
export type Fetch = (path: string) => Promise<string>;

/**
 * The views a smoke test asks for, with their expected records from the build's own downloads:
 * an unpaged list whole; a paged resource's view of its first and of its last record (the first
 * and last parent, e.g. state 01 and 16), each with the required filters it needs and, for
 * optional filters, the view without them and the one a first record's values select. A resource
 * whose views are downloads of their own (the streets of each locality) is asked for its first
 * and its largest view, so a national street list is never read whole.
 */
export async function viewCases(
  resource: AnyResource,
  files: readonly DownloadFile[],
  fetchText: Fetch,
): Promise<ViewCase[]> {
  const columns = resource.record.columns;
  if (resource.downloadsPerView === true) {
    const views = files.filter(
      (f) =>
        f.endpoint === resource.path &&
        f.filter !== undefined &&
        f.format === "json" &&
        f.gzipOf === undefined,
    );
    const largest = views.reduce<DownloadFile | undefined>(
      (max, f) => (max === undefined || f.records > max.records ? f : max),
      undefined,
    );
    const chosen = [...new Set([views[0], largest].filter((f) => f !== undefined))];
    return Promise.all(
      chosen.map(async (file) => {
        const download = await readDownload(
          fetchText,
          file.path,
          file.path.replace(/\.json$/, ".csv"),
        );
        return {
          target: exampleTarget(resource, { summary: "", query: file.filter ?? {} }),
          json: download.records.map(jsonRecord),
          csv: download.csv,
        };
      }),
    );
  }
  const parts = files
    .filter(
      (f) =>
        f.endpoint === resource.path &&
        f.filter === undefined &&
        f.format === "json" &&
        f.gzipOf === undefined,
    )
    .sort((a, b) => (a.part ?? 0) - (b.part ?? 0));
  const all = await readDownload(fetchText, ...parts.map((f) => f.path));
  const { csv, header } = await readDownload(
    fetchText,
    ...parts.map((f) => f.path.replace(/\.json$/, ".csv")),
  );
  if (all.records.length !== csv.length)
    throw new Error(
      `${datasetPath(resource.id, "json")}: ${all.records.length} records, but its CSV has ${csv.length} rows`,
    );
  if (header !== csvHeader(columns))
    throw new Error(
      `${datasetPath(resource.id, "csv")}: its header is not the CSV header of ${resource.path}`,
    );
  const selectors = resource.selectors ?? [];
  // Pattern filters (Localities) need one: '^' matches every value, so every record.
  const everything =
    resource.patterns?.filters[0] === undefined
      ? {}
      : { [resource.patterns.filters[0].param]: "^" };
  if (selectors.length === 0)
    return [
      {
        target: exampleTarget(resource, { summary: "", query: everything }),
        json: all.records.map(jsonRecord),
        csv,
      },
    ];

  const always = selectors.filter((s) => s.in === "path" || s.required);
  const optional = selectors.filter((s) => !(s.in === "path" || s.required));
  const first = all.records[0] as never;
  const last = all.records.at(-1) as never;
  const picks = [
    { record: first, given: always },
    { record: last, given: always },
    ...(optional.length === 0
      ? []
      : [{ record: first, given: [...always, ...optional.slice(0, 1)] }]),
  ];
  const cases = new Map<string, ViewCase>();
  for (const { record, given } of picks) {
    if (record === undefined) continue;
    // A record's own value names its view (a selector may match several: a key or a code).
    const values = given.map((s) => [s, valuesOf(s.value(record))[0]] as const);
    const path: Record<string, string> = {};
    const query: Record<string, string> = {};
    for (const [s, value] of values)
      if (value !== undefined) (s.in === "path" ? path : query)[s.param] = value;
    const matches = (r: never) =>
      values.every(
        ([s, value]) =>
          value !== undefined &&
          valuesOf(s.value(r)).some(
            (v) => normalizeSelectorValue(s.match, v) === normalizeSelectorValue(s.match, value),
          ),
      );
    const indices = all.records.flatMap((r, i) => (matches(r as never) ? [i] : []));
    const target = exampleTarget(resource, { summary: "", path, query });
    cases.set(target, {
      target,
      json: indices.map((i) => jsonRecord(all.records[i])),
      csv: indices.map((i) => csv[i] ?? ""),
    });
  }
  return [...cases.values()];
}

/** The records of a download in one or more parts (JSON arrays or CSV files with a header each). */
async function readDownload(fetchText: Fetch, ...paths: string[]): Promise<Download> {
  const records: unknown[] = [];
  const csv: string[] = [];
  let header: string | undefined;
  for (const path of paths) {
    const text = await fetchText(path);
    if (!path.endsWith(".csv")) {
      records.push(...(JSON.parse(text) as unknown[]));
      continue;
    }
    const split = splitCsv(text);
    header ??= split.header;
    csv.push(...split.rows);
  }
  return { records, csv, ...(header === undefined ? {} : { header }) };
}

function valuesOf(value: SelectorValue): readonly string[] {
  return value === undefined ? [] : typeof value === "string" ? [value] : value;
}

/** Splits a CSV body into its header line and its records, each with its CRLF. */
function splitCsv(body: string): { header: string; rows: string[] } {
  const lines = cutOutsideQuotes(body, "\n");
  if (lines.at(-1) === "") lines.pop();
  return { header: lines[0] ?? "", rows: lines.slice(1) };
}
