import { bitmapPath } from "../contract/layout.ts";
import { bitmapBytes, decodeBitmap } from "../contract/search/bitmaps.ts";
import type { ReadBudget } from "../contract/search/budget.ts";
import type { SearchMeta } from "../contract/search/meta.ts";
import type { AssetStore } from "./assets.ts";

/** Bitmaps kept per isolate (about 150 KB each nationally): the common words' stay warm. */
const BITMAPS_KEPT = 16;

/**
 * One country's lexeme bitmaps (contract/search/bitmaps.ts) as the Worker reads them: each file
 * fetched once and kept per isolate (the most recently used), charged to every request that uses it.
 */
export class BitmapStore {
  private readonly numbers: ReadonlyMap<string, number>;
  private readonly kept = new Map<number, Uint32Array>();

  constructor(
    private readonly store: AssetStore,
    private readonly origin: string,
    private readonly country: string,
    private readonly meta: SearchMeta,
  ) {
    this.numbers = new Map([
      ...meta.bitmaps.map((lexeme, n) => [lexeme, n] as const),
      ...meta.bitmapAliases,
    ]);
  }

  /** Does a lexeme have a bitmap? */
  has(lexeme: string): boolean {
    return this.numbers.has(lexeme);
  }

  /** The bytes of the bitmaps of those lexemes that have one. */
  bytesOf(lexemes: readonly string[]): number {
    const files = new Set(lexemes.flatMap((lexeme) => this.numbers.get(lexeme) ?? []));
    return files.size * bitmapBytes(this.meta.count);
  }

  /** The files of the bitmaps of those keys that have one, with their bytes. */
  files(keys: readonly string[]): Map<string, number> {
    const bytes = bitmapBytes(this.meta.count);
    return new Map(
      keys.flatMap((key) => {
        const n = this.numbers.get(key);
        return n === undefined ? [] : [[bitmapPath(this.country, n), bytes] as const];
      }),
    );
  }

  /**
   * The bitmaps of those keys that have one, when all of them fit in the budget with a
   * `reserve` share left (else none: the request checks documents instead, as without bitmaps).
   */
  async of(
    keys: readonly string[],
    budget: ReadBudget,
    reserve: number,
  ): Promise<ReadonlyMap<string, Uint32Array>> {
    const files = this.files(keys);
    if (files.size === 0 || !budget.fits(files, reserve)) return new Map();
    for (const [path, bytes] of files) budget.charge(path, bytes);
    return await this.read(keys);
  }

  /** The bitmaps of those keys that have one, not charged: the caller charges them if it uses them. */
  async read(keys: readonly string[]): Promise<ReadonlyMap<string, Uint32Array>> {
    const wanted = [...new Set(keys)].flatMap((key) => {
      const n = this.numbers.get(key);
      return n === undefined ? [] : [[key, n] as const];
    });
    return new Map(
      await Promise.all(wanted.map(async ([key, n]) => [key, await this.bitmap(n)] as const)),
    );
  }

  private async bitmap(n: number): Promise<Uint32Array> {
    const cached = this.kept.get(n);
    if (cached !== undefined) {
      this.kept.delete(n);
      this.kept.set(n, cached);
      return cached;
    }
    const bits = decodeBitmap(
      new Uint8Array(
        await (await this.store.require(this.origin, bitmapPath(this.country, n))).arrayBuffer(),
      ),
    );
    this.kept.set(n, bits);
    if (this.kept.size > BITMAPS_KEPT) this.kept.delete(this.kept.keys().next().value as number);
    return bits;
  }
}
