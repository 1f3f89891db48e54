import { gramCountsPath } from "../contract/layout.ts";
import type { ReadBudget } from "../contract/search/budget.ts";
import { decodeGramCounts } from "../contract/search/gram-counts.ts";
import type { SearchMeta } from "../contract/search/meta.ts";
import type { AssetStore } from "./assets.ts";

/** Place-count files kept per isolate (a few tens of KB each nationally). */
const COUNTS_KEPT = 16;

/**
 * One country's per-place n-gram counts (contract/search/gram-counts.ts) as the Worker reads
 * them: each file fetched once and kept per isolate, charged to every request that uses it.
 */
export class GramCountStore {
  private readonly numbers: ReadonlyMap<string, number>;
  private readonly kept = new Map<number, { counts: Int32Array; bytes: number }>();

  constructor(
    private readonly store: AssetStore,
    private readonly origin: string,
    private readonly country: string,
    meta: SearchMeta,
  ) {
    this.numbers = new Map(meta.gramCounts.map((gram, n) => [gram, n]));
  }

  /** Does this case-folded n-gram have place counts? */
  has(gram: string): boolean {
    return this.numbers.has(gram);
  }

  /** Each place's streets whose name has the n-gram (undefined: no counts), charged. */
  async of(gram: string, places: number, budget: ReadBudget): Promise<Int32Array | undefined> {
    const n = this.numbers.get(gram);
    if (n === undefined) return undefined;
    const path = gramCountsPath(this.country, n);
    let file = this.kept.get(n);
    if (file === undefined) {
      const bytes = new Uint8Array(
        await (await this.store.require(this.origin, path)).arrayBuffer(),
      );
      file = { counts: decodeGramCounts(bytes, places), bytes: bytes.byteLength };
      this.kept.set(n, file);
      if (this.kept.size > COUNTS_KEPT) this.kept.delete(this.kept.keys().next().value as number);
    }
    budget.charge(path, file.bytes);
    return file.counts;
  }
}
