import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadBuildSources, type BuildOptions } from "../../generator/build/build.ts";
import { SourceError } from "../../generator/sources/errors.ts";
import { readRows } from "../../generator/sources/read.ts";
import { tempDir } from "../support/fixture.ts";
import { dataFile, ROOT } from "../support/paths.ts";

/**
 * Sources whose text is wrong in ways no size limit catches, crafted from the embedded files and
 * read as a build reads them (every source loaded, then every reader): a field far over its
 * length limit, text that was converted to UTF-8 twice, an official key given twice. Each fails
 * with its file and line (and column), before the model is built; the old readers built green,
 * or ran out of memory.
 */
const work = tempDir("hostile-source-text");
const MiB = 1024 * 1024;

/** The reading of a build with these sources replaced: the error it fails with, if any. */
async function readWith(sources: BuildOptions["sources"]): Promise<Error | undefined> {
  const loaded = await loadBuildSources({
    root: ROOT,
    sources,
    fetch: { cacheDir: join(tempDir("cache"), "c"), cacheDuration: "0s" },
  });
  return readRows(loaded).then(
    () => undefined,
    (error: unknown) => error as Error,
  );
}

/** An embedded file with `change` applied to its lines, written as a source of its own. */
function crafted(
  embedded: string,
  name: string,
  change: (lines: string[]) => string[],
  encoding: BufferEncoding = "utf8",
): string {
  const text = readFileSync(dataFile(embedded)).toString(encoding);
  const path = join(work, name);
  writeFileSync(path, Buffer.from(change(text.split("\n")).join("\n"), encoding));
  return path;
}

const before = (lines: string[], at: number, row: string) => [
  ...lines.slice(0, at),
  row,
  ...lines.slice(at),
];
/** Inserted as line 3 (after the header and one row): the line an error must name. */
const asLine3 = (row: string) => (lines: string[]) => before(lines, 2, row);

describe("a field over its length limit fails with file, line and column, in bounded memory", () => {
  it("the Berlin street list with one name of 30 MiB (was: heap out of memory after 53 s)", async () => {
    const path = crafted("de/streets-berlin.csv", "streets-30MiB-name.csv", (lines) =>
      before(lines, 5, `${"x".repeat(30 * MiB)},10115,Berlin,11000000,Mitte,Mitte`),
    );
    const start = process.memoryUsage().rss;
    const failure = await readWith({ "de-streets": path });
    const grown = (process.memoryUsage().rss - start) / MiB;
    expect(failure?.message).toMatch(
      /streets-30MiB-name\.csv:6: column 1 \(Name\) holds 31,457,280 characters, more than the limit of 200 for a field$/,
    );
    // The file's bytes and its text are 60 MiB already: no copy of the field on top of them.
    expect(grown, "MiB the reading grew by").toBeLessThan(200);
  });

  it.each([
    [
      "de-streets: a quoted name of 201 characters",
      "de-streets",
      () =>
        crafted(
          "de/streets-berlin.csv",
          "s.csv",
          asLine3(`"${"ä".repeat(201)}",10115,Berlin,11000000,,`),
        ),
      /:3: column 1 \(Name\) holds 201 characters, more than the limit of 200 for a field$/,
    ],
    [
      "de-postcodes: a city (a list of places) of 2,001 characters",
      "de-postcodes",
      () =>
        crafted(
          "de/post_code.csv",
          "p.csv",
          asLine3(`10115,${"Mitte ".repeat(334).slice(0, 2001)},DE,Berlin,Berlin,,,,,,`),
        ),
      /:3: column 2 \(city\) holds 2,001 characters, more than the limit of 2,000 for a field$/,
    ],
    [
      "li-communes: a name of 201 characters",
      "li-communes",
      () => crafted("li/communes.csv", "l.csv", asLine3(`7012,${"V".repeat(201)},Oberland`)),
      /:3: column 2 \(Name\) holds 201 characters, more than the limit of 200 for a field$/,
    ],
    [
      "ch-cantons (Latin-1, tab-separated): a name of 201 characters",
      "ch-cantons",
      () =>
        crafted(
          "ch/GDEHist_KT.txt",
          "kt.txt",
          asLine3(`27\tXX\t${"é".repeat(201)}\t12.09.1848`),
          "latin1",
        ),
      /:3: column 3 holds 201 characters, more than the limit of 200 for a field$/,
    ],
    [
      "at-municipalities: a name of 201 characters",
      "at-municipalities",
      () =>
        crafted("at/gemliste_knz.csv", "g.csv", asLine3(`10199;${"G".repeat(201)};10199;;7000;`)),
      /:3: column 2 \(Gemeindename\) holds 201 characters, more than the limit of 200 for a field$/,
    ],
    [
      "de-gv100ad (fixed width): a record of 1,001 characters",
      "de-gv100ad",
      () =>
        crafted("de/GV100AD_30112025.txt", "gv.txt", (lines) =>
          before(lines, 2, `10${" ".repeat(999)}`),
        ),
      /:3: the record holds 1,001 characters, more than the limit of 1,000 for a record$/,
    ],
  ])("%s", async (_, source, path, message) => {
    const failure = await readWith({ [source]: path() });
    expect(failure).toBeInstanceOf(SourceError);
    expect(failure?.message).toMatch(message);
  });

  it("takes a name of exactly 200 characters (code points: 200 astral ones are 400 UTF-16 units)", async () => {
    const path = crafted("de/streets-berlin.csv", "streets-200.csv", (lines) => [
      ...lines.slice(0, 2),
      `${"😀".repeat(200)},10115,Berlin,11000000,,`,
      `"${"x".repeat(200)}",10115,Berlin,11000000,,`,
      ...lines.slice(2),
    ]);
    expect(await readWith({ "de-streets": path })).toBeUndefined();
  });
});

describe("text that was converted to UTF-8 twice is refused with file, line and column", () => {
  /** `iconv -f latin1 -t utf-8` of an embedded file: right for a Latin-1 file read as UTF-8, twice for a UTF-8 one. */
  const converted = (embedded: string, name: string) => {
    const path = join(work, name);
    writeFileSync(path, Buffer.from(readFileSync(dataFile(embedded)).toString("latin1"), "utf8"));
    return path;
  };
  it.each([
    // The BFS files are Latin-1: converted to UTF-8 and still read as Latin-1, Zürich is ZÃ¼rich.
    ["ch-cantons", "ch/GDEHist_KT.txt", "latin1"],
    ["ch-communes", "ch/GDEHist_GDE.txt", "latin1"],
    // Open Postal Codes is UTF-8 already: converted again, München is MÃ¼nchen.
    ["de-postcodes", "de/post_code.csv", "utf8"],
  ])(
    "%s, converted with iconv -f latin1 -t utf-8 (was: built green, ZÃ¼rich and 635 Swiss communes with Ã)",
    async (source, embedded, encoding) => {
      const failure = await readWith({ [source]: converted(embedded, `${source}-converted`) });
      expect(failure).toBeInstanceOf(SourceError);
      const error = failure as SourceError;
      const original = readFileSync(dataFile(embedded))
        .toString(encoding as BufferEncoding)
        .split("\n");
      // The line named is the first with a character outside ASCII, where the first such pair is.
      expect(error.line).toBe(original.findIndex((line) => /[^\u0000-\u007f]/.test(line)) + 1);
      expect(error.message).toMatch(/: column \d+: '(Ã|Â|Ä|Å|â).+' .*looks double-encoded/);
    },
  );

  it("the message says what the pair stands for", async () => {
    const path = crafted("li/communes.csv", "li-twice.csv", asLine3("7012,ZÃ¼rich,Oberland"));
    expect((await readWith({ "li-communes": path }))?.message).toMatch(
      /li-twice\.csv:3: column 7: 'Ã¼' for 'ü' looks double-encoded \(UTF-8 decoded as Latin-1 or windows-1252 before it was encoded again\); the file must be UTF-8, converted once$/,
    );
  });
});

describe("an official key given twice is an error naming both lines", () => {
  const line = (embedded: string, at: number, encoding: BufferEncoding = "utf8") =>
    readFileSync(dataFile(embedded)).toString(encoding).split("\n")[at - 1] ?? "";
  it.each([
    [
      "li-communes: an extra commune 7001 (was: /li/Communes listed two communes 7001)",
      "li-communes",
      () =>
        crafted("li/communes.csv", "li-dup.csv", (lines) => [
          ...lines.slice(0, -1),
          "7001,Evil Vaduz,Oberland",
          "",
        ]),
      /:13: commune number \(BFS\) 7001 is given twice, on line 12 and on line 13$/,
    ],
    [
      "ch-cantons: canton 1 twice",
      "ch-cantons",
      () =>
        crafted("ch/GDEHist_KT.txt", "kt-dup.txt", asLine3("1\tXX\tNeuland\t12.09.1848"), "latin1"),
      /:3: canton number 1 is given twice, on line 1 and on line 3$/,
    ],
    [
      "ch-districts: a district in force twice",
      "ch-districts",
      () =>
        crafted(
          "ch/GDEHist_BEZ.txt",
          "bez-dup.txt",
          asLine3(line("ch/GDEHist_BEZ.txt", 2, "latin1").replace(/^10002/, "99999")),
          "latin1",
        ),
      /:3: number of a district in force \(BZNR\) 2106 is given twice, on line 2 and on line 3$/,
    ],
    [
      "ch-communes: a commune in force twice",
      "ch-communes",
      () =>
        crafted(
          "ch/GDEHist_GDE.txt",
          "gde-dup.txt",
          (lines) =>
            before(
              lines,
              lines.length - 1,
              line("ch/GDEHist_GDE.txt", 78, "latin1").replace(/^10078/, "99999"),
            ),
          "latin1",
        ),
      /: number of a commune in force \(GDEBFSNR\) 6158 is given twice, on line 78 and on line \d+$/,
    ],
    [
      "ch-communes and li-communes: a Swiss commune numbered 7001",
      "ch-communes",
      () =>
        crafted(
          "ch/GDEHist_GDE.txt",
          "gde-7001.txt",
          (lines) =>
            before(
              lines,
              lines.length - 1,
              line("ch/GDEHist_GDE.txt", 78, "latin1")
                .replace(/^10078/, "99999")
                .replace("\t6158\t", "\t7001\t"),
            ),
          "latin1",
        ),
      /li\/communes\.csv:12: commune number \(BFS\) 7001 is given here and in .*gde-7001\.txt on line \d+$/,
    ],
    [
      "de-gv100ad: a municipality twice",
      "de-gv100ad",
      () =>
        crafted(
          "de/GV100AD_30112025.txt",
          "gv-dup.txt",
          asLine3(line("de/GV100AD_30112025.txt", 4)),
        ),
      /:5: municipality key 01001000 is given twice, on line 3 and on line 5$/,
    ],
    [
      "at-municipalities: a Gemeindecode twice",
      "at-municipalities",
      () => crafted("at/gemliste_knz.csv", "gem-dup.csv", asLine3(line("at/gemliste_knz.csv", 2))),
      /:3: Gemeindecode 10101 is given twice, on line 2 and on line 3$/,
    ],
    [
      "at-districts: a district twice",
      "at-districts",
      () =>
        crafted("at/districts-2015.txt", "bez-dup.txt", (lines) => [
          ...lines,
          "9   Wien",
          "901 .. Wien  1.,Innere Stadt",
        ]),
      /: federal province 9 is given twice, on line \d+ and on line \d+$/,
    ],
  ])("%s", async (_, source, path, message) => {
    const failure = await readWith({ [source]: path() });
    expect(failure).toBeInstanceOf(SourceError);
    expect(failure?.message).toMatch(message);
  });
});
