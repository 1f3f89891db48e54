import { DOWNLOADS_PREFIX } from "../contract/downloads.ts";
import type { JoinReport } from "../model/join-report.ts";
import { sourceSpec, type SourceName } from "../sources/registry.ts";
import type { PreparedResource } from "./views.ts";

/**
 * Guards on the data, checked after the joins and before anything is written: a build never
 * publishes a resource that came out empty, a resource with far fewer records than the build it
 * replaces, or the result of a join that skipped a large share of a source's rows (a truncated
 * register leaves most rows without their municipality). A failure is one line naming the
 * resource or source, its sources and the figure.
 */
export interface GuardOptions {
  /** The largest drop of a resource's records against the baseline, in percent (default 2). */
  readonly maxDrop?: number;
  /** The largest share of a source's rows a join may skip, in percent (default 10). */
  readonly maxJoinLoss?: number;
  /** The records per resource to compare with; `none`: compare with nothing (only empties and joins). */
  readonly baseline?: Baseline | "none";
}

export const DEFAULT_MAX_DROP = 2;
export const DEFAULT_MAX_JOIN_LOSS = 10;

/** The records per resource of an earlier build: the previous output, or the deployed manifest. */
export interface Baseline {
  /** Where the figures come from, for messages: a path or a URL. */
  readonly where: string;
  readonly counts: ReadonlyMap<string, number>;
}

/** What the guards checked, for the build summary. */
export interface GuardReport {
  readonly baseline?: string;
  readonly compared: number;
  readonly maxDrop: number;
  readonly maxJoinLoss: number;
  /** The resource that lost the largest share of its records against the baseline, if any lost any. */
  readonly largestDrop?: { readonly resource: string; readonly percent: number };
  /** The join that skipped the largest share of its rows, if any skipped any. */
  readonly largestJoinLoss?: { readonly source: SourceName; readonly percent: number };
}

export class GuardError extends Error {
  override name = "GuardError";
}

interface GuardInput {
  readonly resources: readonly {
    readonly prepared: PreparedResource;
    readonly sources: readonly SourceName[];
  }[];
  readonly joins: readonly JoinReport[];
  /** How messages name each source: its file or URL. */
  readonly labels: Readonly<Record<SourceName, string>>;
}

/**
 * Records per resource as the downloads manifest states them: the records of its complete
 * dataset (`/downloads/{id}.json`, or its parts), which is what a build's `PreparedResource.records` counts.
 */
export function countsOfManifest(manifest: unknown): Map<string, number> {
  const files = (manifest as { files?: unknown } | null)?.files;
  if (!Array.isArray(files)) throw new Error("not a downloads manifest (no files)");
  const counts = new Map<string, number>();
  const dataset = new RegExp(`^${DOWNLOADS_PREFIX}([^/]+?)(?:\\.part-\\d+)?\\.json$`);
  for (const file of files as { path?: unknown; records?: unknown }[]) {
    const id = typeof file.path === "string" ? dataset.exec(file.path)?.[1] : undefined;
    if (id !== undefined && typeof file.records === "number")
      counts.set(id, (counts.get(id) ?? 0) + file.records);
  }
  return counts;
}

/** Checks every guard; throws a `GuardError` naming the first failure (and how many more there are). */
export function checkGuards(input: GuardInput, options: GuardOptions = {}): GuardReport {
  const maxDrop = options.maxDrop ?? DEFAULT_MAX_DROP;
  const maxJoinLoss = options.maxJoinLoss ?? DEFAULT_MAX_JOIN_LOSS;
  const baseline = options.baseline === "none" ? undefined : options.baseline;
  const named = (name: SourceName) =>
    input.labels[name].startsWith(`${name} `)
      ? input.labels[name]
      : `${name} (${input.labels[name]})`;
  const failures: { specificity: number; message: string }[] = [];
  let compared = 0;
  let largestDrop: GuardReport["largestDrop"];
  for (const { prepared, sources } of input.resources) {
    const id = prepared.resource.id;
    const count = prepared.records;
    const madeOf = `made from ${sources.map(named).join(", ")}`;
    if (count === 0) {
      // An optional source may have no rows for one of its resources (swisstopo's directory given
      // without Liechtenstein's file); it is the source as a whole that must not come out empty.
      const [primary] = sources;
      const sibling = input.resources.some(
        (r) => r.sources[0] === primary && r.prepared.records > 0,
      );
      if (primary !== undefined && sourceSpec(primary).embedded === undefined && sibling) continue;
      failures.push({
        specificity: sources.length,
        message: `${id} would be served empty (${madeOf}); a resource is never published without records`,
      });
      continue;
    }
    const before = baseline?.counts.get(id);
    if (before === undefined || before === 0) continue;
    compared++;
    const drop = percent(before - count, before);
    if (drop > 0 && drop > (largestDrop?.percent ?? 0))
      largestDrop = { resource: id, percent: drop };
    if (drop > maxDrop) {
      failures.push({
        specificity: sources.length,
        message: `${id} has ${count} record${count === 1 ? "" : "s"}, ${before} in ${baseline?.where}: ${format(drop)}% fewer, over the limit of ${maxDrop}% (--max-drop to accept a deliberate change); ${madeOf}`,
      });
    }
  }
  // The resource made of the fewest sources points most directly at the broken one.
  failures.sort((a, b) => a.specificity - b.specificity);
  let largestJoinLoss: GuardReport["largestJoinLoss"];
  for (const join of input.joins) {
    // Rows skipped for other causes (duplicates merged, rows another source covers) are not lost.
    const lost = join.unmatched + join.ambiguous;
    if (join.rows === 0 || lost === 0) continue;
    const loss = percent(lost, join.rows);
    if (loss > (largestJoinLoss?.percent ?? 0))
      largestJoinLoss = { source: join.source, percent: loss };
    if (loss > maxJoinLoss) {
      const causes = [`${join.unmatched} unmatched`, `${join.ambiguous} ambiguous`].filter(
        (c) => !c.startsWith("0 "),
      );
      failures.push({
        specificity: Infinity,
        message: `${named(join.source)}: the join to ${join.joinedTo} skipped ${lost} of ${join.rows} rows (${format(loss)}%: ${causes.join(" and ")}), over the limit of ${maxJoinLoss}% (--max-join-loss)`,
      });
    }
  }
  const [first] = failures;
  if (first !== undefined)
    throw new GuardError(
      `guard: ${first.message}${failures.length > 1 ? ` (and ${failures.length - 1} more guard failures)` : ""}`,
    );
  return {
    ...(baseline === undefined ? {} : { baseline: baseline.where }),
    compared,
    maxDrop,
    maxJoinLoss,
    ...(largestDrop === undefined ? {} : { largestDrop }),
    ...(largestJoinLoss === undefined ? {} : { largestJoinLoss }),
  };
}

function percent(part: number, whole: number): number {
  return (100 * part) / whole;
}

/** One decimal, but never rounded down to the limit it exceeds (2.04% is "2.1", not "2.0"). */
function format(value: number): string {
  return (Math.ceil(value * 10) / 10).toFixed(1);
}
