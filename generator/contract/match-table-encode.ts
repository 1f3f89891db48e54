/**
 * The build's side of the match table (match-table.ts describes the file): the distinct values of
 * each column, framed and with their starts, each record's value index, and the header.
 */
import type { Range } from "./regex/ast.ts";
import { alphabetOf } from "./regex/alphabet.ts";
import { JoinedValues } from "./regex/joined.ts";
import { columnShape } from "./regex/universal.ts";

/** Most distinct values a column can hold: an index is a u16. */
export const MAX_MATCH_VALUES = 0x10000;

export interface WireColumn {
  /** The distinct values. */
  readonly count: number;
  readonly values: readonly [at: number, bytes: number];
  readonly folded?: readonly [at: number, bytes: number];
  /** Where each value starts in the decoded `values` (`folded`): count + 1 u32, the text's length last. */
  readonly starts: number;
  readonly foldedStarts?: number;
  readonly rows: number;
  readonly alphabet: Range[];
  readonly shortest: number;
  readonly longest: number;
}

/** Where the sections start after a header of `length` bytes: the next multiple of 4. */
export function sectionsAt(length: number): number {
  return (4 + length + 3) & ~3;
}

/** The table of records whose values are given per column, in record order. */
export function encodeMatchTable(
  records: number,
  columns: readonly {
    readonly param: string;
    readonly valueOf: (record: number) => string;
    readonly fold?: (value: string) => string;
  }[],
): Uint8Array {
  const encoder = new TextEncoder();
  const sections: Uint8Array[] = [];
  let at = 0;
  const add = (bytes: Uint8Array): number => {
    const start = at;
    sections.push(bytes);
    at += bytes.length;
    if (at % 4 !== 0) {
      sections.push(new Uint8Array(4 - (at % 4)));
      at += 4 - (at % 4);
    }
    return start;
  };
  const header: Record<string, WireColumn> = {};
  for (const { param, valueOf, fold } of columns) {
    const index = new Map<string, number>();
    const rows = new Uint8Array(records * 2);
    for (let record = 0; record < records; record++) {
      const value = valueOf(record);
      if (value.includes("\n")) throw new Error(`a ${param} holds a newline: ${value}`);
      let i = index.get(value);
      if (i === undefined) index.set(value, (i = index.size));
      if (i >= MAX_MATCH_VALUES) throw new Error(`more than ${MAX_MATCH_VALUES} ${param} values`);
      rows[record * 2] = i & 0xff;
      rows[record * 2 + 1] = i >> 8;
    }
    const values = [...index.keys()];
    const text = (joined: string) => {
      const bytes = encoder.encode(joined);
      const starts = JoinedValues.startsOf(joined);
      const startBytes = new Uint8Array(starts.length * 4);
      const view = new DataView(startBytes.buffer);
      starts.forEach((start, i) => view.setUint32(i * 4, start, true));
      const values = [add(bytes), bytes.length] as const;
      return { values, starts: add(startBytes), count: starts.length - 1 };
    };
    const plain = text(JoinedValues.frame(values));
    const folded = fold === undefined ? undefined : text(JoinedValues.frame(values.map(fold)));
    header[param] = {
      // No records is one empty value, as the framed text of none is that of one empty value.
      count: plain.count,
      values: plain.values,
      starts: plain.starts,
      ...(folded === undefined ? {} : { folded: folded.values, foldedStarts: folded.starts }),
      rows: add(rows),
      alphabet: alphabetOf(values),
      shortest: columnShape(values).shortest,
      longest: columnShape(values).longest,
    };
  }
  const head = encoder.encode(JSON.stringify({ records, columns: header }));
  // The sections start at a multiple of 4: the header's length, the header, padding.
  const offset = sectionsAt(head.length);
  const out = new Uint8Array(offset + at);
  new DataView(out.buffer).setUint32(0, head.length, true);
  out.set(head, 4);
  let to = offset;
  for (const section of sections) {
    out.set(section, to);
    to += section.length;
  }
  return out;
}
