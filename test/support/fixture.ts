import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildToDirectory, type BuildSummary } from "../../generator/build/build.ts";
import type { SourceName } from "../../generator/sources/registry.ts";
import { dataFile, ROOT } from "./paths.ts";
import { sharedBuild } from "./shared-build.ts";
import { generateSwissStreets } from "./swiss-streets.ts";

/**
 * A small street list cut from the real data: 595 Berlin streets (every 20th) plus the OpenPLZ
 * edge-case sample (743 real localities with odd names, 5 more Berlin rows): Berlin has 600
 * streets, an exact multiple of many page sizes.
 */
export function fixtureStreets(dir: string): string {
  const file = join(dir, "streets.csv");
  writeFileSync(file, fixtureStreetsText());
  return file;
}

/** The street fixture's bytes (fixtureStreets writes them). */
function fixtureStreetsText(): string {
  const berlin = readFileSync(dataFile("de/streets-berlin.csv"), "utf8").trimEnd().split("\n");
  const sample = readFileSync(dataFile("de/streets-openplz-sample.csv"), "utf8")
    .trimEnd()
    .split("\n");
  const rows = [
    berlin[0],
    ...berlin
      .slice(1)
      .filter((_, i) => i % 20 === 0)
      .slice(0, 595),
    ...sample.slice(1),
  ];
  return `${rows.join("\n")}\n`;
}

/** A temporary directory under the run's root (see global-setup.ts), removed after the run. */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(process.env["PLZ_TEST_TMP"] ?? tmpdir(), `${prefix}-`));
}

/** The street fixture's resources: streets and the unpaged lists (what the street tests serve). */
export const STREET_FIXTURE = [
  "de.streets",
  "de.federalstates",
  "at.federalprovinces",
  "ch.cantons",
  "li.communes",
] as const;

/**
 * The file budget of the whole fixture's build that the suites over HTTP share (endpoints, hostile,
 * records, downloads, docs, suggest): between the minimum and everything, so some page sizes are
 * files and the Worker cuts the others. A budget decides only which pages are files, no answer, so
 * one build serves them all (built once per run).
 */
export const FIXTURE_BUDGET = 8_000;

export interface FixtureOptions {
  /** Build only these resources (default all). */
  readonly only?: readonly string[];
  readonly inlineShardBytes?: number;
  /** Bytes of index one street search may read (default the build's). */
  readonly searchReadBudget?: number;
  /**
   * The optional source swisstopo's street directory (`ch-streets`): by default the directory
   * generated from the register of localities (see swiss-streets.ts), so a fixture build serves
   * every resource; a path to read instead; or `false` for a build without it.
   */
  readonly swissStreets?: string | false;
  /**
   * `false`: no page files, only the minimum (`--no-page-files`; the Worker cuts every page from
   * the packed records, the same answers): for suites whose subject is not the page files, where
   * fewer files are quicker to copy and to serve (wrangler reads and hashes every asset at start).
   */
  readonly pageFiles?: false;
}

/** Writes the generated Swiss and Liechtenstein street directory into `dir`; returns its path. */
export function fixtureSwissStreets(dir: string): string {
  const file = join(dir, "amtliches-strassenverzeichnis_ch_2056.csv");
  generateSwissStreets(file);
  return file;
}

const sha256 = (bytes: string | Buffer) => createHash("sha256").update(bytes).digest("hex");

/**
 * Builds the fixture into a `dist` shared by the whole run (shared-build.ts: the same arguments
 * give the same build, built once; treat it as read-only); returns it with the build's summary and
 * the source files it read besides the embedded ones.
 */
export async function buildFixture(
  maxFiles: number,
  streetsFile?: string,
  options: FixtureOptions = {},
): Promise<{ dir: string; summary: BuildSummary; sources: Partial<Record<SourceName, string>> }> {
  const { dir, value } = await sharedBuild(
    // A street list by its bytes: suites that write the fixture to their own directories
    // (fixtureStreets) share one build with the suites that name no list (the fixture too).
    {
      fixture: 1,
      maxFiles,
      streets: sha256(streetsFile === undefined ? fixtureStreetsText() : readFileSync(streetsFile)),
      options,
    },
    async (out, inputs) => {
      const sources: Partial<Record<SourceName, string>> = {
        "de-streets": streetsFile ?? fixtureStreets(inputs),
      };
      if (options.swissStreets !== false)
        sources["ch-streets"] = options.swissStreets ?? fixtureSwissStreets(inputs);
      const summary = await buildToDirectory(
        {
          root: ROOT,
          sources,
          maxFiles,
          headersTemplate: readFileSync(join(ROOT, "_headers"), "utf8"),
          ...(options.only === undefined ? {} : { only: options.only }),
          ...(options.inlineShardBytes === undefined
            ? {}
            : { inlineShardBytes: options.inlineShardBytes }),
          ...(options.searchReadBudget === undefined
            ? {}
            : { searchReadBudget: options.searchReadBudget }),
          ...(options.pageFiles === undefined ? {} : { pageFiles: options.pageFiles }),
        },
        out,
      );
      return { summary: summary as BuildSummary, sources };
    },
  );
  return { dir, ...value };
}
