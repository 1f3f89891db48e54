import { hash } from "node:crypto";
import { DOCS_FILES } from "../contract/address.ts";

/** Where a build's files go: the disk, memory (tests) or nowhere (the plan). */
export interface FileSink {
  /** `path` is absolute within the output tree, e.g. `/_p/de.streets/berlin/…`. */
  write(path: string, data: string | Uint8Array): WrittenFile;
}

/** A file as written: its size, and its SHA-256, computed at most once per file. */
export class WrittenFile {
  private digest: Buffer | undefined;

  constructor(
    private readonly data: string | Uint8Array,
    digest?: Buffer,
  ) {
    this.digest = digest;
  }

  get bytes(): number {
    return typeof this.data === "string" ? Buffer.byteLength(this.data) : this.data.byteLength;
  }

  /** The SHA-256 of the bytes (hashed here, the one place written bytes are hashed). */
  sha256(): Buffer {
    this.digest ??= sha256(this.data);
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
    if (!/^\/[A-Za-z0-9._/-]+$/.test(path) || path.split("/").some((part) => part === "." || part === "..") || path.includes("//")) {
      throw new Error(`refusing to write outside the output tree: '${path}'`);
    }
    if (this.seen.has(path)) throw new Error(`two outputs map to the same file: '${path}'`);
    this.seen.add(path);
  }
}

/** Counts files and bytes per top-level group (for `plan` and the build summary). */
export class CountingSink implements FileSink {
  readonly files = new Map<string, { files: number; bytes: number }>();
  private readonly guard = new PathGuard();

  constructor(private readonly group: (path: string) => string = groupOf) {}

  write(path: string, data: string | Uint8Array): WrittenFile {
    this.guard.check(path);
    const written = new WrittenFile(data);
    const entry = this.files.get(this.group(path)) ?? { files: 0, bytes: 0 };
    entry.files++;
    entry.bytes += written.bytes;
    this.files.set(this.group(path), entry);
    return written;
  }
}

export class MemorySink implements FileSink {
  readonly files = new Map<string, string | Uint8Array>();
  private readonly guard = new PathGuard();

  write(path: string, data: string | Uint8Array): WrittenFile {
    this.guard.check(path);
    this.files.set(path, data);
    return new WrittenFile(data);
  }

  /** A written file as text (binary files decoded as UTF-8). */
  text(path: string): string | undefined {
    const data = this.files.get(path);
    return data === undefined || typeof data === "string" ? data : Buffer.from(data).toString("utf8");
  }
}

/** Fans one write out to several sinks (e.g. the disk and the counter); the first one's result is the file. */
export function teeSink(first: FileSink, ...others: FileSink[]): FileSink {
  return {
    write: (path, data) => {
      const written = first.write(path, data);
      for (const sink of others) sink.write(path, data);
      return written;
    },
  };
}

/** `/_p/de.streets/…` → `de.streets`; the docs files → `docs`; other files by their first segment. */
export function groupOf(path: string): string {
  if ((DOCS_FILES as readonly string[]).includes(path)) return "docs";
  const [, top = "", second = ""] = path.split("/");
  return top === "_p" || top === "_i" || top === "_c" ? second : top === "_l" ? second.replace(/\.(json|csv)$/, "") : top;
}
