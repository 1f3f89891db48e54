import { hash } from "node:crypto";
import { DOCS_FILES } from "../contract/address.ts";

/** Where a build's files go: the disk, memory (tests) or nowhere (the plan). */
export interface FileSink {
  /** `path` is absolute within the output tree, e.g. `/_p/de.streets/berlin/…`. */
  write(path: string, data: string | Uint8Array): WrittenFile;
  /**
   * Keeps the previous build's file at `path`, which the caller knows has the bytes it would
   * write (the same view's page, unchanged): nothing is rendered, read or written. Undefined when
   * the sink has no such file; the caller writes it then.
   */
  keep?(path: string): WrittenFile | undefined;
  /**
   * A file written before, read back (the build cuts page files from the packed records it wrote);
   * undefined when the sink keeps no bytes (a count). Call `settle` first.
   */
  read?(path: string): Uint8Array | undefined;
  /** Resolves when every file written so far can be read back (a disk sink's writes are on a thread). */
  settle?(): Promise<void>;
  /**
   * True when `write` keeps no reference to the bytes it is given (it copies or only counts them),
   * so the caller may reuse its buffer once `write` returns; a memory sink keeps them.
   */
  readonly copies?: boolean;
}

/** A file as written: its size, and its SHA-256, computed at most once per file. */
export class WrittenFile {
  private constructor(
    readonly bytes: number,
    private readonly data: string | Uint8Array | undefined,
    private digest: Buffer | undefined,
  ) {}

  /** A file of these bytes; hashed when its hash is asked for (or with `digest`, already hashed). */
  static of(data: string | Uint8Array, digest?: Buffer): WrittenFile {
    return new WrittenFile(
      typeof data === "string" ? Buffer.byteLength(data) : data.byteLength,
      data,
      digest,
    );
  }

  /** A file known by its size and hash, not its bytes (kept from a previous build). */
  static known(bytes: number, digest: Buffer): WrittenFile {
    return new WrittenFile(bytes, undefined, digest);
  }

  /** The SHA-256 of the bytes (hashed here, the one place written bytes are hashed). */
  sha256(): Buffer {
    this.digest ??= sha256(this.data ?? new Uint8Array());
    return this.digest;
  }

  sha256Hex(): string {
    return this.sha256().toString("hex");
  }
}

export function sha256(data: string | Uint8Array): Buffer {
  return hash("sha256", data, "buffer");
}

/** Rejects paths that could leave the output tree or name the same file twice. */
export class PathGuard {
  private readonly seen = new Set<string>();

  check(path: string): void {
    if (
      !/^\/[A-Za-z0-9._/-]+$/.test(path) ||
      path.split("/").some((part) => part === "." || part === "..") ||
      path.includes("//")
    ) {
      throw new Error(`refusing to write outside the output tree: '${path}'`);
    }
    if (this.seen.has(path)) throw new Error(`two outputs map to the same file: '${path}'`);
    this.seen.add(path);
  }
}

/**
 * Counts files and bytes per top-level group (for `plan` and the build summary), passing every
 * file on to `inner` when there is one.
 */
export class CountingSink implements FileSink {
  readonly files = new Map<string, { files: number; bytes: number }>();
  private readonly guard = new PathGuard();

  constructor(private readonly inner?: FileSink) {}

  get copies(): boolean {
    return this.inner === undefined || this.inner.copies === true;
  }

  write(path: string, data: string | Uint8Array): WrittenFile {
    this.guard.check(path);
    return this.count(path, this.inner?.write(path, data) ?? WrittenFile.of(data));
  }

  read(path: string): Uint8Array | undefined {
    return this.inner?.read?.(path);
  }

  async settle(): Promise<void> {
    await this.inner?.settle?.();
  }

  keep(path: string): WrittenFile | undefined {
    const kept = this.inner?.keep?.(path);
    if (kept !== undefined) {
      this.guard.check(path);
      this.count(path, kept);
    }
    return kept;
  }

  private count(path: string, file: WrittenFile): WrittenFile {
    const group = groupOf(path);
    const entry = this.files.get(group) ?? { files: 0, bytes: 0 };
    entry.files++;
    entry.bytes += file.bytes;
    this.files.set(group, entry);
    return file;
  }
}

export class MemorySink implements FileSink {
  readonly files = new Map<string, string | Uint8Array>();
  private readonly guard = new PathGuard();

  write(path: string, data: string | Uint8Array): WrittenFile {
    this.guard.check(path);
    this.files.set(path, data);
    return WrittenFile.of(data);
  }

  read(path: string): Uint8Array | undefined {
    const data = this.files.get(path);
    return typeof data === "string" ? Buffer.from(data) : data;
  }

  /** A written file as text (binary files decoded as UTF-8). */
  text(path: string): string | undefined {
    const data = this.files.get(path);
    return data === undefined || typeof data === "string"
      ? data
      : Buffer.from(data).toString("utf8");
  }
}

/** `/_p/de.streets/…` → `de.streets`; the docs files → `docs`; other files by their first segment. */
export function groupOf(path: string): string {
  if ((DOCS_FILES as readonly string[]).includes(path)) return "docs";
  const [, top = "", second = ""] = path.split("/");
  return top === "_p" || top === "_i" || top === "_c"
    ? second
    : top === "_l"
      ? second.replace(/\.(json|csv)$/, "")
      : top;
}
