import fc from "fast-check";
import { parseString } from "fast-csv";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  csvField,
  csvRow,
  cutOutsideQuotes,
  parseCsvLine,
  parseCsvRows,
} from "../../generator/contract/csv.ts";
import { parseCsv } from "../../generator/sources/csv.ts";
import { SourceError } from "../../generator/sources/errors.ts";
import { dataFile, ROOT } from "../support/paths.ts";

const parse = (text: string) =>
  new Promise<string[][]>((resolve, reject) => {
    const rows: string[][] = [];
    parseString<string[], string[]>(text, { headers: false })
      .on("data", (row: string[]) => rows.push(row))
      .on("error", reject)
      .on("end", () => resolve(rows));
  });

describe("RFC 4180 fields", () => {
  it.each([
    ["plain", "plain"],
    ["", ""],
    [undefined, ""],
    ["Berlin, Stadt", '"Berlin, Stadt"'],
    ['"Hörsaal"', '"""Hörsaal"""'],
    ['Übergang "Seekrug"', '"Übergang ""Seekrug"""'],
    ["a;b", "a;b"],
    ["line\nbreak", '"line\nbreak"'],
    ["cr\rx", '"cr\rx"'],
    [" spaced ", " spaced "],
  ])("%j → %s", (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });
});

describe("values a spreadsheet would run as a formula get a leading ' (and quotes)", () => {
  it.each([
    ["=1+2", `"'=1+2"`],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ["+49 30 1234", `"'+49 30 1234"`],
    ["-1", `"'-1"`],
    ["@SUM(A1)", `"'@SUM(A1)"`],
    ["\t=1", `"'\t=1"`],
    ["\r=1", `"'\r=1"`],
    ["Straße des 17. Juni", "Straße des 17. Juni"],
    ["A=B", "A=B"],
    ["Am Berg-Weg", "Am Berg-Weg"],
    ["'quoted'", "'quoted'"],
    [" =1", " =1"],
  ])("%j → %s", (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });

  it("an independent CSV parser reads the value with its leading '", async () => {
    const [row] = await parse(`${csvField("=1+2")},${csvField("@x")}\r\n`);
    expect(row).toEqual(["'=1+2", "'@x"]);
  });
});

describe("the odd names of the OpenPLZ sample", () => {
  const text = readFileSync(dataFile("de/streets-openplz-sample.csv"), "utf8");

  it("round-trip through an independent CSV parser", async () => {
    const rows = (await parse(text)).slice(1);
    const odd = rows.filter((row) => /[",]/.test(row[0] ?? ""));
    expect(odd.length).toBeGreaterThan(10);
    const columns = [0, 1, 2, 3, 4, 5].map((i) => ({ header: String(i), path: [String(i)] }));
    const rendered = odd.map((row) => csvRow(columns, row)).join("");
    expect(await parse(rendered)).toEqual(odd);
    expect(rendered.split("\r\n")).toHaveLength(odd.length + 1);
  });
});

describe("parseCsv reads what fast-csv reads", () => {
  const viaFastCsv = (text: string) =>
    parse(text).then(
      (rows) => ({ ok: true as const, rows }),
      () => ({ ok: false as const, rows: [] }),
    );
  /** What our validation refuses in fast-csv's rows: a wrong width, a field spanning lines or holding a control character. */
  const refused = (rows: readonly string[][], columns: number) =>
    rows.some(
      (row) => row.length !== columns || row.some((field) => /[\u0000-\u001f\u007f]/.test(field)),
    );
  const agree = async (text: string, columns: number) => {
    const theirs = await viaFastCsv(text);
    const ours = await parseCsv(text, "t.csv", { header: undefined, columns }, (row) => row).then(
      (rows) => ({ ok: true as const, rows }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    if (ours.ok) expect(theirs, JSON.stringify(text)).toEqual({ ok: true, rows: ours.rows });
    else {
      expect(ours.error, JSON.stringify(text)).toBeInstanceOf(SourceError);
      expect(
        !theirs.ok || theirs.rows.length === 0 || refused(theirs.rows, columns),
        JSON.stringify(text),
      ).toBe(true);
    }
  };

  it("on generated files of quoted and plain fields", async () => {
    const field = fc.oneof(
      fc.stringMatching(/^[a-zäß ]{0,6}$/),
      fc.stringMatching(/^[a-z ,"ä]{0,6}$/).map((f) => `"${f.replaceAll('"', '""')}"`),
    );
    const file = fc.tuple(fc.integer({ min: 1, max: 4 }), fc.boolean()).chain(([columns, crlf]) =>
      fc
        .array(fc.array(field, { minLength: columns, maxLength: columns }), {
          minLength: 1,
          maxLength: 6,
        })
        .map((rows) => ({
          columns,
          text:
            rows.map((row) => row.join(",")).join(crlf ? "\r\n" : "\n") + (crlf ? "\r\n" : "\n"),
        })),
    );
    await fc.assert(
      fc.asyncProperty(file, ({ columns, text }) => agree(text, columns)),
      { numRuns: 2_000 },
    );
  });

  it("on generated broken text", async () => {
    const text = fc
      .array(fc.constantFrom("a", ",", '"', "\n", "\r", " ", "ä"), { maxLength: 30 })
      .map((chars) => chars.join(""));
    await fc.assert(
      fc.asyncProperty(text, fc.integer({ min: 1, max: 3 }), (input, columns) =>
        agree(input, columns),
      ),
      { numRuns: 3_000 },
    );
  });
});

describe("the CSV line parser (contract/csv.ts)", () => {
  it.each<[string, "," | "\n", string[]]>([
    ["a,b,c", ",", ["a,", "b,", "c"]],
    ['"a,b",c', ",", ['"a,b",', "c"]],
    ['"say ""hi"", then",x', ",", ['"say ""hi"", then",', "x"]],
    ["a,", ",", ["a,", ""]],
    ["", ",", [""]],
    ['h\r\n"two\r\nlines",x\r\n', "\n", ["h\r\n", '"two\r\nlines",x\r\n', ""]],
  ])("cuts %j after each %j outside quotes", (text, separator, pieces) => {
    expect(cutOutsideQuotes(text, separator)).toEqual(pieces);
    expect(cutOutsideQuotes(text, separator).join("")).toBe(text);
  });

  it.each<[string, string[]]>([
    ["Pariser Platz,10117,Berlin", ["Pariser Platz", "10117", "Berlin"]],
    ['"Straße ""Am Ring"", Nord",,x\r\n', ['Straße "Am Ring", Nord', "", "x"]],
    ['"a\r\nb",c\n', ["a\r\nb", "c"]],
    ['""', [""]],
    ["", [""]],
  ])("reads the values of %j", (line, values) => {
    expect(parseCsvLine(line)).toEqual(values);
  });

  const value = fc.string({
    unit: fc.constantFrom("a", "ä", " ", ",", '"', "\r", "\n", "ß", "1"),
    maxLength: 8,
  });
  const table = fc.integer({ min: 1, max: 4 }).chain((columns) =>
    fc.array(fc.array(value, { minLength: columns, maxLength: columns }), {
      minLength: 1,
      maxLength: 5,
    }),
  );
  const render = (rows: readonly (readonly string[])[]) =>
    rows.map((row) => `${row.map(csvField).join(",")}\r\n`).join("");

  // A value a spreadsheet would run as a formula comes back with the leading ' csvField gives it.
  const asWritten = (rows: readonly (readonly string[])[]) =>
    rows.map((row) => row.map((v) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v)));

  it("reads back every row csvField writes", () => {
    fc.assert(
      fc.property(table, (rows) => {
        expect(parseCsvRows(render(rows))).toEqual(asWritten(rows));
      }),
      { numRuns: 2_000 },
    );
  });

  /** The docs page's script is served as it is and cannot import the module: its copy must read alike. */
  it("has a copy in the docs page's script that reads alike", () => {
    const script = readFileSync(`${ROOT}/generator/docs/client.js`, "utf8");
    const source = /\nfunction parseCsv\(text\) \{\n[\s\S]*?\n\}\n/.exec(script)?.[0];
    expect(source).toBeDefined();
    const clientParse = new Function(`${source ?? ""}\nreturn parseCsv;`)() as (
      text: string,
    ) => string[][];
    fc.assert(
      fc.property(table, (rows) => {
        expect(clientParse(render(rows))).toEqual(parseCsvRows(render(rows)));
      }),
      { numRuns: 2_000 },
    );
  });
});
