import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { ASSETS_IGNORE_PATH, FILE_LIST_PATH } from "../contract/layout.ts";
import { hardLink } from "./hard-link.ts";
import { PathGuard, sha256, WrittenFile, type FileSink } from "./sink.ts";
import { REASONS, WriteThread } from "./write-thread.ts";

/** What a build changed against the previous output. */
export interface ChangeReport {
  readonly added: number;
  readonly changed: number;
  readonly removed: number;
  readonly unchanged: number;
}

/** A file of the previous build: its SHA-256 (base64url) and size. */
export interface PreviousFile {
  readonly digest: string;
  readonly bytes: number;
}

/** The previous build in `root`: its files, from its file list (`/_files.tsv`), and its state files. */
export interface PreviousBuild {
  readonly root: string;
  readonly files: ReadonlyMap<string, PreviousFile>;
  /** A file of the previous build's tree (e.g. a chunk of packed records), if it lists it. */
  read(path: string): Buffer | undefined;
  /** One of the build's own state files (see `DiskSink.finish`), if the previous build wrote it. */
  state(name: string): string | undefined;
}

/** The build's own records, kept out of the deployment by `.assetsignore`. */
const FILE_LIST = FILE_LIST_PATH;
const ASSETS_IGNORE = ASSETS_IGNORE_PATH;

/** Reads the file list of a previous build in `dir`; none (or unreadable, or of an older format) means a full write. */
export function previousBuild(dir: string): PreviousBuild | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, FILE_LIST), "utf8");
  } catch {
    return undefined;
  }
  const files = new Map<string, PreviousFile>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const [path = "", digest = "", bytes = ""] = line.split("\t");
    if (path === "" || digest === "" || !/^[0-9]+$/.test(bytes)) return undefined;
    files.set(path, { digest, bytes: Number(bytes) });
  }
  const readListed = (path: string) => {
    try {
      return readFileSync(join(dir, path));
    } catch {
      return undefined;
    }
  };
  return {
    root: dir,
    files,
    read: (path) => (files.has(path) ? readListed(path) : undefined),
    state: (name) => readListed(`/${name}`)?.toString("utf8"),
  };
}

/**
 * Writes a build's files into a directory. With a previous build, a file whose bytes are unchanged
 * is hard-linked from it instead of written again, so a rebuild writes only what changed; a file
 * with the same bytes as another of the same build is a hard link to it too. The file system calls
 * run on a thread of their own (write-thread.ts), in order: `finish` waits for them and reports the
 * first that failed; `close` ends the thread (always call it).
 */
export class DiskSink implements FileSink {
  private readonly guard = new PathGuard();
  private readonly dirs = new Set<string>();
  private readonly files = new Map<string, PreviousFile>();
  /** Content hash → a file of this build with those bytes. */
  private readonly written = new Map<string, string>();
  private added = 0;
  private changed = 0;
  private unchanged = 0;
  private readonly thread = new WriteThread();
  /** The bytes are copied into the write thread's ring before `write` returns. */
  readonly copies = true;

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
    const bytes = typeof data === "string" ? Buffer.byteLength(data) : data.byteLength;
    this.files.set(path, { digest, bytes });
    const before = this.previous?.files.get(path)?.digest;
    if (before === undefined) this.added++;
    else if (before !== digest) this.changed++;
    else this.unchanged++;
    // Unchanged since the previous build, or the same bytes as a file of this build (a small
    // locality's download is its first page): a hard link, not another copy.
    const same =
      before === digest && this.previous !== undefined
        ? join(this.previous.root, path)
        : this.written.get(digest);
    this.thread.file(target, data, same);
    if (!this.written.has(digest)) this.written.set(digest, target);
    return WrittenFile.of(data, sum);
  }

  keep(path: string): WrittenFile | undefined {
    const before = this.previous?.files.get(path);
    if (this.previous === undefined || before === undefined) return undefined;
    const target = join(this.root, path);
    // Decided here and now (the caller writes the file when this fails), so not on the thread.
    mkdirSync(dirname(target), { recursive: true });
    if (!hardLink(join(this.previous.root, path), target)) return undefined;
    this.guard.check(path);
    this.files.set(path, before);
    this.unchanged++;
    return WrittenFile.known(before.bytes, Buffer.from(before.digest, "base64url"));
  }

  /**
   * Writes the file list, the build's state files (`state`: name → text, for the next build) and
   * `.assetsignore` (none of them is deployed); returns the changes against the previous build.
   */
  async finish(state: Readonly<Record<string, string>> = {}): Promise<ChangeReport> {
    await this.thread.drain();
    const list = [...this.files]
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)) // gzip copies are written as they finish
      .map(([path, file]) => `${path}\t${file.digest}\t${file.bytes}\n`)
      .join("");
    writeFileSync(join(this.root, FILE_LIST), list);
    for (const [name, text] of Object.entries(state)) writeFileSync(join(this.root, name), text);
    writeFileSync(
      join(this.root, ASSETS_IGNORE),
      [FILE_LIST, ...Object.keys(state).map((name) => `/${name}`)]
        .map((path) => `${path}\n`)
        .join(""),
    );
    let removed = 0;
    for (const path of this.previous?.files.keys() ?? []) if (!this.files.has(path)) removed++;
    return { added: this.added, changed: this.changed, removed, unchanged: this.unchanged };
  }

  read(path: string): Uint8Array | undefined {
    try {
      return readFileSync(join(this.root, path));
    } catch {
      return undefined;
    }
  }

  /** Resolves when every file so far is on the disk; rejects with the first write that failed. */
  settle(): Promise<void> {
    return this.thread.drain();
  }

  /** Ends the write thread; after a failed build, whatever it had not written is dropped. */
  close(): Promise<void> {
    return this.thread.close();
  }

  private ensureDir(dir: string): void {
    if (this.dirs.has(dir)) return;
    this.thread.mkdir(dir);
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
export async function buildAtomically<T>(
  outDir: string,
  build: (tmpDir: string) => Promise<T>,
  removeOld: "wait" | "background" = "wait",
): Promise<T> {
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
  if (!existsSync(join(parent, name)) && newest !== undefined)
    renameSync(join(parent, newest), join(parent, name));
  for (const entry of leftovers) {
    if (existsSync(join(parent, entry)))
      rmSync(join(parent, entry), { recursive: true, force: true });
  }
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return (
    (code === undefined ? undefined : REASONS[code]) ??
    (error instanceof Error ? error.message : String(error))
  );
}
