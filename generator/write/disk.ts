import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { PathGuard, type FileSink } from "./sink.ts";

/** The only code that writes to the disk. */
export class DiskSink implements FileSink {
  private readonly guard = new PathGuard();
  private readonly dirs = new Set<string>();

  constructor(private readonly root: string) {}

  write(path: string, data: string): void {
    this.guard.check(path);
    const target = join(this.root, path);
    const dir = dirname(target);
    if (!this.dirs.has(dir)) {
      try {
        mkdirSync(dir, { recursive: true });
      } catch (error) {
        throw new Error(`cannot create ${dir}: ${describe(error)}`);
      }
      this.dirs.add(dir);
    }
    try {
      writeFileSync(target, data);
    } catch (error) {
      throw new Error(`cannot write ${target}: ${describe(error)}`);
    }
  }
}

/**
 * Builds into a fresh sibling directory and swaps it in only when `build` succeeds, so a failed or
 * killed build never leaves a half-written output: the previous one stays. A swap interrupted
 * between its two renames is repaired by the next build (the old tree is put back first).
 */
export async function buildAtomically<T>(outDir: string, build: (tmpDir: string) => Promise<T>): Promise<T> {
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
    if (hadOld) rmSync(old, { recursive: true, force: true });
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
