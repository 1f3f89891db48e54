import { SourceError } from "./errors.ts";

/** Decodes UTF-8 strictly (an invalid sequence fails with its line) and drops a leading BOM. */
export function decodeUtf8(bytes: Uint8Array, file: string): string {
  try {
    return stripBom(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    const valid = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
    const bad = valid.indexOf("\uFFFD");
    throw new SourceError(
      file,
      lineAt(valid, bad === -1 ? valid.length : bad),
      "invalid UTF-8 byte sequence",
    );
  }
}

/** ISO-8859-1: every byte is the code point of the same value (TextDecoder's "latin1" is windows-1252). */
export function decodeLatin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
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
