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
    this.numbers = new Map(meta.bitmaps.map((lexeme, n) => [lexeme, n]));
  }

  /**
   * The bitmaps of those lexemes that have one, when all of them fit in the budget with a
   * `reserve` share left (else none: the request checks documents instead, as without bitmaps).
   */
  async of(
    lexemes: readonly string[],
    budget: ReadBudget,
    reserve: number,
  ): Promise<ReadonlyMap<string, Uint32Array>> {
    const wanted = [...new Set(lexemes)].flatMap((lexeme) => {
      const n = this.numbers.get(lexeme);
      return n === undefined ? [] : [[lexeme, n] as const];
    });
    const bytes = bitmapBytes(this.meta.count);
    const files = new Map(wanted.map(([, n]) => [bitmapPath(this.country, n), bytes]));
    if (wanted.length === 0 || !budget.fits(files, reserve)) return new Map();
    for (const [path] of files) budget.charge(path, bytes);
    return new Map(
      await Promise.all(wanted.map(async ([lexeme, n]) => [lexeme, await this.bitmap(n)] as const)),
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
