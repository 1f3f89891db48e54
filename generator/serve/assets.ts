import { hash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  ASSETS_IGNORE_PATH,
  FILE_LIST_PATH,
  HEADERS_PATH,
  REDIRECTS_PATH,
} from "../contract/layout.ts";

/**
 * What the server needs to know of a build's files to serve them as Cloudflare's static-asset
 * service does: its `_headers` and `_redirects` rules as Cloudflare's own parsers read them, each
 * file's content type as wrangler's upload gives it, and the file list (`_files.tsv`) instead of
 * a walk that stats and hashes every one of up to 100,000 files before the first answer.
 */

export interface AssetSetupInput {
  readonly dir: string;
  readonly assetConfig: Record<string, unknown>;
  readonly compatibilityDate: string;
  /** The file extensions of the build (with their dot). */
  readonly extensions: readonly string[];
}

export interface AssetSetup {
  /** The asset worker's CONFIG: `_headers` and `_redirects` rules as Cloudflare's parsers read them. */
  readonly config: Record<string, unknown>;
  /** Content type by extension, as wrangler's upload gives them. */
  readonly types: readonly (readonly [string, string])[];
}

/** The asset setup process, started; asked once. */
export interface AssetSetupProcess {
  /** Its answer for the build, then the process (and Miniflare) gone. */
  ask(input: AssetSetupInput): Promise<AssetSetup>;
  /** Ends the process if it is still there (it was never asked, or its answer is no longer awaited). */
  end(): void;
}

/**
 * asset-config.ts in a child process, started before the build's file list is read: loading
 * Miniflare takes most of the server's start, and it then runs beside the reading.
 */
export function startAssetSetup(): AssetSetupProcess {
  const child = fork(fileURLToPath(new URL("./asset-config.ts", import.meta.url)), [], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const gone = new Promise<never>((_, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the asset setup process exited (${code})`)));
  });
  gone.catch(() => undefined); // a failure matters only to an ask
  return {
    ask: (input) =>
      Promise.race([
        new Promise<AssetSetup>((resolve) => {
          child.once("message", (answer: AssetSetup) => resolve(answer));
          child.send(input);
        }),
        gone,
      ]),
    end: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill();
    },
  };
}

/** Cloudflare's limits (not enforced by the local runtime: a warning keeps a deploy failure from hiding). */
export const MAX_ASSETS = 100_000;

/** Never assets (Cloudflare's rules), besides what `.assetsignore` lists. */
const NOT_ASSETS = [HEADERS_PATH, REDIRECTS_PATH, ASSETS_IGNORE_PATH];
/** The files whose rules the asset setup reads. */
const CONTROL_FILES = [HEADERS_PATH, REDIRECTS_PATH];

/** Hex digits of a file's ETag value. */
const ETAG_LENGTH = 32;

/** A served file as the build lists it. */
export interface ListedFile {
  /** The ETag value, without quotes. */
  readonly etag: string;
  readonly type: string | undefined;
  /** Its size in bytes, as the build wrote it. */
  readonly bytes: number;
}

export interface FileIndex {
  /** A served file by its path (decoded, from `/`). */
  lookup(path: string): ListedFile | undefined;
  readonly count: number;
}

/**
 * The build's assets from `_files.tsv` (path, SHA-256 in base64url, bytes), without reading the
 * files: one string per file, the digest until the file is first asked for, then its ETag (a
 * hash of 32 hex digits, shorter than the digest it replaces): derived once, neither per request
 * nor for every file before the first answer. The ETag is the file's digest hashed with
 * its path: stable across rebuilds of the same bytes, like Cloudflare's, but one per file, so a
 * file changed after the build is never answered with a twin's ETag. A listed file that is gone
 * is found out when it is asked for (no asset: the Worker's 404). Each entry also keeps the file's
 * size, which the server checks when it opens the file. `typesFor` also gets what the asset setup
 * depends on besides the extensions: the digests of `_headers` and `_redirects` in the list (a
 * later build with the same ones and no new extension has the same rules and content types).
 */
export async function fileIndex(
  dir: string,
  typesFor: (
    extensions: readonly string[],
    setupKey: string,
  ) => Promise<ReadonlyMap<string, string>>,
): Promise<FileIndex> {
  const text = readFileSync(join(dir, FILE_LIST_PATH), "utf8");
  const ignore = existsSync(join(dir, ASSETS_IGNORE_PATH))
    ? readFileSync(join(dir, ASSETS_IGNORE_PATH), "utf8")
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l !== "" && !l.startsWith("#"))
    : [];
  const glob = ignore.find((pattern) => !/^\/[^*?[!]+$/.test(pattern));
  if (glob !== undefined)
    throw new Error(
      `${join(dir, ASSETS_IGNORE_PATH)}: only literal paths are supported by the local server, not ${glob}`,
    );
  const ignored = new Set([...NOT_ASSETS, ...ignore]);
  // Path → the file's digest (43 characters of base64url), replaced by its ETag (32) when first
  // asked, then a tab and its size.
  const etags = new Map<string, string>();
  const control: string[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const [path = "", digest = "", bytes = ""] = line.split("\t", 3);
    if (path === "" || digest === "" || !/^[0-9]+$/.test(bytes))
      throw new Error(
        `${join(dir, FILE_LIST_PATH)}: not a file list (line "${line.slice(0, 80)}")`,
      );
    if (digest.length === ETAG_LENGTH)
      throw new Error(`${join(dir, FILE_LIST_PATH)}: ${path}: not a SHA-256 digest`);
    if (!ignored.has(path)) etags.set(path, `${digest}\t${bytes}`);
    else if (CONTROL_FILES.includes(path)) control.push(`${path}\t${digest}`);
  }
  const setupKey = control.sort().join("\n");
  const extensions = [...new Set([...etags.keys()].map((path) => extname(path)))];
  const types = await typesFor(extensions, setupKey);
  return {
    count: etags.size,
    lookup(path) {
      const entry = etags.get(path);
      if (entry === undefined) return undefined;
      const tab = entry.indexOf("\t");
      let etag = entry.slice(0, tab);
      const bytes = entry.slice(tab + 1);
      if (etag.length !== ETAG_LENGTH) {
        etag = hash("sha256", `${etag}\t${path}`, "hex").slice(0, ETAG_LENGTH);
        etags.set(path, `${etag}\t${bytes}`);
      }
      return { etag, type: types.get(extname(path)) || undefined, bytes: Number(bytes) };
    },
  };
}
