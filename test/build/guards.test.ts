import { spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/fixture.ts";
import { EMBEDDED_BUDGET, sharedDataBuild } from "../support/memory-build.ts";
import { CLI_COMMAND, cliArgs, dataFile, ROOT, SPAWN_BOUND_MS } from "../support/paths.ts";

/**
 * The data guards as the operator meets them: a build of the embedded data is in `dist/`, and a
 * damaged source fails the next build with one line naming the source and the figure, exit code
 * 1, and the previous `dist/` exactly as it was.
 */
const work = tempDir("guards");
const out = join(work, "dist");
// No search index: the guards are the subject, and a failing build's search threads worked beside
// the sorting until the guards failed (startSearches runs before checkGuards).
const cli = (...args: string[]) =>
  spawnSync(
    CLI_COMMAND,
    cliArgs("build", "--out", out, "--max-files", "20000", "--no-search-index", ...args),
    {
      cwd: ROOT,
      encoding: "utf8",
      timeout: SPAWN_BOUND_MS,
    },
  );
const errorLines = (stderr: string) =>
  stderr.split("\n").filter((line) => line.startsWith("error:"));
const file = (name: string, data: string | Buffer) => {
  const path = join(work, name);
  writeFileSync(path, data);
  return path;
};

let good: string;
beforeAll(async () => {
  // A copy of the run's shared build of the embedded data: the last test builds over it.
  cpSync((await sharedDataBuild(EMBEDDED_BUDGET)).dir, out, { recursive: true });
  good = readFileSync(join(out, "_files.tsv"), "utf8");
});

const gv100ad = readFileSync(dataFile("de/GV100AD_30112025.txt"));
const berlin = readFileSync(dataFile("de/streets-berlin.csv"), "utf8").trimEnd().split("\n");

describe("a damaged source fails the build and leaves the previous dist/ as it was", () => {
  it.each([
    // `head -c 100000`: Schleswig-Holstein only, and no Berlin for the streets to join with.
    [
      "a truncated GV100AD",
      ["--source", `de-gv100ad=${file("gv-truncated.txt", gv100ad.subarray(0, 100_000))}`],
      /^error: guard: de\.federalstates has 1 record, 16 in .*dist\/downloads\/index\.json: 93\.8% fewer, over the limit of 2% \(--max-drop to accept a deliberate change\); made from de-gv100ad \(.*gv-truncated\.txt\) \(and \d+ more guard failures\)$/,
    ],
    [
      "an empty file",
      ["--source", `de-postcodes=${file("post_code-empty.csv", "")}`],
      /^error: .*post_code-empty\.csv:1: the file is empty$/,
    ],
    [
      "a file with half its rows",
      [
        "--source",
        `de-streets=${file("streets-half.csv", `${berlin.slice(0, 1 + (berlin.length - 1) / 2).join("\n")}\n`)}`,
      ],
      /^error: guard: de\.streets has 5960 records, 11920 in .*: 50\.0% fewer, .*; made from de-streets \(.*streets-half\.csv\), de-gv100ad \(data\/de\/GV100AD_30112025\.txt\)$/,
    ],
    [
      "a source whose join loses most rows (even with every drop accepted)",
      // Two of three streets get a regional key that is no municipality.
      [
        "--max-drop",
        "100",
        "--source",
        `de-streets=${file("streets-unknown-keys.csv", `${[berlin[0], ...berlin.slice(1).map((row, i) => (i % 3 === 0 ? row : row.replace(/,11000000,/, ",11000999,")))].join("\n")}\n`)}`,
      ],
      /^error: guard: de-streets \(.*streets-unknown-keys\.csv\): the join to GV100AD municipalities by RegionalKey skipped 7946 of 11920 rows \(66\.7%: 7946 unmatched\), over the limit of 10% \(--max-join-loss\)$/,
    ],
  ])("%s", (_, args, message) => {
    const result = cli(...args);
    expect(result.status, result.stderr).toBe(1);
    expect(errorLines(result.stderr)).toEqual([expect.stringMatching(message)]);
    expect(readFileSync(join(out, "_files.tsv"), "utf8")).toBe(good);
    expect(readdirSync(work).filter((entry) => entry.startsWith(".dist."))).toEqual([]);
  });

  it("a deliberate change passes with --max-drop, and the summary says what was compared", () => {
    const half = file(
      "streets-half-ok.csv",
      `${berlin.slice(0, 1 + (berlin.length - 1) / 2).join("\n")}\n`,
    );
    // No page files: the guards are the subject, and the Worker cuts every page from the records.
    const result = cli("--max-drop", "60", "--no-page-files", "--source", `de-streets=${half}`);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^guards: no resource empty; 32 resources compared with .*dist\/downloads\/index\.json: at most 50\.0% fewer \(de\.streets\), limit 60%; joins skipped at most 2\.8% of a source's rows \(de-postcodes\), limit 10%$/m,
    );
    expect(readFileSync(join(out, "_files.tsv"), "utf8")).not.toBe(good);
  });

  it("refuses a --baseline that is no build, and an out-of-range limit, in one line", () => {
    for (const [args, message] of [
      [
        ["--baseline", work],
        /^error: --baseline .*: no build there \(no downloads\/index\.json\)$/,
      ],
      [["--max-drop", "150"], /--max-drop.*expected a percentage from 0 to 100/],
    ] as const) {
      const result = cli(...args);
      expect(result.status).toBe(1);
      expect(errorLines(result.stderr)).toEqual([expect.stringMatching(message)]);
    }
  });
});
