import { join, resolve } from "node:path";
import { HEADERS_PATH, REDIRECTS_PATH } from "../contract/layout.ts";
import type { LoadedSources } from "../sources/load.ts";
import {
  hashFiles,
  isCached,
  readCached,
  stampInputs,
  unchangedInputs,
  writeCached,
  type InputStamp,
} from "../io/input-stamp.ts";
import { builtFingerprint, PROJECT_ROOT } from "../io/read.ts";
import { isUrl } from "../sources/registry.ts";
import {
  startAssetSetup,
  type AssetSetup,
  type AssetSetupInput,
  type AssetSetupProcess,
} from "../serve/assets.ts";
import { buildOptions, DEFAULT_MAX_FILES, EMBEDDED } from "./options.ts";
import { progressReporter } from "./progress.ts";
import { printSummary } from "./summary.ts";

/**
 * `start` and `dev`: the embedded data built into `dist/` when it changed. What makes a start with
 * `dist/` current quick: the inputs' sizes and times checked against the stamp of the last start
 * (`.cache/start-inputs.json`) before anything of the build is loaded, and the asset worker's
 * settings of the build remembered (`.cache/asset-setup.json`), so the server's start needs no
 * Miniflare. A first start builds no page files (the Worker cuts every page from the packed
 * records, with the same bytes and headers), and loads Miniflare beside the build.
 */

const CACHE = join(PROJECT_ROOT, ".cache");
const STAMP_FILE = join(CACHE, "start-inputs.json");
const ASSET_SETUP_FILE = join(CACHE, "asset-setup.json");
/** Builds whose asset setup is kept: a `serve` of any of them needs no Miniflare (the tests serve several builds in turn). */
const ASSET_SETUPS_KEPT = 32;
const DIST = join(PROJECT_ROOT, "dist");

/** Builds the embedded data into dist/ unless it already holds that build; returns dist/. */
export async function embeddedDist(): Promise<string> {
  const built = builtFingerprint(DIST);
  const stamp = readCached<InputStamp>(STAMP_FILE, DIST);
  if (built !== undefined && stamp?.fingerprint === built && unchangedInputs(stamp)) {
    process.stderr.write("dist/ is up to date\n");
    return DIST;
  }
  const { buildFingerprint, buildToDirectory, loadBuildSources } =
    await import("../build/build.ts");
  // The embedded data is the project's own: its counts are not compared with whatever dist/ held.
  const options = {
    ...buildOptions(EMBEDDED, DEFAULT_MAX_FILES, progressReporter("pages")),
    // A local server needs no page files: the Worker cuts every page from the packed records, the
    // same bytes and headers (docs/OPERATIONS.md); the fewest files make the first start fast.
    pageFiles: false,
    guards: { baseline: "none" },
  } as const;
  const loaded = await loadBuildSources(options);
  const fingerprint = buildFingerprint(loaded);
  if (built === fingerprint) process.stderr.write("dist/ is up to date\n");
  else
    printSummary(
      await buildToDirectory({ ...options, loaded }, DIST, false, "background"),
      "built dist/",
    );
  writeCached(STAMP_FILE, DIST, stampInputs(fingerprint, sourceFiles(loaded)));
  return DIST;
}

/** The files the sources were read from (absolute paths). */
function sourceFiles(loaded: LoadedSources): string[] {
  return Object.values(loaded).flatMap((source) =>
    (source?.parts ?? []).flatMap(({ provenance: { location } }) =>
      isUrl(location) ? [] : [resolve(PROJECT_ROOT, location)],
    ),
  );
}

/**
 * The server's asset setup (Cloudflare's `_headers`/`_redirects` parsers and content types, run in
 * a child that loads Miniflare) answered from `.cache/asset-setup.json` when the build's rule files,
 * the settings and Miniflare are those of one of the last builds it was asked for (`start` and
 * `serve`); else asked of the child, started at once when nothing is cached (so Miniflare loads
 * while the build runs) or on the first miss.
 */
export function cachedAssetSetup(): AssetSetupProcess {
  const miniflare = join(PROJECT_ROOT, "node_modules/miniflare/package.json");
  let child: AssetSetupProcess | undefined = isCached(ASSET_SETUP_FILE)
    ? undefined
    : startAssetSetup();
  return {
    ask: async (input: AssetSetupInput) => {
      const key = hashFiles(
        [join(input.dir, HEADERS_PATH), join(input.dir, REDIRECTS_PATH), miniflare],
        JSON.stringify([input.assetConfig, input.compatibilityDate, input.extensions]),
      );
      const cached = readCached<AssetSetup>(ASSET_SETUP_FILE, key);
      if (cached !== undefined) {
        child?.end();
        return cached;
      }
      child ??= startAssetSetup();
      const answer = await child.ask(input);
      writeCached(ASSET_SETUP_FILE, key, answer, ASSET_SETUPS_KEPT);
      return answer;
    },
    end: () => child?.end(),
  };
}
