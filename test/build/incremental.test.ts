import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { buildToDirectory, type BuildOptions } from "../../generator/build/build.ts";
import { STREET_FIXTURE, tempDir } from "../support/fixture.ts";
import { germanCut, type GermanCut } from "../support/german-cut.ts";
import { ROOT } from "../support/paths.ts";

/**
 * No street-search index: its files are written, kept and linked by the same sink as every other
 * file (emit-search.ts), and build.test.ts holds them deterministic; it was about a third of each
 * of the four builds' CPU. A budget of 8,000 files: the page size 50 of every locality is written
 * first (file-budget.ts), a few other sizes beside it, and every build writes and this test reads
 * fewer files than at 20,000. The street fixture's resources (the streets, whose pages the change
 * shifts) and two the change does not reach (Austrian streets, Swiss localities: 4,854 of about
 * 7,800 files kept; 2,936 added and as many removed), with every file a build writes beside them (downloads, docs, feed): whether a
 * file is written, kept or linked is the sink's decision, the same for every resource's files, and
 * the other resources' views were about a third of each build's CPU. The German sources cut to
 * Berlin and Saxony (germanCut): every build reads, joins and writes the downloads of every
 * resource, and all of Germany's were most of that.
 */
const options = (german: GermanCut): BuildOptions => ({
  root: ROOT,
  sources: german,
  maxFiles: 8_000,
  searchIndex: false,
  only: [...STREET_FIXTURE, "at.streets", "ch.localities"],
  headersTemplate: readFileSync(join(ROOT, "_headers"), "utf8"),
  builtAt: "2026-11-22T03:00:00.000Z",
});

/** Every file of a tree: path → inode and bytes. */
function tree(dir: string): Map<string, { inode: number; bytes: Buffer }> {
  const files = new Map<string, { inode: number; bytes: Buffer }>();
  const walk = (path: string): void => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else
        files.set(`/${relative(dir, full)}`, {
          inode: statSync(full).ino,
          bytes: readFileSync(full),
        });
    }
  };
  walk(dir);
  return files;
}

describe("an incremental rebuild", () => {
  it("rewrites nothing when nothing changed, and only what changed when the data did", async () => {
    const work = tempDir("incremental");
    const german = germanCut(work);
    const streets = german["de-streets"];
    const out = join(work, "dist");
    const first = await buildToDirectory(options(german), out);
    const files = first.changes.added;
    expect(first.changes).toEqual({ added: files, changed: 0, removed: 0, unchanged: 0 });
    const before = tree(out);

    const same = await buildToDirectory(options(german), out);
    expect(same.changes).toEqual({ added: 0, changed: 0, removed: 0, unchanged: files });
    const after = tree(out);
    const records = new Set(["/_files.tsv", "/.assetsignore"]); // the build's own bookkeeping, always written
    for (const [path, file] of after)
      if (!records.has(path)) expect(file.inode, path).toBe(before.get(path)?.inode); // linked, not written

    // One real street renamed, one dropped: Berlin's pages shift; what the change does not reach stays.
    const rows = readFileSync(streets, "utf8").split("\n");
    const berlin = rows.findIndex((row) => row.includes(",Berlin,11000000,"));
    rows[berlin] = rows[berlin]?.replace(/^[^,]+/, "Aalweg") ?? "";
    rows.splice(berlin + 1, 1);
    writeFileSync(streets, rows.join("\n"));
    const changed = await buildToDirectory(options(german), out);
    const { added, changed: rewritten, removed, unchanged } = changed.changes;
    expect(added + rewritten).toBeGreaterThan(0);
    expect(removed).toBeGreaterThan(0); // Berlin's page paths hold its total: 600 → 599
    expect(unchanged).toBeGreaterThan(1_000); // the files of what the change does not reach

    const full = join(work, "full");
    await buildToDirectory(options(german), full, true);
    const incremental = tree(out);
    const fresh = tree(full);
    expect([...incremental.keys()].sort()).toEqual([...fresh.keys()].sort());
    for (const [path, file] of fresh)
      expect(incremental.get(path)?.bytes.equals(file.bytes), path).toBe(true);
    const kept = [...incremental].filter(
      ([path, file]) => !records.has(path) && after.get(path)?.inode === file.inode,
    ).length;
    expect(kept).toBe(unchanged);
    expect(incremental.size).toBe(added + rewritten + unchanged + 2); // + the file list and .assetsignore
  });
});
