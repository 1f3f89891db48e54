import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { ChangeFeedWriter, startFeed } from "../../generator/build/change-feed.ts";
import { DownloadWriter } from "../../generator/build/downloads.ts";
import { asManifest, type Predecessor } from "../../generator/build/predecessor.ts";
import { prepare } from "../../generator/build/views.ts";
import type { DownloadsManifest } from "../../generator/contract/downloads.ts";
import { MemorySink } from "../../generator/io/sink.ts";
import { federalStates, streets } from "../../generator/resources/de.ts";
import { liLocalities } from "../../generator/resources/ch-li.ts";
import { liStreets } from "../../generator/resources/ch-li-streets.ts";
import type { AnyResource } from "../../generator/resources/resource.ts";
import type { JsonSchema } from "../../generator/resources/schema.ts";
import { SyncStore } from "../../generator/sync/store.ts";
import { tableName } from "../../generator/sync/tables.ts";

/**
 * Builds of a few small datasets, one after the other, as the build writes their downloads and
 * change feed (DownloadWriter and ChangeFeedWriter, each build compared with the one before and
 * carrying its feed forward), each written into a directory of its own: what `npm run sync`
 * reads, in milliseconds instead of a build's seconds.
 */
export interface SeriesBuild {
  readonly builtAt: string;
  readonly dir: string;
  readonly manifest: DownloadsManifest;
  readonly sink: MemorySink;
}

export type Datasets = ReadonlyMap<AnyResource, readonly unknown[]>;

/** The next build of the series after `previous` (none: the first, with an empty feed), in `dir`. */
export async function seriesBuild(
  previous: SeriesBuild | undefined,
  builtAt: string,
  datasets: Datasets,
  dir: string,
  limits = { maxBytes: 3_000, gzipOver: 1_500 },
): Promise<SeriesBuild> {
  const sink = new MemorySink();
  const predecessor: Predecessor | undefined =
    previous === undefined
      ? undefined
      : {
          where: previous.dir,
          manifest: asManifest(previous.manifest, previous.dir),
          read: (path) => {
            const data = previous.sink.files.get(path);
            return Promise.resolve(data === undefined ? undefined : Buffer.from(data));
          },
        };
  const downloads = new DownloadWriter(
    sink,
    limits,
    new ChangeFeedWriter(sink, builtAt, await startFeed(predecessor, builtAt)),
  );
  for (const [resource, records] of datasets) {
    const prepared = prepare(resource, records as never[]);
    const dataset = downloads.dataset(prepared.resource);
    for (const view of prepared.views) {
      const part = view.datasetPart();
      if (part !== undefined) await dataset.add(part);
    }
    await dataset.finish();
  }
  const manifest = await downloads.finish(builtAt, []);
  for (const [path, data] of sink.files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), data);
  }
  return { builtAt, dir, manifest, sink };
}

/** The rows a fresh copy of a dataset must hold, from its JSON download (independently of the sync's own mapping): sorted. */
export function expectedRows(build: SeriesBuild, resource: AnyResource): unknown[][] {
  const parts = build.manifest.files
    .filter(
      (f) =>
        f.format === "json" &&
        f.gzipOf === undefined &&
        f.filter === undefined &&
        f.path.replace(/(\.part-\d+)?\.json$/, "") === `/downloads/${resource.id}`,
    )
    .sort((a, b) => (a.part ?? 0) - (b.part ?? 0));
  const records = parts.flatMap(
    (f) => JSON.parse(Buffer.from(build.sink.files.get(f.path) ?? "").toString()) as unknown[],
  );
  const rows = records.map((record) =>
    resource.record.columns.map((column) => {
      const value = column.path.reduce<unknown>(
        (at, name) => (at as Record<string, unknown> | undefined)?.[name],
        record,
      );
      return value ?? "";
    }),
  );
  return sortRows(rows);
}

export function sortRows(rows: unknown[][]): unknown[][] {
  const key = (row: unknown[]) => JSON.stringify(row);
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Every table of a copy (the sync's own tables aside) as sorted rows. */
export function copyTables(db: string): Map<string, unknown[][]> {
  const store = SyncStore.open(db);
  try {
    const state = store.state();
    return new Map(
      [...(state?.datasets ?? [])].map(([resource, { table }]) => [
        resource,
        sortRows(store.rows(table)),
      ]),
    );
  } finally {
    store.close();
  }
}

export { tableName };

// Records with few distinct values: identities collide, names need CSV quoting, views share records.
const text = fc.constantFrom("Hauptstraße", "Am Markt", 'Weg "A"', "Ring, Nord", "Ölweg", "a", "B");
const municipality = fc.record({
  key: fc.constantFrom("11000000", "02000000"),
  name: fc.constantFrom("Berlin, Stadt", "Hamburg"),
  type: fc.constantFrom("Kreisfreie Stadt", "Stadt"),
});
const deStreet = fc
  .record({
    name: text,
    postalCode: fc.constantFrom("10115", "10117", "20095"),
    locality: fc.constantFrom("Berlin", "Hamburg"),
    borough: fc.option(fc.constantFrom("Mitte", "Pankow"), { nil: undefined }),
    suburb: fc.option(fc.constantFrom("Wedding", "Moabit"), { nil: undefined }),
    municipality,
    federalState: fc.record({ key: fc.constantFrom("11", "02"), name: fc.constant("Berlin") }),
  })
  .map(canonical);
const federalState = fc.record({
  key: fc.constantFrom("01", "02", "03", "11", "16"),
  name: text,
  seatOfGovernment: fc.constantFrom("Kiel", "Hamburg", "Berlin"),
});
const liLocality = fc.record({
  postalCode: fc.constantFrom("9490", "9494", "9495"),
  name: text,
  commune: fc.record({
    key: fc.constantFrom("7001", "7002"),
    name: fc.constantFrom("Vaduz", "Schaan"),
  }),
  latitude: fc.constantFrom(47.1, 47.14, 47.2),
  longitude: fc.constantFrom(9.5, 9.52),
});
// One key under two localities is one street in two records: identities shared (docs/CHANGES.md).
const liStreet = fc.record({
  key: fc.constantFrom("1001", "1002", "1003"),
  name: text,
  postalCode: fc.constantFrom("9490", "9494"),
  locality: fc.constantFrom("Vaduz", "Schaan", "Triesen"),
  commune: fc.record({
    key: fc.constantFrom("7001", "7002"),
    name: fc.constantFrom("Vaduz", "Schaan"),
  }),
  status: fc.constantFrom("Real", "Planned"),
});

/** The series' datasets with an arbitrary of their records. */
export const SERIES: readonly {
  readonly resource: AnyResource;
  readonly record: fc.Arbitrary<unknown>;
}[] = [
  { resource: streets as unknown as AnyResource, record: deStreet },
  { resource: federalStates as unknown as AnyResource, record: federalState },
  { resource: liLocalities as unknown as AnyResource, record: liLocality },
  { resource: liStreets as unknown as AnyResource, record: liStreet },
];

/** A record as the model makes it: absent properties left out (not undefined). */
function canonical<T extends object>(record: T): T {
  return JSON.parse(JSON.stringify(record)) as T;
}

/** A record with its properties in the schema's order, as the model writes them (nested ones too). */
export function inSchemaOrder(resource: AnyResource, record: unknown): unknown {
  const order = (schema: JsonSchema, value: unknown): unknown => {
    if (schema.properties === undefined || typeof value !== "object" || value === null)
      return value;
    const object = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(schema.properties).flatMap(([name, field]) =>
        object[name] === undefined ? [] : [[name, order(field, object[name])]],
      ),
    );
  };
  return order(resource.record.json, record);
}

/** Leaves out records tied on their resource's order (the sources have none; the build's order is total). */
export function untied(resource: AnyResource, records: readonly unknown[]): unknown[] {
  const seen = new Set<string>();
  return records.filter((r) => {
    const key = JSON.stringify(resource.sortKey(r as never));
    return !seen.has(key) && (seen.add(key), true);
  });
}
