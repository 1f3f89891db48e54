import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ChangeFeedWriter, type FeedStart } from "../../generator/build/change-feed.ts";
import { DownloadWriter } from "../../generator/build/downloads.ts";
import { prepare } from "../../generator/build/views.ts";
import { datasetPath, type DownloadsManifest } from "../../generator/contract/downloads.ts";
import type { ChangeFeed } from "../../generator/contract/changes.ts";
import { MemorySink } from "../../generator/io/sink.ts";
import { streets } from "../../generator/resources/de.ts";

/**
 * Exactness: a generated change set applied to a generated street dataset; both are written as
 * the build writes datasets (in parts, so the old download is read part by part), and the
 * published changes applied to the old download give the new download's records byte for byte,
 * in JSON and in CSV, and in the API's order the new download itself.
 */
const seed = Number(process.env["CHANGES_SEED"] ?? Date.now() % 2 ** 31);
const runs = Number(process.env["CHANGES_RUNS"] ?? 60);

type Street = Parameters<typeof streets.sortKey>[0];

// Few distinct values, so that identities collide, views share records and names need CSV quoting.
const text = fc.constantFrom(
  "Hauptstraße",
  "Am Markt",
  'Weg "A"',
  "Ring, Nord",
  "Ölweg",
  "Zeile\nzwei",
  "a",
  "B",
);
const street: fc.Arbitrary<Street> = fc
  .record({
    name: text,
    postalCode: fc.constantFrom("10115", "10117", "20095"),
    locality: fc.constantFrom("Berlin", "Hamburg", "Mitte"),
    borough: fc.option(fc.constantFrom("Mitte", "Pankow"), { nil: undefined }),
    suburb: fc.option(fc.constantFrom("Wedding", "Moabit"), { nil: undefined }),
    municipality: fc.record({
      key: fc.constantFrom("11000000", "02000000"),
      name: fc.constantFrom("Berlin, Stadt", "Hamburg"),
      type: fc.constant("Kreisfreie Stadt"),
    }),
    federalState: fc.record({
      key: fc.constantFrom("11", "02"),
      name: fc.constantFrom("Berlin", "Hamburg"),
    }),
  })
  .map(canonical);

/** The record as the model makes it: properties in the schema's order, absent ones left out (not undefined). */
function canonical(s: { readonly [K in keyof Street]?: Street[K] | undefined }): Street {
  const { name, postalCode, locality, borough, suburb, municipality, federalState } = s;
  return JSON.parse(
    JSON.stringify({ name, postalCode, locality, borough, suburb, municipality, federalState }),
  ) as Street;
}

/** The real data's order is total (sortKey ends in the municipality): records tied on it are left out, as the build's sources have none. */
function untied(records: readonly Street[]): Street[] {
  const seen = new Set<string>();
  return records.filter((r) => {
    const key = JSON.stringify(streets.sortKey(r));
    return !seen.has(key) && (seen.add(key), true);
  });
}

/** A dataset and its successor: records dropped, some edited (a new suburb or name: a new identity; a new municipality name: changed), some added. */
const changeSet = fc.record({
  before: fc.array(street, { maxLength: 40 }),
  drop: fc.array(fc.boolean(), { maxLength: 40 }),
  edits: fc.array(
    fc.tuple(
      fc.nat(39),
      fc.option(fc.constantFrom("Wedding", "Moabit"), { nil: undefined }),
      fc.option(text, { nil: undefined }),
      fc.option(fc.constantFrom("Berlin", "Hamburg, Freie und Hansestadt"), { nil: undefined }),
    ),
    { maxLength: 8 },
  ),
  added: fc.array(street, { maxLength: 10 }),
});

async function write(
  records: readonly Street[],
  builtAt: string,
  feed: FeedStart,
): Promise<{ sink: MemorySink; manifest: DownloadsManifest }> {
  const sink = new MemorySink();
  const downloads = new DownloadWriter(
    sink,
    { maxBytes: 2_000, gzipOver: Number.MAX_SAFE_INTEGER },
    new ChangeFeedWriter(sink, builtAt, feed),
  );
  const prepared = prepare(streets, records);
  const dataset = downloads.dataset(prepared.resource);
  for (const view of prepared.views) {
    const part = view.datasetPart();
    if (part !== undefined) await dataset.add(part);
  }
  await dataset.finish();
  return { sink, manifest: await downloads.finish(builtAt, []) };
}

const parts = (
  written: { sink: MemorySink; manifest: DownloadsManifest },
  format: "json" | "csv",
) =>
  written.manifest.files
    .filter(
      (f) =>
        f.format === format &&
        f.gzipOf === undefined &&
        f.path.startsWith(datasetPath("de.streets", format).replace(/\.\w+$/, "")),
    )
    .sort((a, b) => (a.part ?? 0) - (b.part ?? 0))
    .map((f) => written.sink.text(f.path) ?? "");
const jsonRecords = (texts: string[]) =>
  texts.flatMap((t) => (JSON.parse(t) as unknown[]).map((r) => JSON.stringify(r)));
const csvRows = (texts: string[]) => texts.flatMap((t) => splitCsv(t).slice(1));

/** CSV records (with their CRLF): a quoted field may hold a line break. */
function splitCsv(text: string): string[] {
  const rows: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') quoted = !quoted;
    else if (!quoted && text[i] === "\r" && text[i + 1] === "\n")
      (rows.push(text.slice(start, i + 2)), (start = i + 2), i++);
  }
  return rows;
}

function applyTo(old: string[], remove: string[], add: string[]): string[] {
  const left = [...old];
  for (const record of remove) {
    const at = left.indexOf(record);
    if (at < 0)
      throw new Error(`the changes remove a record the old download does not have: ${record}`);
    left.splice(at, 1);
  }
  return [...left, ...add];
}

const sorted = (list: string[]) => [...list].sort();

describe("the change files, applied to the old download", () => {
  it("give the new download, byte for byte (JSON and CSV)", async () => {
    const kinds: string[] = [];
    console.log(
      `change feed property test: seed ${seed}, ${runs} runs (replay: CHANGES_SEED=${seed})`,
    );
    await fc.assert(
      fc.asyncProperty(changeSet, async ({ before: generated, drop, edits, added }) => {
        const before = untied(generated);
        const after = before.filter((_, i) => drop[i] !== true).map((s) => ({ ...s }));
        for (const [at, suburb, name, municipalityName] of edits) {
          const s = after[at % Math.max(after.length, 1)];
          if (s === undefined) continue;
          if (suburb === undefined) delete s.suburb;
          else s.suburb = suburb;
          if (name !== undefined) s.name = name;
          if (municipalityName !== undefined)
            s.municipality = { ...s.municipality, name: municipalityName };
        }
        const successor = untied([...after, ...added].map(canonical));
        const old = await write(before, "2026-11-21T03:00:00.000Z", { carried: [] });
        const predecessor = {
          where: "memory",
          manifest: old.manifest,
          read: (path: string) =>
            Promise.resolve(
              old.sink.files.has(path) ? Buffer.from(old.sink.files.get(path) ?? "") : undefined,
            ),
        };
        const next = await write(successor, "2026-11-22T03:00:00.000Z", {
          predecessor,
          carried: [],
        });
        const feed = JSON.parse(
          next.sink.text("/downloads/changes/index.json") ?? "",
        ) as ChangeFeed;
        const files = feed.builds[0]?.files ?? [];
        const changesJson = files.find((f) => f.format === "json");
        const changesCsv = files.find((f) => f.format === "csv");
        const entries =
          changesJson === undefined
            ? []
            : (JSON.parse(next.sink.text(changesJson.path) ?? "") as {
                change: string;
                old?: unknown;
                new?: unknown;
              }[]);
        const texts = (side: "old" | "new") =>
          entries.flatMap((e) => (e[side] === undefined ? [] : [JSON.stringify(e[side])]));
        const appliedJson = applyTo(jsonRecords(parts(old, "json")), texts("old"), texts("new"));
        expect(sorted(appliedJson)).toEqual(sorted(jsonRecords(parts(next, "json"))));
        // In the API's order the applied records are the new download itself.
        const reordered = await write(
          appliedJson.map((r) => JSON.parse(r) as Street),
          "2026-11-22T03:00:00.000Z",
          { carried: [] },
        );
        expect(parts(reordered, "json")).toEqual(parts(next, "json"));

        const rows =
          changesCsv === undefined ? [] : splitCsv(next.sink.text(changesCsv.path) ?? "").slice(1);
        const marked = (marks: string[]) =>
          rows
            .filter((r) => marks.some((m) => r.startsWith(`${m},`)))
            .map((r) => r.slice(r.indexOf(",") + 1));
        const appliedCsv = applyTo(
          csvRows(parts(old, "csv")),
          marked(["removed", "changed-from"]),
          marked(["added", "changed-to"]),
        );
        expect(sorted(appliedCsv)).toEqual(sorted(csvRows(parts(next, "csv"))));
        expect(entries.length).toBe(
          rows.length - entries.filter((e) => e.change === "changed").length,
        );
        kinds.push(...entries.map((e) => e.change));
      }),
      { seed, numRuns: runs },
    );
    // The runs did change records, not only add and remove them.
    expect(new Set(kinds)).toEqual(new Set(["added", "removed", "changed"]));
  });
});
