import type { SourceName } from "../sources/registry.ts";

/**
 * What a join made of one source's rows: every row considered is joined or skipped, and every
 * skip has a cause. The build prints these and the downloads manifest records them (`joins`).
 */
export interface JoinReport {
  readonly source: SourceName;
  /** What the rows were joined to, in a phrase (`GV100AD municipalities by RegionalKey`). */
  readonly joinedTo: string;
  /** Rows considered: `joined + unmatched + ambiguous + the other skips`. */
  readonly rows: number;
  readonly joined: number;
  /** Rows that match nothing they could be joined to: skipped. */
  readonly unmatched: number;
  /** Rows that match several candidates that cannot be told apart: skipped, never guessed. */
  readonly ambiguous: number;
  /** Rows skipped for other causes, by cause (e.g. `duplicate`): each a number of rows. */
  readonly otherSkips: Readonly<Record<string, number>>;
  /** Joins that cross a district boundary the source states (joins by county only): 0 by construction, counted to prove it. */
  readonly crossDistrict?: number;
  /** Joined rows whose name the records do not take from the source as it is, with the name they are served under. */
  readonly renamed: readonly Renaming[];
  /** The unmatched and ambiguous rows themselves, where a row has more to it than a key (joins by name). */
  readonly skipped: readonly SkippedRow[];
}

export interface Renaming {
  readonly postalCode: string;
  /** The source's name. */
  readonly from: string;
  /** The name served: the municipality's official name without its suffix. */
  readonly to: string;
  readonly municipalityKey: string;
  /** A row naming no municipality of its county, placed as a town part: by which rule (de-town-parts.ts). */
  readonly placedBy?: "seat" | "name" | "siblings";
}

export interface SkippedRow {
  readonly postalCode: string;
  readonly name: string;
  readonly county: string;
  readonly cause: "unmatched" | "ambiguous";
  /** Why, in a phrase (`no municipality of that name in district 07138 Neuwied`). */
  readonly detail: string;
}

/** The cause of a skipped row identical to an earlier one (merged into its record). */
export const DUPLICATE = "duplicate";

/** Counts a join as it goes; `report` checks that every row was counted once. */
export class JoinCounter {
  private rows = 0;
  private joined = 0;
  private unmatched = 0;
  private ambiguous = 0;
  private readonly other = new Map<string, number>();

  constructor(
    private readonly source: SourceName,
    private readonly joinedTo: string,
  ) {}

  join(): void {
    this.rows++;
    this.joined++;
  }

  skip(cause: "unmatched" | "ambiguous" | (string & {})): void {
    this.rows++;
    if (cause === "unmatched") this.unmatched++;
    else if (cause === "ambiguous") this.ambiguous++;
    else this.other.set(cause, (this.other.get(cause) ?? 0) + 1);
  }

  report(
    extra: Partial<Pick<JoinReport, "crossDistrict" | "renamed" | "skipped">> = {},
  ): JoinReport {
    return {
      source: this.source,
      joinedTo: this.joinedTo,
      rows: this.rows,
      joined: this.joined,
      unmatched: this.unmatched,
      ambiguous: this.ambiguous,
      otherSkips: Object.fromEntries([...this.other].sort((a, b) => (a[0] < b[0] ? -1 : 1))),
      ...(extra.crossDistrict === undefined ? {} : { crossDistrict: extra.crossDistrict }),
      renamed: extra.renamed ?? [],
      skipped: extra.skipped ?? [],
    };
  }
}

/** `de-postcodes → GV100AD municipalities …: 9,454 rows, 8,500 joined, …`: one line of the build's output. */
export function describeJoin(report: JoinReport): string {
  const n = (value: number) => value.toLocaleString("en");
  const others = Object.entries(report.otherSkips).map(
    ([cause, count]) => `${n(count)} skipped as ${cause}`,
  );
  const parts = [
    `${n(report.rows)} rows`,
    `${n(report.joined)} joined`,
    `${n(report.unmatched)} skipped as unmatched`,
    `${n(report.ambiguous)} skipped as ambiguous`,
    ...others,
    ...(report.crossDistrict === undefined
      ? []
      : [`${n(report.crossDistrict)} cross-district joins`]),
    ...(report.renamed.length === 0 ? [] : [`${n(report.renamed.length)} renamed`]),
  ];
  return `${report.source} → ${report.joinedTo}: ${parts.join(", ")}`;
}
