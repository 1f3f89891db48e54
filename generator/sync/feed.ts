import type { ChangeFeed, FeedBuild } from "../contract/changes.ts";

/**
 * The builds that take a copy of build `from` to build `to`, oldest first: the build whose `since`
 * is `from`, then each build whose `since` is the one before's `builtAt`, up to `to`. When the feed
 * holds no such chain, why not (one line): the copy then loads the datasets again.
 */
export function chainOf(
  feed: ChangeFeed,
  from: string,
  to: string,
): { readonly builds: readonly FeedBuild[] } | { readonly reason: string } {
  if (feed.builtAt !== to)
    return { reason: `the change feed is of the build of ${feed.builtAt}, not ${to}` };
  if (Date.parse(from) > Date.parse(to))
    return { reason: `the copy is of the build of ${from}, later than the source's ${to}` };
  const builds = [...feed.builds].reverse();
  const oldest = builds[0];
  if (oldest === undefined)
    return { reason: `the change feed lists no builds (its build had no predecessor)` };
  if (Date.parse(from) < Date.parse(oldest.since))
    return {
      reason: `the change feed reaches back to the build of ${oldest.since}, and the copy is of ${from}`,
    };
  const start = builds.findIndex((build) => build.since === from);
  if (start < 0)
    return { reason: `the copy's build ${from} is not one the change feed starts a build from` };
  const chain = builds.slice(start);
  for (let i = 1; i < chain.length; i++)
    if (chain[i]?.since !== chain[i - 1]?.builtAt)
      return {
        reason: `the change feed has no build since ${chain[i - 1]?.builtAt ?? ""} (the next is since ${chain[i]?.since ?? ""})`,
      };
  if (chain.at(-1)?.builtAt !== to)
    return { reason: `the change feed's builds end at ${chain.at(-1)?.builtAt ?? ""}, not ${to}` };
  return { builds: chain };
}

/** Reads a feed's JSON, refusing anything that is not one. */
export function parseFeed(bytes: Buffer, where: string): ChangeFeed {
  let feed: Partial<ChangeFeed>;
  try {
    feed = JSON.parse(bytes.toString("utf8")) as Partial<ChangeFeed>;
  } catch {
    throw new Error(`${where}: the change feed is not JSON`);
  }
  if (typeof feed.builtAt !== "string" || !Array.isArray(feed.builds))
    throw new Error(`${where}: not a change feed (no builtAt or builds)`);
  return feed as ChangeFeed;
}
