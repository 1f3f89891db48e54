import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { isDownloadPath } from "../contract/downloads.ts";
import { BUILD_STAMP_PATH, HEADERS_PATH, ROUTE_TABLE_PATH } from "../contract/layout.ts";

/**
 * Reading from the disk: source files, the project's own files the build uses, and what the
 * project's output depends on. With `disk.ts` the only code that touches the disk.
 */

/** The project root: sources and `_headers` are resolved against it. */
export const PROJECT_ROOT = resolve(import.meta.dirname, "../..");

/** A source file's bytes; a file larger than `maxBytes` fails by its size, before it is read. */
export async function readSourceFile(path: string, maxBytes: number): Promise<Uint8Array> {
  await checkSourceFile(path, maxBytes);
  // A plain view of the bytes read, not a copy (the national street list is 55 MB).
  return readOrExplain(() => readFile(path), path).then(
    (bytes) => new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
  );
}

/**
 * Fails as `readSourceFile` would on a missing, unreadable or too large file, without reading it:
 * a build checks every local source this way first, so a wrong path is its only line of output.
 */
export async function checkSourceFile(path: string, maxBytes: number): Promise<void> {
  const size = (await readOrExplain(() => stat(path), path)).size;
  if (size > maxBytes)
    throw new Error(
      `${path} is ${size} bytes, more than the limit of ${maxBytes} bytes for one source (what the readers can hold as one string)`,
    );
}

async function readOrExplain<T>(read: () => Promise<T>, path: string): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === undefined
        ? String(error)
        : READ_ERRORS[code] === undefined
          ? code
          : `${READ_ERRORS[code]} (${code})`;
    throw new Error(`cannot read ${path}: ${why}`);
  }
}

const READ_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: "no such file",
  EISDIR: "a directory, not a file",
  EACCES: "permission denied",
};

/** A text file of the project, e.g. `_headers` or the docs page's script. */
export function readProjectText(path: string): string {
  return readFileSync(resolve(PROJECT_ROOT, path), "utf8");
}

/** The package version: the version of the API description. */
export function packageVersion(): string {
  return (JSON.parse(readProjectText("package.json")) as { version: string }).version;
}

/** A hash of everything of the project a build's output depends on besides its sources: the generator, `_headers`, `package.json`. */
export function codeFingerprint(): string {
  const hash = createHash("sha256");
  for (const file of codeFiles()) hash.update(file).update(readFileSync(file));
  return hash.digest("hex").slice(0, 16);
}

/** The files `codeFingerprint` hashes: the generator, `_headers`, `package.json` (absolute paths, sorted). */
export function codeFiles(): string[] {
  return [
    join(PROJECT_ROOT, "_headers"),
    join(PROJECT_ROOT, "package.json"),
    ...listFiles(join(PROJECT_ROOT, "generator")),
  ].sort();
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

/** Whether `dir` holds a build (its `_headers` is the last thing a build writes before the swap). */
export function isBuildDirectory(dir: string): boolean {
  return existsSync(join(dir, HEADERS_PATH));
}

/** The downloads manifest of the build in `dir` (`downloads/index.json`), if there is one. */
export function readBuildManifest(dir: string): { path: string; json: unknown } | undefined {
  const path = join(dir, "downloads", "index.json");
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  try {
    return { path, json: JSON.parse(text) as unknown };
  } catch {
    throw new Error(`${path}: not JSON; remove it or name another --baseline`);
  }
}

/**
 * A public download file of the build in `dir` (`/downloads/…`, what a deployment serves there);
 * undefined when the build has no such file. Other paths are refused: a manifest or feed names
 * the paths, and no such name may reach outside the build.
 */
export async function readDownloadFile(dir: string, path: string): Promise<Uint8Array | undefined> {
  if (!isDownloadPath(path)) throw new Error(`${path} is not a download path`);
  try {
    return await readFile(join(dir, path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(
      `cannot read ${join(dir, path)}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** The fingerprint a build in `dir` was made from (`/_build.json`), if there is one. */
export function builtFingerprint(dir: string): string | undefined {
  try {
    return (
      JSON.parse(readFileSync(join(dir, BUILD_STAMP_PATH), "utf8")) as { fingerprint?: string }
    ).fingerprint;
  } catch {
    return undefined;
  }
}

/**
 * The format version the build in `dir` states in its route table (undefined inside: a build from
 * before versioning); no `found` when it has no readable route table, which is then not checked
 * (the Worker answers such a build with 500s of its own).
 */
export function statedFormatVersion(dir: string): { readonly found: unknown } | undefined {
  try {
    return {
      found: (
        JSON.parse(readFileSync(join(dir, ROUTE_TABLE_PATH), "utf8")) as { formatVersion?: unknown }
      ).formatVersion,
    };
  } catch {
    return undefined;
  }
}
