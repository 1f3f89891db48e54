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
      mkdirSync(dir, { recursive: true });
      this.dirs.add(dir);
    }
    writeFileSync(target, data);
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
  mkdirSync(parent, { recursive: true });
  recoverInterruptedSwap(parent, name);
  const tmp = join(parent, `.${name}.building-${process.pid}-${Date.now()}`);
  mkdirSync(tmp);
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
