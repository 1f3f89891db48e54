import { SourceError } from "./errors.ts";

/**
 * How long a source's field may be (docs/SOURCE-SAFETY.md): checked on each line before it is
 * split, trimmed, normalised or handed to the CSV parser, by counting from delimiter to delimiter
 * in the text the file was decoded into, so that an over-long field fails with its file, line and
 * column without ever being copied (a 30 MiB street name once took the build to a heap of 4 GB).
 */

/** Characters (Unicode code points) in any field: every name, key, code, date and coordinate. */
export const FIELD_LIMIT = 200;
/** Characters in a field that holds a list (places sharing a postal code, further postal codes, a street's postal localities). */
export const LIST_FIELD_LIMIT = 2_000;
/** Characters in a record of a format that is not delimited (GV100AD's fixed-width records, the old district list). */
export const RECORD_LIMIT = 1_000;

export interface FieldLimits {
  readonly delimiter: string;
  /** The quote character, or null for formats without quoting. */
  readonly quote: string | null;
  /** The limit of each column (0-based); columns past the list take `FIELD_LIMIT`. */
  readonly columns?: readonly number[];
  /** The columns' names, for the message. */
  readonly names?: readonly string[];
}

/**
 * A check of each line of a delimited file (without its line end): fails when a field is longer
 * than its column's limit. A line no longer than the smallest limit cannot hold such a field: for
 * almost every line the check is one comparison.
 */
export function fieldLengthCheck(
  file: string,
  limits: FieldLimits,
): (line: string, lineNumber: number) => void {
  const shortest = Math.min(FIELD_LIMIT, ...(limits.columns ?? []));
  const { delimiter, quote } = limits;
  return (line, lineNumber) => {
    if (line.length <= shortest) return;
    for (let column = 0, at = 0; at <= line.length; column++) {
      // The field from `at`: quoted (to its closing quote, `""` inside it) or plain, to the next delimiter.
      let from = at;
      const quoted = quote !== null && line.startsWith(quote, at);
      if (quote !== null && quoted) {
        from = at + quote.length;
        for (;;) {
          const close = line.indexOf(quote, from);
          from = close === -1 ? line.length : close + quote.length;
          if (close === -1 || !line.startsWith(quote, from)) break;
          from += quote.length;
        }
      }
      const next = line.indexOf(delimiter, from);
      const end = next === -1 ? line.length : next;
      const limit = limits.columns?.[column] ?? FIELD_LIMIT;
      const [first, last] = quoted ? [at + 1, end - 1] : [at, end];
      if (last - first > limit) {
        const length = codePoints(line, first, last);
        if (length > limit) throw tooLong(file, lineNumber, column, limits.names, length, limit);
      }
      at = end + delimiter.length;
    }
  };
}

/** Fails when a record of a format without delimiters is longer than `RECORD_LIMIT`. */
export function checkRecordLength(line: string, lineNumber: number, file: string): void {
  if (line.length <= RECORD_LIMIT) return;
  const length = codePoints(line, 0, line.length);
  if (length > RECORD_LIMIT)
    throw new SourceError(
      file,
      lineNumber,
      `the record holds ${length.toLocaleString("en-US")} characters, more than the limit of ${RECORD_LIMIT.toLocaleString("en-US")} for a record`,
    );
}

function tooLong(
  file: string,
  line: number,
  column: number,
  names: readonly string[] | undefined,
  length: number,
  limit: number,
): SourceError {
  const name = names?.[column];
  return new SourceError(
    file,
    line,
    `column ${column + 1}${name === undefined ? "" : ` (${name})`} holds ${length.toLocaleString("en-US")} characters, more than the limit of ${limit.toLocaleString("en-US")} for a field`,
  );
}

/** Code points of `text` from `start` to `end` (a surrogate pair is one). */
function codePoints(text: string, start: number, end: number): number {
  let count = end - start;
  for (let at = start; at < end; at++) {
    const unit = text.charCodeAt(at);
    if (unit >= 0xdc00 && unit <= 0xdfff && at > start) {
      const before = text.charCodeAt(at - 1);
      if (before >= 0xd800 && before <= 0xdbff) count--;
    }
  }
  return count;
}
