import type { BuildSummary, DirectoryBuildSummary } from "../build/build.ts";
import { describeJoin, type JoinReport } from "../model/join-report.ts";
import type { GuardReport } from "../build/guards.ts";
import type { ChangeReport } from "../io/disk.ts";

/** The build summary as a table: files and bytes per group, page sizes, notes, changes, phases and resources used. */
export function printSummary(summary: BuildSummary | DirectoryBuildSummary, title: string): void {
  const rows = [...summary.files].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const totalFiles = rows.reduce((sum, [, v]) => sum + v.files, 0);
  const totalBytes = rows.reduce((sum, [, v]) => sum + v.bytes, 0);
  const lines = [
    title,
    ...summary.joins.flatMap(joinLines),
    ...summary.notes.map((note) => `note: ${note}`),
  ];
  lines.push(
    `${"group".padEnd(44)} ${"files".padStart(9)} ${"bytes".padStart(14)}  page sizes as files`,
  );
  for (const [group, { files, bytes }] of rows) {
    const sizes = summary.plan.sizes.get(group);
    lines.push(
      `${group.padEnd(44)} ${String(files).padStart(9)} ${String(bytes).padStart(14)}  ${sizes === undefined ? "" : describeSizes(sizes)}`,
    );
  }
  lines.push(
    `${"total".padEnd(44)} ${String(totalFiles).padStart(9)} ${String(totalBytes).padStart(14)}`,
  );
  lines.push(budgetLine(summary));
  lines.push(guardLine(summary.guard));
  lines.push(recordsLine(summary));
  if ("changes" in summary) lines.push(filesLine(summary.changes));
  const phases = [...phaseTimes(summary)].map(
    ([phase, ms]) => `${phase} ${(ms / 1000).toFixed(1)} s`,
  );
  const cpu = process.cpuUsage();
  lines.push(
    `${phases.join(", ")}; CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`,
  );
  process.stdout.write(`${lines.join("\n")}\n`);
}

/** The summary as one JSON object (for benchmarks). */
export function printJson(summary: BuildSummary | DirectoryBuildSummary): void {
  const cpu = process.cpuUsage();
  const usage = {
    files: Object.fromEntries(summary.files),
    pageSizes: Object.fromEntries(summary.plan.sizes),
    views: Object.fromEntries(summary.views),
    renders: summary.renders,
    timingsMs: Object.fromEntries(phaseTimes(summary)),
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    joins: summary.joins.map(({ renamed, skipped, ...counts }) => ({
      ...counts,
      renamed: renamed.length,
      skipped: skipped.length,
    })),
    notes: summary.notes,
    guard: summary.guard,
    ...("changes" in summary ? { changes: summary.changes } : {}),
    downloads: {
      files: summary.downloads.files.length,
      reserved: summary.plan.downloadFilesReserved,
    },
  };
  process.stdout.write(`${JSON.stringify(usage)}\n`);
}

/**
 * Milliseconds per phase. Only a build into a directory writes files (and reports its changes); a
 * plan counts them, which is no write phase.
 */
function phaseTimes(summary: BuildSummary | DirectoryBuildSummary): Map<string, number> {
  const phases =
    "changes" in summary
      ? ["fetch", "read", "sort", "search", "suggest", "render", "write"]
      : ["fetch", "read", "sort", "search", "suggest", "render"];
  return new Map(phases.map((phase) => [phase, summary.timings.get(phase) ?? 0]));
}

/** Rows of a join report the summary shows; the downloads manifest (`joins`) lists them all. */
const SHOWN_ROWS = 5;

/** A join's counts, then the first renamings and ambiguous rows (all of them, and the unmatched ones, are in the downloads manifest). */
function joinLines(report: JoinReport): string[] {
  const ambiguous = report.skipped.filter((r) => r.cause === "ambiguous");
  const more = (shown: number, all: number, what: string) =>
    all > shown
      ? [`  … and ${all - shown} more ${what} (the downloads manifest lists them all: joins)`]
      : [];
  return [
    `join: ${describeJoin(report)}`,
    ...report.renamed
      .slice(0, SHOWN_ROWS)
      .map((r) => `  renamed: ${r.postalCode} ${r.from} → ${r.to} (${r.municipalityKey})`),
    ...more(SHOWN_ROWS, report.renamed.length, "renamed"),
    ...ambiguous
      .slice(0, SHOWN_ROWS)
      .map((r) => `  ambiguous: ${r.postalCode} ${r.name} (${r.county}): ${r.detail}`),
    ...more(SHOWN_ROWS, ambiguous.length, "ambiguous"),
  ];
}

/** What the file budget bought beyond the minimum: page files (every other page is cut from the packed records). */
function budgetLine({ plan }: BuildSummary): string {
  const minimum = plan.minimumFiles.toLocaleString("en");
  if (plan.pageFiles === 0)
    return `budget: the minimum is ${minimum} files; no page files (every page is cut from the packed records)`;
  const written = [...plan.sizes.values()].filter((sizes) => sizes.length > 0).length;
  return `budget: the minimum is ${minimum} files; the rest bought ${plan.pageFiles.toLocaleString("en")} page files (the sizes above, for ${written} resources); every other page is cut from the packed records`;
}

/** What the change feed counts: records against the previous build (the guards' baseline). */
function recordsLine({ recordChanges }: BuildSummary): string {
  if (recordChanges === undefined)
    return "records: no earlier build to compare with (the change feed lists no changes)";
  const { added, removed, changed } = recordChanges;
  return `records against the previous build (the change feed): ${count(added)} added, ${count(removed)} removed, ${count(changed)} changed`;
}

/** What the output directory's files did against the build it held before (unchanged ones are hard-linked, not written). */
function filesLine({ added, changed, removed, unchanged }: ChangeReport): string {
  if (changed === 0 && removed === 0 && unchanged === 0)
    return `files: ${count(added)} written (no earlier build in the output directory to keep unchanged files from)`;
  return `files against the previous build in the output directory: ${count(added)} added, ${count(changed)} changed, ${count(removed)} removed, ${count(unchanged)} unchanged (kept as hard links)`;
}

const count = (n: number) => n.toLocaleString("en");

/** What the data guards checked, in one line. */
function guardLine(guard: GuardReport): string {
  const counts =
    guard.baseline === undefined
      ? "no earlier build to compare record counts with"
      : `${guard.compared} resources compared with ${guard.baseline}: ${guard.largestDrop === undefined ? "none has fewer records" : `at most ${guard.largestDrop.percent.toFixed(1)}% fewer (${guard.largestDrop.resource})`}, limit ${guard.maxDrop}%`;
  const joins =
    guard.largestJoinLoss === undefined
      ? "no join skipped a row"
      : `joins skipped at most ${guard.largestJoinLoss.percent.toFixed(1)}% of a source's rows (${guard.largestJoinLoss.source}), limit ${guard.maxJoinLoss}%`;
  return `guards: no resource empty; ${counts}; ${joins}`;
}

/** `[1,2,3,5,50]` → `1-3, 5, 50`. */
export function describeSizes(sizes: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < sizes.length;) {
    let j = i;
    while (j + 1 < sizes.length && sizes[j + 1] === (sizes[j] ?? 0) + 1) j++;
    parts.push(i === j ? `${sizes[i]}` : `${sizes[i]}-${sizes[j]}`);
    i = j + 1;
  }
  return parts.join(", ");
}
