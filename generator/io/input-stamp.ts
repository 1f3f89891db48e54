import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { codeFiles } from "./read.ts";

/**
 * What a build was made from, by each input file's size and modification time: checking it takes
 * a few hundred `stat` calls instead of reading and hashing every source and the generator (and
 * loading the code that does). `npm start` keeps one beside the project (`.cache/`) for the
 * `dist/` it built or found current; any change of a file (a git checkout, an edit) changes its
 * time and sends `start` back to the full check, the build's fingerprint.
 */
export interface InputStamp {
  /** The fingerprint of the build these inputs made (`/_build.json`). */
  readonly fingerprint: string;
  /** Absolute path → [bytes, modification time in ms]. */
  readonly files: Readonly<Record<string, readonly [number, number]>>;
}

/** Stamps the code files (`codeFiles`) and `sources` (absolute paths of the source files read). */
export function stampInputs(fingerprint: string, sources: readonly string[]): InputStamp {
  const files: Record<string, readonly [number, number]> = {};
  for (const path of [...codeFiles(), ...sources]) {
    const stat = statSync(path);
    files[path] = [stat.size, stat.mtimeMs];
  }
  return { fingerprint, files };
}

/**
 * Whether the inputs are as stamped: every stamped file of the same size and time, and no code
 * file added. Any doubt (a missing or unreadable file) is a no.
 */
export function unchangedInputs(stamp: InputStamp): boolean {
  try {
    for (const path of codeFiles()) if (stamp.files[path] === undefined) return false;
    for (const [path, [bytes, mtime]] of Object.entries(stamp.files)) {
      const stat = statSync(path);
      if (stat.size !== bytes || stat.mtimeMs !== mtime) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** A JSON file of `.cache/` written by `writeCached`: its value under `key`; none when absent, unreadable or not there. */
export function readCached<T>(file: string, key: string): T | undefined {
  return cachedEntries<T>(file).find(([entry]) => entry === key)?.[1];
}

/**
 * Writes `value` under `key`, keeping the last `keep` - 1 values written under other keys (a
 * cache: a failure to write is no error, the next run does the work again). Written whole, then
 * renamed: processes starting at once read the old file or the new one, never a part.
 */
export function writeCached(file: string, key: string, value: unknown, keep = 1): void {
  try {
    const others = cachedEntries(file).filter(([entry]) => entry !== key);
    const entries = [[key, value], ...others].slice(0, keep);
    mkdirSync(dirname(file), { recursive: true });
    const written = `${file}.${process.pid}`;
    writeFileSync(written, JSON.stringify({ entries }));
    renameSync(written, file);
  } catch {
    // e.g. a read-only checkout
  }
}

/** The [key, value] pairs of a cache file, the last written first; none when absent or unreadable. */
function cachedEntries<T>(file: string): [string, T][] {
  try {
    const { entries } = JSON.parse(readFileSync(file, "utf8")) as { entries?: unknown };
    return Array.isArray(entries) ? (entries as [string, T][]) : [];
  } catch {
    return [];
  }
}

/** Whether `file` (of `.cache/`) exists. */
export function isCached(file: string): boolean {
  return existsSync(file);
}

/**
 * A hash of `text` and the bytes of `files` (a missing file counts as such): a cache key. The files
 * count by their place in the list, not their paths: a server reads its build through
 * `/proc/PID/fd/N`, which differs in every process, and the key must not.
 */
export function hashFiles(files: readonly string[], text: string): string {
  const hash = createHash("sha256").update(text);
  for (const [index, file] of files.entries()) {
    hash.update(`\u0000${index}\u0000`);
    try {
      hash.update(readFileSync(file));
    } catch {
      hash.update("\u0000missing");
    }
  }
  return hash.digest("hex");
}
