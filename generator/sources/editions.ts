/** One edition a publisher lists: its reference day and where to download it. */
export interface Edition {
  /** The reference day, `YYYY-MM-DD`. */
  readonly date: string;
  readonly url: string;
}

/**
 * A publisher that releases each edition under a new name: the newest edition is found on its
 * listing page, and the downloaded file must hold that edition (an old file under a new name, or
 * an edition the listing does not have yet, fails the build rather than being used silently).
 */
export interface EditionListing {
  /** The page that lists the editions. */
  readonly listing: string;
  /** How messages name the editions, e.g. `GV100AD`. */
  readonly what: string;
  /** The editions a listing page names, their URLs resolved against the page's URL. */
  readonly editions: (html: string, pageUrl: string) => Edition[];
  /** The reference day (`YYYY-MM-DD`) of a downloaded edition, read from its data. */
  readonly dateOf: (bytes: Uint8Array) => string | undefined;
}

/** The newest edition on or before `today` (a listed edition dated later is not out yet). */
export function newestEdition(editions: readonly Edition[], today: Date): Edition | undefined {
  const day = today.toISOString().slice(0, 10);
  return editions
    .filter((e) => e.date <= day)
    .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0))[0];
}
