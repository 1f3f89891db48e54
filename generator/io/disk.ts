import { spawn } from "node:child_process";
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { PathGuard, sha256, WrittenFile, type FileSink } from "./sink.ts";

/** What a build changed against the previous output. */
export interface ChangeReport {
  readonly added: number;
  readonly changed: number;
  readonly removed: number;
  readonly unchanged: number;
}

/** The previous build's files and content hashes, from its file list (`/_files.tsv`). */
export interface PreviousBuild {
  readonly root: string;
  readonly hashes: ReadonlyMap<string, string>;
}

/** The build's own records, kept out of the deployment by `.assetsignore`. */
const FILE_LIST = "/_files.tsv";
const ASSETS_IGNORE = "/.assetsignore";

function link(existing: string, target: string): boolean {
  try {
    linkSync(existing, target);
    return true;
  } catch {
    return false; // e.g. the old file is gone, or another file system: write it instead
  }
}

/** Reads the file list of a previous build in `dir`; none (or unreadable) means a full write. */
export function previousBuild(dir: string): PreviousBuild | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, FILE_LIST), "utf8");
  } catch {
    return undefined;
  }
  const hashes = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const tab = line.indexOf("\t");
    if (tab <= 0) return undefined;
    hashes.set(line.slice(0, tab), line.slice(tab + 1));
  }
  return { root: dir, hashes };
}

/**
 * Writes a build's files into a directory. With a previous build, a file whose bytes are unchanged
 * is hard-linked from it instead of written again, so a rebuild writes only what changed; a file
 * with the same bytes as another of the same build is a hard link to it too.
 */
export class DiskSink implements FileSink {
  private readonly guard = new PathGuard();
  private readonly dirs = new Set<string>();
  private readonly hashes = new Map<string, string>();
  /** Content hash → a file of this build with those bytes. */
  private readonly written = new Map<string, string>();
  private added = 0;
  private changed = 0;
  private unchanged = 0;

  constructor(
    private readonly root: string,
    private readonly previous?: PreviousBuild,
  ) {}

  write(path: string, data: string | Uint8Array): WrittenFile {
    this.guard.check(path);
    const target = join(this.root, path);
    this.ensureDir(dirname(target));
    const sum = sha256(data);
    const digest = sum.toString("base64url");
    this.hashes.set(path, digest);
    const before = this.previous?.hashes.get(path);
    if (before === undefined) this.added++;
    else if (before !== digest) this.changed++;
    else this.unchanged++;
    // Unchanged since the previous build, or the same bytes as a file of this build (a small
    // locality's download is its first page): a hard link, not another copy.
    const same = before === digest && this.previous !== undefined ? join(this.previous.root, path) : this.written.get(digest);
    if (same === undefined || !link(same, target)) {
      try {
        writeFileSync(target, data);
      } catch (error) {
        throw new Error(`cannot write ${target}: ${describe(error)}`);
      }
    }
    if (!this.written.has(digest)) this.written.set(digest, target);
    return new WrittenFile(data, sum);
  }

  /** Writes the file list and `.assetsignore`; returns the changes against the previous build. */
  finish(): ChangeReport {
    const list = [...this.hashes]
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)) // gzip copies are written as they finish
      .map(([path, digest]) => `${path}\t${digest}\n`).join("");
    writeFileSync(join(this.root, FILE_LIST), list);
    writeFileSync(join(this.root, ASSETS_IGNORE), `${FILE_LIST}\n`);
    let removed = 0;
    for (const path of this.previous?.hashes.keys() ?? []) if (!this.hashes.has(path)) removed++;
    return { added: this.added, changed: this.changed, removed, unchanged: this.unchanged };
  }

  private ensureDir(dir: string): void {
    if (this.dirs.has(dir)) return;
    try {
      mkdirSync(dir, { recursive: true });
    } catch (error) {
      throw new Error(`cannot create ${dir}: ${describe(error)}`);
    }
    this.dirs.add(dir);
  }
}

/**
 * Builds into a fresh sibling directory and swaps it in only when `build` succeeds, so a failed or
 * killed build never leaves a half-written output: the previous one stays. A swap interrupted
 * between its two renames is repaired by the next build (the old tree is put back first).
 *
 * The replaced tree is removed before returning, or with `removeOld: "background"` by a detached
 * `rm` that outlives the process (deleting a national build takes the file system tens of
 * seconds; whatever it leaves, the next build removes first).
 */
export async function buildAtomically<T>(outDir: string, build: (tmpDir: string) => Promise<T>, removeOld: "wait" | "background" = "wait"): Promise<T> {
  const out = resolve(outDir);
  const parent = dirname(out);
  const name = basename(out);
  const tmp = join(parent, `.${name}.building-${process.pid}-${Date.now()}`);
  try {
    mkdirSync(parent, { recursive: true });
    recoverInterruptedSwap(parent, name);
    mkdirSync(tmp);
  } catch (error) {
    throw new Error(`cannot write the output to ${out}: ${describe(error)}`);
  }
  try {
    const result = await build(tmp);
    const old = join(parent, `.${name}.old-${process.pid}-${Date.now()}`);
    const hadOld = existsSync(out);
    if (hadOld) renameSync(out, old);
    renameSync(tmp, out);
    if (hadOld && removeOld === "wait") rmSync(old, { recursive: true, force: true });
    else if (hadOld) spawn("rm", ["-rf", old], { detached: true, stdio: "ignore" }).unref();
    return result;
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
}

function recoverInterruptedSwap(parent: string, name: string): void {
  const leftovers = readdirSync(parent).filter((entry) => entry.startsWith(`.${name}.`));
  const olds = leftovers.filter((entry) => entry.startsWith(`.${name}.old-`)).sort();
  const newest = olds.at(-1);
  if (!existsSync(join(parent, name)) && newest !== undefined) renameSync(join(parent, newest), join(parent, name));
  for (const entry of leftovers) {
    if (existsSync(join(parent, entry))) rmSync(join(parent, entry), { recursive: true, force: true });
  }
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const reasons: Record<string, string> = {
    EEXIST: "a file is in the way of a directory",
    ENOTDIR: "a file is in the way of a directory",
    EACCES: "permission denied",
    EPERM: "permission denied",
    EROFS: "read-only file system",
    ENOSPC: "no space left on the device",
  };
  return (code === undefined ? undefined : reasons[code]) ?? (error instanceof Error ? error.message : String(error));
}
