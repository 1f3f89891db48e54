import { cutOutsideQuotes } from "../csv.ts";

/**
 * Tail shards (`/_s/{cc}/t/{n}.json`): the rendered tails (store.ts) of TAILS_PER_SHARD places,
 * JSON and CSV. A page's streets can lie in as many shards as it has rows, so shards are small;
 * and places in order of postal code share most of their tails (municipality, district, state),
 * so a tail is cut into pieces (JSON: before each top-level property; CSV: after each cell) and
 * each distinct piece is stored once per shard:
 *
 *   {"pieces": [text, …], "json": [[piece, …], …], "csv": [[piece, …], …]}
 *
 * A tail is its pieces joined; how a tail is cut changes only the shard's size, never the text.
 */

interface TailShardFile {
  readonly pieces: readonly string[];
  readonly json: readonly (readonly number[])[];
  readonly csv: readonly (readonly number[])[];
}

export type Tail = readonly [json: string, csv: string];

export function encodeTailShard(tails: readonly Tail[]): string {
  const pieces: string[] = [];
  const ids = new Map<string, number>();
  const idsOf = (parts: readonly string[]) =>
    parts.map((part) => {
      let id = ids.get(part);
      if (id === undefined) ids.set(part, (id = pieces.push(part) - 1));
      return id;
    });
  const file: TailShardFile = {
    pieces,
    json: tails.map(([json]) => idsOf(jsonPieces(json))),
    csv: tails.map(([, csv]) => idsOf(csvPieces(csv))),
  };
  return JSON.stringify(file);
}

/** A tail shard as the Worker reads it: a tail is joined from its pieces only when a row shows it. */
export class TailShard {
  private readonly file: TailShardFile;
  constructor(text: string) {
    this.file = JSON.parse(text) as TailShardFile;
  }

  /** The tail of the shard's i-th place, JSON (0) or CSV (1). */
  tail(i: number, format: 0 | 1): string {
    const ids = (format === 0 ? this.file.json : this.file.csv)[i];
    let out = "";
    for (const id of ids ?? []) out += this.file.pieces[id] ?? "";
    return out;
  }

  get size(): number {
    return this.file.json.length;
  }
}

export function decodeTailShard(text: string): Tail[] {
  const shard = new TailShard(text);
  return Array.from(
    { length: shard.size },
    (_, i) => [shard.tail(i, 0), shard.tail(i, 1)] as const,
  );
}

/** A JSON tail cut before each comma outside strings and nested values. */
export function jsonPieces(tail: string): string[] {
  const out: string[] = [];
  let [depth, inString, start] = [0, false, 0];
  for (let i = 0; i < tail.length; i++) {
    const c = tail.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c && depth === 0 && i > start) {
      out.push(tail.slice(start, i));
      start = i;
    }
  }
  out.push(tail.slice(start));
  return out;
}

/** A CSV tail cut after each comma outside quotes. */
export function csvPieces(tail: string): string[] {
  return cutOutsideQuotes(tail, ",");
}
