import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readlinkSync,
  realpathSync,
  statSync,
} from "node:fs";
import { join } from "node:path";

/**
 * A build directory as the server loaded it. Its files are opened through the directory it was
 * then, not through its path: a rebuild that swaps another directory in under the same path
 * (`npm run build` renames the new build into place) cannot make this one read the new build's
 * bytes, which would go out under the old build's ETags. On Linux the directory is held open and
 * its files opened through `/proc/self/fd/N/…`; elsewhere through its real path at load time.
 *
 * Every file is opened without following a symbolic link in its last component (O_NOFOLLOW), must
 * then lie inside the directory (its own path, as the kernel reports it, under the directory's)
 * and be a regular file: a file of the build replaced by a link to `/etc/passwd`, or a directory
 * of it by a link elsewhere, is not served.
 */

/** Where a directory is, as the kernel sees it now: its device and inode. */
export interface DirectoryIdentity {
  readonly dev: number;
  readonly ino: number;
}

/** Why a listed file was not opened: gone, or refused (a link, not a regular file, outside the directory). */
export type Unopened = "gone" | "refused";

const PROC_FDS = "/proc/self/fd";
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export class BuildDirectory {
  private readonly fd: number | undefined;
  /** The directory's real path when it was loaded (or now, on Linux: refreshed when it moved). */
  private real: string;
  readonly identity: DirectoryIdentity;

  /**
   * A path that reads through the directory as loaded (for this process and its children), e.g.
   * `/proc/1234/fd/21`; without /proc, its real path at load time.
   */
  readonly root: string;

  private constructor(
    readonly path: string,
    fd: number | undefined,
  ) {
    this.fd = fd;
    this.real = fd === undefined ? realpathSync.native(path) : readlinkSync(`${PROC_FDS}/${fd}`);
    this.root = fd === undefined ? this.real : `/proc/${process.pid}/fd/${fd}`;
    const stat = fd === undefined ? statSync(this.real) : fstatSync(fd);
    this.identity = { dev: stat.dev, ino: stat.ino };
  }

  /** The directory at `path` as it is now. */
  static open(path: string): BuildDirectory {
    if (!existsSync(PROC_FDS)) return new BuildDirectory(path, undefined);
    return new BuildDirectory(path, openSync(path, constants.O_RDONLY | constants.O_DIRECTORY));
  }

  /** Whether `path` still names this directory (false while a swap has nothing there, too). */
  isAt(): boolean {
    try {
      const now = statSync(this.path);
      return now.dev === this.identity.dev && now.ino === this.identity.ino;
    } catch {
      return false;
    }
  }

  /**
   * A descriptor of the build's file `file` (a path from `/`), or why there is none. The caller
   * closes it; `size` is its size now.
   */
  openFile(file: string): { fd: number; size: number } | { unopened: Unopened } {
    let fd: number;
    try {
      fd = openSync(join(this.root, file), OPEN_FLAGS);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return { unopened: code === "ELOOP" || code === "EMLINK" ? "refused" : "gone" };
    }
    const stat = fstatSync(fd);
    if (stat.isFile() && this.inside(fd, file)) return { fd, size: stat.size };
    closeSync(fd);
    return { unopened: "refused" };
  }

  /** Whether the open file lies inside the directory (no link in its path led out of it). */
  private inside(fd: number, file: string): boolean {
    if (this.fd === undefined)
      // No /proc to ask about the descriptor: the path, just after the open.
      return realpathSync.native(join(this.real, file)).startsWith(`${this.real}/`);
    const where = readlinkSync(`${PROC_FDS}/${fd}`);
    if (where.startsWith(`${this.real}/`)) return true;
    // The directory may have moved since (a swap renamed it): ask where it is now.
    this.real = readlinkSync(`${PROC_FDS}/${this.fd}`);
    return where.startsWith(`${this.real}/`);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
  }
}
