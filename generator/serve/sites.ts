import { buildIdentity, loadSite, type LoadedSite, type LoadOptions, type Site } from "./site.ts";

/**
 * The build being served, and the next one when a rebuild puts another into the directory: the
 * server never answers a new file's bytes under the old build's ETag. Each Site reads through its
 * own directory as loaded (build-dir.ts), so until the new build is loaded the old one answers
 * consistently from its own files; at most once a second (on a request: nothing runs while idle),
 * and at once when one of its files is gone, the path is checked: a new directory there or a new
 * file list in it is loaded whole (file list, ETags, rules, the Worker's handler and its caches,
 * the health answer) and answers every request from then on. A build that cannot be loaded (not a
 * build, another format) is reported once; the old one goes on answering with what it still has.
 */
export interface Sites {
  /** The build to answer from now. */
  current(): Site;
  /**
   * After `site` found one of its files gone: the build that replaced it, once it is loaded, or
   * undefined when there is none (the file is simply gone).
   */
  after(site: Site): Promise<Site | undefined>;
  /** Marks a request on `site` begun; the returned function ends it (an old build's directory is closed after its last). */
  use(site: Site): () => void;
  /** Hears that a listed file is gone or changed: looks for a new build at once; whether there is one. */
  lost(): boolean;
  /** Closes every directory held. */
  close(): void;
}

/** How often requests may look whether the directory holds another build. */
export const CHECK_INTERVAL_MS = 1_000;

export interface WatchOptions extends Omit<LoadOptions, "previous" | "lost" | "meanwhile"> {
  /** Hears one line per build loaded after the first, or that could not be loaded. */
  readonly log?: (line: string) => void;
}

/** Serves `first`, loaded from `dir`, and every build swapped into `dir` after it. */
export function watchSites(dir: string, first: LoadedSite, options: WatchOptions): Sites {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let current = first;
  let checkedAt = Date.now();
  let loading: Promise<void> | undefined;
  /** The build that failed to load: not tried again until the directory changes once more. */
  let failed: string | undefined;
  const users = new Map<Site, number>();
  const retired = new Set<Site>();

  const retire = (site: LoadedSite) => {
    if ((users.get(site) ?? 0) > 0) retired.add(site);
    else site.read.dir.close();
  };
  const reload = (seen: string) =>
    (loading ??= (async () => {
      try {
        const site = await loadSite(dir, { ...options, previous: current, lost: check });
        const old = current;
        current = site;
        retire(old);
        failed = undefined;
        log(`serving the new build in ${dir} (${site.files.count} files) from now on`);
      } catch (error) {
        failed = seen;
        log(
          `warning: the build in ${dir} changed, and the new one cannot be served (${error instanceof Error ? error.message : String(error)}); the one loaded before answers what it still has`,
        );
      } finally {
        loading = undefined;
        checkedAt = Date.now();
      }
    })());
  /** Whether another build is in the directory (it is being loaded then). */
  function check(): boolean {
    checkedAt = Date.now();
    if (loading !== undefined) return true;
    const seen = buildIdentity(dir);
    if (seen === undefined || seen === current.identity || seen === failed) return false;
    void reload(seen);
    return true;
  }
  return {
    current() {
      if (loading === undefined && Date.now() - checkedAt >= CHECK_INTERVAL_MS) check();
      return current;
    },
    async after(site) {
      if (site === current && check()) await loading;
      return site === current ? undefined : current;
    },
    use(site) {
      users.set(site, (users.get(site) ?? 0) + 1);
      return () => {
        const left = (users.get(site) ?? 1) - 1;
        if (left > 0) return void users.set(site, left);
        users.delete(site);
        if (retired.delete(site)) site.read.dir.close();
      };
    },
    lost: check,
    close() {
      for (const site of [current, ...retired]) site.read.dir.close();
      retired.clear();
    },
  };
}
