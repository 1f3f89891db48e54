import type { Command } from "commander";
import { progressReporter } from "./progress.ts";

/** `sync`: keeps a SQLite copy of the datasets in step with a deployment's change feed. */
export function addSyncCommand(program: Command): void {
  program
    .command("sync")
    .description(
      "keep a SQLite copy of the datasets in sync: the first run loads them from the downloads, each later run applies the change feed (every file's SHA-256 checked; each build one transaction)",
    )
    .requiredOption(
      "--from <url|dir>",
      "a deployment or local server (http://…), or a build directory",
    )
    .requiredOption("--db <file>", "the SQLite database (created by the first run)")
    .option("--datasets <ids>", "the datasets to keep, comma-separated (default: all)", (text) =>
      text.split(",").filter((id) => id !== ""),
    )
    .option("--json", "print the summary as one JSON object (for benchmarks)")
    .action(async (opts: { from: string; db: string; datasets?: string[]; json?: boolean }) => {
      // Loaded here: node:sqlite is Node 22.5+, and the other commands must not need it.
      const { sync } = await import("../sync/sync.ts");
      const { summaryLines } = await import("../sync/report.ts");
      const summary = await sync({
        ...opts,
        progress: progressReporter,
        say: (line) => (opts.json ? process.stderr : process.stdout).write(`${line}\n`),
      });
      if (opts.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
      else process.stdout.write(`${summaryLines(summary).join("\n")}\n`);
    });
}
