import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
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

/** A JSON file of `.cache/` written by `writeCached` under `key`; none when absent, unreadable or of another key. */
export function readCached<T>(file: string, key: string): T | undefined {
  try {
    const cached = JSON.parse(readFileSync(file, "utf8")) as { key?: unknown; value?: T };
    return cached.key === key ? cached.value : undefined;
  } catch {
    return undefined;
  }
}

/** Writes `value` under `key` (a cache: a failure to write is no error, the next run does the work again). */
export function writeCached(file: string, key: string, value: unknown): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ key, value }));
  } catch {
    // e.g. a read-only checkout
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
