import { DOCS_FILES } from "../routes/files.ts";

/** Where a build's files go: the disk, memory (tests) or nowhere (the plan). */
export interface FileSink {
  /** `path` is absolute within the output tree, e.g. `/_p/de.streets/berlin/…`. */
  write(path: string, data: string | Uint8Array): void;
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

  write(path: string, data: string | Uint8Array): void {
    this.guard.check(path);
    const entry = this.files.get(this.group(path)) ?? { files: 0, bytes: 0 };
    entry.files++;
    entry.bytes += Buffer.byteLength(data);
    this.files.set(this.group(path), entry);
  }
}

export class MemorySink implements FileSink {
  readonly files = new Map<string, string | Uint8Array>();
  private readonly guard = new PathGuard();

  write(path: string, data: string | Uint8Array): void {
    this.guard.check(path);
    this.files.set(path, data);
  }

  /** A written file as text (binary files decoded as UTF-8). */
  text(path: string): string | undefined {
    const data = this.files.get(path);
    return data === undefined || typeof data === "string" ? data : Buffer.from(data).toString("utf8");
  }
}

/** Fans one write out to several sinks (e.g. the disk and the counter). */
export function teeSink(...sinks: FileSink[]): FileSink {
  return { write: (path, data) => sinks.forEach((sink) => sink.write(path, data)) };
}

/** `/_p/de.streets/…` → `de.streets`; the docs files → `docs`; other files by their first segment. */
export function groupOf(path: string): string {
  if ((DOCS_FILES as readonly string[]).includes(path)) return "docs";
  const [, top = "", second = ""] = path.split("/");
  return top === "_p" || top === "_i" ? second : top === "_l" ? second.replace(/\.(json|csv)$/, "") : top;
}
