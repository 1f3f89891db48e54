import type { BuildSummary, DirectoryBuildSummary } from "../build/build.ts";
import { describeJoin, type JoinReport } from "../model/join-report.ts";

/** The build summary as a table: files and bytes per group, page sizes, notes, changes, phases and resources used. */
export function printSummary(summary: BuildSummary | DirectoryBuildSummary, title: string): void {
  const rows = [...summary.files].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const totalFiles = rows.reduce((sum, [, v]) => sum + v.files, 0);
  const totalBytes = rows.reduce((sum, [, v]) => sum + v.bytes, 0);
  const lines = [title, ...summary.joins.flatMap(joinLines), ...summary.notes.map((note) => `note: ${note}`)];
  lines.push(`${"group".padEnd(44)} ${"files".padStart(9)} ${"bytes".padStart(14)}  page sizes as files`);
  for (const [group, { files, bytes }] of rows) {
    const sizes = summary.plan.sizes.get(group);
    lines.push(`${group.padEnd(44)} ${String(files).padStart(9)} ${String(bytes).padStart(14)}  ${sizes === undefined ? "" : describeSizes(sizes)}`);
  }
  lines.push(`${"total".padEnd(44)} ${String(totalFiles).padStart(9)} ${String(totalBytes).padStart(14)}`);
  if ("changes" in summary) {
    const { added, changed, removed, unchanged } = summary.changes;
    lines.push(`changes against the previous build: ${added} added, ${changed} changed, ${removed} removed, ${unchanged} unchanged`);
  }
  const phases = [...phaseTimes(summary)].map(([phase, ms]) => `${phase} ${(ms / 1000).toFixed(1)} s`);
  const cpu = process.cpuUsage();
  lines.push(`${phases.join(", ")}; CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`);
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
    joins: summary.joins.map(({ renamed, skipped, ...counts }) => ({ ...counts, renamed: renamed.length, skipped: skipped.length })),
    notes: summary.notes,
    ...("changes" in summary ? { changes: summary.changes } : {}),
    downloads: { files: summary.downloads.files.length, reserved: summary.plan.downloadFilesReserved },
  };
  process.stdout.write(`${JSON.stringify(usage)}\n`);
}

/**
 * Milliseconds per phase. Only a build into a directory writes files (and reports its changes); a
 * plan counts them, which is no write phase.
 */
function phaseTimes(summary: BuildSummary | DirectoryBuildSummary): Map<string, number> {
  const phases = "changes" in summary ? ["fetch", "read", "sort", "search", "render", "write"] : ["fetch", "read", "sort", "search", "render"];
  return new Map(phases.map((phase) => [phase, summary.timings.get(phase) ?? 0]));
}

/** A join's counts, then each renaming and each ambiguous row (the unmatched ones are listed in the downloads manifest). */
function joinLines(report: JoinReport): string[] {
  return [
    `join: ${describeJoin(report)}`,
    ...report.renamed.map((r) => `  renamed: ${r.postalCode} ${r.from} → ${r.to} (${r.municipalityKey})`),
    ...report.skipped.filter((r) => r.cause === "ambiguous").map((r) => `  ambiguous: ${r.postalCode} ${r.name} (${r.county}): ${r.detail}`),
  ];
}

/** `[1,2,3,5,50]` → `1-3, 5, 50`. */
export function describeSizes(sizes: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < sizes.length; ) {
    let j = i;
    while (j + 1 < sizes.length && sizes[j + 1] === (sizes[j] ?? 0) + 1) j++;
    parts.push(i === j ? `${sizes[i]}` : `${sizes[i]}-${sizes[j]}`);
    i = j + 1;
  }
  return parts.join(", ");
}
