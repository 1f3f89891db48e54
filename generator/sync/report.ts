import type { SyncSummary } from "./sync.ts";

const n = (value: number) => value.toLocaleString("en");

/** The run's summary as lines: what the copy is at now, per dataset what changed, the totals and the time. */
export function summaryLines(summary: SyncSummary): string[] {
  const seconds = `${(summary.wallMs / 1000).toFixed(1)} s`;
  if (summary.action === "unchanged")
    return [
      `${summary.db} is up to date: the build of ${summary.builtAt} from ${summary.source}; nothing changed (${seconds})`,
    ];
  const how = {
    loaded: "loaded",
    reloaded: "loaded again",
    updated: `${summary.builds} ${summary.builds === 1 ? "build" : "builds"} applied`,
  }[summary.action];
  const head = `${summary.db} is at the build of ${summary.builtAt} from ${summary.source}${summary.before === undefined ? "" : ` (was ${summary.before})`}: ${how}`;
  const total = { added: 0, removed: 0, changed: 0 };
  const lines: string[] = [];
  let unchanged = 0;
  for (const d of summary.datasets) {
    total.added += d.added;
    total.removed += d.removed;
    total.changed += d.changed;
    if (!d.loaded && d.added + d.removed + d.changed === 0) unchanged++;
    else
      lines.push(
        `  ${d.resource} (table ${d.table}): ${n(d.records)} records, ${d.loaded ? "loaded" : `${n(d.added)} added, ${n(d.removed)} removed, ${n(d.changed)} changed`}`,
      );
  }
  if (unchanged > 0)
    lines.push(`  ${unchanged} more ${unchanged === 1 ? "dataset" : "datasets"}: no changes`);
  return [
    head,
    ...lines,
    `${summary.datasets.length} ${summary.datasets.length === 1 ? "dataset" : "datasets"}: ${n(total.added)} ${total.added === 1 ? "record" : "records"} added, ${n(total.removed)} removed, ${n(total.changed)} changed in ${seconds}`,
  ];
}
