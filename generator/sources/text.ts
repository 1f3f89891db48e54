import { SourceError } from "./errors.ts";

/**
 * How a reader declares its source's text: by default text that reads as UTF-8 decoded a second
 * time (double-encoded, see `refuseDoubleEncoding`) fails; `mayLookDoubleEncoded` lets it through
 * (a source whose values may hold such sequences on purpose; none does today).
 */
export interface TextOptions {
  readonly mayLookDoubleEncoded?: boolean;
}

/** Decodes UTF-8 strictly (an invalid sequence fails with its line) and drops a leading BOM. */
export function decodeUtf8(bytes: Uint8Array, file: string, options: TextOptions = {}): string {
  let text: string;
  try {
    text = stripBom(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    const valid = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
    const bad = valid.indexOf("\uFFFD");
    throw new SourceError(
      file,
      lineAt(valid, bad === -1 ? valid.length : bad),
      "invalid UTF-8 byte sequence",
    );
  }
  if (options.mayLookDoubleEncoded !== true) refuseDoubleEncoding(text, file, "UTF-8");
  return text;
}

/** ISO-8859-1: every byte is the code point of the same value (TextDecoder's "latin1" is windows-1252). */
export function decodeLatin1(bytes: Uint8Array, file: string, options: TextOptions = {}): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  if (options.mayLookDoubleEncoded !== true) refuseDoubleEncoding(text, file, "Latin-1");
  return text;
}

/**
 * The continuation of a UTF-8 sequence (bytes 0x80–0xBF) as Latin-1 or windows-1252 shows it:
 * U+0080–U+00BF, and the characters windows-1252 puts at 0x80–0x9F.
 */
const CONTINUATION =
  "[\u0080-\u00BF\u0152\u0153\u0160\u0161\u0178\u017D\u017E\u0192\u02C6\u02DC\u2013\u2014\u2018-\u201A\u201C-\u201E\u2020-\u2022\u2026\u2030\u2039\u203A\u20AC\u2122]";
/**
 * UTF-8 decoded a second time: the lead byte of a two-byte sequence for Latin letters (0xC2–0xC5:
 * `Â`, `Ã`, `Ä`, `Å`) or of a three-byte one for punctuation (0xE2: `â`), followed by a
 * continuation: `Ã¼` for `ü`, `Ã©` for `é`, `Ã\x9f` for `ß`, `â€“` for `–`. No name in the sources
 * holds such a pair; a file converted to UTF-8 twice (or UTF-8 read as Latin-1) holds little else.
 */
const DOUBLE_ENCODED = new RegExp(`[\u00C2-\u00C5\u00E2]${CONTINUATION}`);

/** Fails, with the first such pair's line and column, when `text` looks double-encoded. */
export function refuseDoubleEncoding(text: string, file: string, declared: string): void {
  const found = DOUBLE_ENCODED.exec(text);
  if (found === null) return;
  const line = lineAt(text, found.index);
  const column = found.index - text.lastIndexOf("\n", found.index - 1);
  const pair = [...found[0]]
    .map((ch) => (/[\u0080-\u009F]/.test(ch) ? `\\x${ch.charCodeAt(0).toString(16)}` : ch))
    .join("");
  const latin1 = [...found[0]].every((ch) => ch.charCodeAt(0) <= 0xff);
  const meant = latin1 ? ` for '${Buffer.from(found[0], "latin1").toString("utf8")}'` : "";
  throw new SourceError(
    file,
    line,
    `column ${column}: '${pair}'${meant} looks double-encoded (UTF-8 decoded as Latin-1 or windows-1252 before it was encoded again); the file must be ${declared}, converted once`,
  );
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * One string per distinct value: a large source repeats its postal codes, localities and street
 * names a million times, and the records keep them; this keeps each once. The kept string is a
 * copy: a field split out of the file's text would keep the whole text alive (V8 slices strings).
 */
export function interner(): (value: string) => string {
  const seen = new Map<string, string>();
  return (value) => {
    let known = seen.get(value);
    if (known === undefined) {
      known = ` ${value}`.slice(1);
      seen.set(known, known);
    }
    return known;
  };
}

/** 1-based line number of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}
