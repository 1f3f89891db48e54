import { ASSETS_PLUGIN, buildAssetManifest, Log, LogLevel } from "miniflare";
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { HEADERS_PATH, REDIRECTS_PATH } from "../contract/layout.ts";
import type { AssetSetup, AssetSetupInput } from "./assets.ts";

/**
 * Cloudflare's own readers of a build's asset settings, as Miniflare bundles them: run in a child
 * process at the start (assets.ts, `startAssetSetup`), which ends when it has answered, so that
 * Miniflare (about 140 MB once loaded) never enters the server's memory.
 */

/**
 * The asset worker's CONFIG exactly as Miniflare builds it: `_headers` and `_redirects` parsed by
 * Cloudflare's own parsers (bundled into Miniflare, not exported), run over a scratch directory
 * that holds only those two files. Invalid rules are logged as warnings.
 */
async function assetConfigFor(
  dir: string,
  assetConfig: Record<string, unknown>,
  compatibilityDate: string,
  log: Log,
): Promise<Record<string, unknown>> {
  const scratch = mkdtempSync(join(tmpdir(), "plz-asset-config-"));
  try {
    for (const name of [HEADERS_PATH, REDIRECTS_PATH])
      if (existsSync(join(dir, name))) copyFileSync(join(dir, name), join(scratch, name));
    const services = await ASSETS_PLUGIN.getServices({
      options: {
        assets: { directory: scratch, workerName: "plz", assetConfig },
        compatibilityDate,
      },
      log,
    } as never);
    const list = (
      Array.isArray(services)
        ? services
        : ((services as { services?: unknown[] } | undefined)?.services ?? [])
    ) as { name?: string; worker?: { bindings?: { name?: string; json?: string }[] } }[];
    const json = list
      .find((s) => s.name?.startsWith("assets:assets-service:"))
      ?.worker?.bindings?.find((b) => b.name === "CONFIG")?.json;
    if (json === undefined)
      throw new Error(
        "miniflare's assets plugin changed: no CONFIG binding on its asset service (check the wrangler version)",
      );
    return JSON.parse(json) as Record<string, unknown>;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Content types exactly as Miniflare (and wrangler's upload) give them, asked once per extension. */
async function contentTypesFor(extensions: ReadonlySet<string>): Promise<Map<string, string>> {
  const scratch = mkdtempSync(join(tmpdir(), "plz-content-types-"));
  try {
    for (const ext of extensions) writeFileSync(join(scratch, `f${ext}`), "");
    const { assetsReverseMap } = await buildAssetManifest(scratch);
    return new Map(
      Object.values(assetsReverseMap).map((v) => [extname(v.filePath), v.contentType ?? ""]),
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

process.once("message", (input: AssetSetupInput) => {
  const log = new Log(LogLevel.WARN); // invalid _headers rules are reported as warnings
  void Promise.all([
    assetConfigFor(input.dir, input.assetConfig, input.compatibilityDate, log),
    contentTypesFor(new Set(input.extensions)),
  ]).then(([config, types]) => {
    const answer: AssetSetup = { config, types: [...types] };
    process.send?.(answer, () => process.exit(0));
  });
});
