import { CHANGE_FEED, FEED_DAYS } from "../contract/changes.ts";
import { IDENTITY_IN_WORDS } from "../contract/record-identity.ts";
import {
  DOWNLOADS_INDEX,
  type DownloadFile,
  type DownloadsManifest,
} from "../contract/downloads.ts";
import type { Credit } from "../resources/credits.ts";
import { codeList, count, dataTable, section } from "./blocks.ts";
import { html, type Markup } from "./html.ts";
import type { DocsResource } from "./input.ts";

/** The sections on the data itself: the downloads and the sources with their licences. */

export function downloadsSection(downloads: DownloadsManifest | undefined): Markup {
  const datasets = (downloads?.files ?? []).filter((file) => file.filter === undefined);
  const perView = (downloads?.files ?? []).filter(
    (file) => file.filter !== undefined && file.gzipOf === undefined,
  );
  const endpoints = [...new Set(datasets.map((file) => file.endpoint))];
  const perViewEndpoints = [...new Set(perView.map((file) => file.endpoint))];
  const size = (bytes: number) =>
    bytes >= 1024 * 1024
      ? `${(bytes / 1024 / 1024).toFixed(1)} MiB`
      : `${Math.max(1, Math.round(bytes / 1024))} KiB`;
  const link = (file: DownloadFile | undefined) =>
    file === undefined
      ? "–"
      : html`<a href="${file.path}" download>${file.format.toUpperCase()}${file.gzipOf === undefined ? "" : ".gz"}</a> <small>${size(file.bytes)}</small>`;
  const rows = endpoints.flatMap((endpoint) => {
    const files = datasets.filter((file) => file.endpoint === endpoint);
    const parts = [...new Set(files.map((file) => file.part))];
    return parts.map((part) => {
      const of = (format: string, gz: boolean) =>
        files.find(
          (f) => f.part === part && f.format === format && (f.gzipOf !== undefined) === gz,
        );
      const links = (format: string) =>
        html`${link(of(format, false))}${of(format, true) === undefined ? "" : html`, ${link(of(format, true))}`}`;
      return [
        html`<code>${endpoint}</code>${part === undefined ? "" : html` part ${part} of ${files.find((f) => f.part === part)?.parts ?? "?"}`}`,
        count(of("json", false)?.records ?? 0),
        links("json"),
        links("csv"),
      ];
    });
  });
  return section(
    "downloads",
    "Downloads",
    downloads === undefined
      ? html`<p>This build has no downloads.</p>`
      : html`<p>Every dataset as whole files, in JSON (an array of the records above) and CSV (the same columns), with a gzip copy of anything over 1 MiB. A dataset too large for one file comes in parts of at most 24 MiB, each a complete JSON array or CSV file with its header. Built ${downloads.builtAt}.</p>
${dataTable("Whole-dataset downloads", ["Dataset", "Records", "JSON", "CSV"], rows)}
${perViewEndpoints.length === 0 ? "" : html`<p>One file per locality as well, for ${codeList(perViewEndpoints)}: ${count(perView.length / 2)} ${perView.length === 2 ? "locality" : "localities"}, for example <a href="${perView[0]?.path ?? "#"}"><code>${perView[0]?.path ?? ""}</code></a>.</p>`}
<p>The manifest <a href="${DOWNLOADS_INDEX}"><code>${DOWNLOADS_INDEX}</code></a> lists every file with its SHA-256, size, media type, record count, sources, licences and their dates, and the build time. Keep the attributions of <a href="#sources">the data sources</a> with the files.</p>
<p>To keep a copy up to date without downloading everything again, see <a href="#changes">the change feed</a>.</p>`,
  );
}

/** The change feed: what each build changed, and the tool that applies it. */
export function changesSection(downloads: DownloadsManifest | undefined): Markup {
  if (downloads === undefined) return html``;
  const feed = downloads.changeFeed;
  return section(
    "changes",
    "Keeping a copy up to date",
    html`<p>The change feed <a href="${CHANGE_FEED}"><code>${CHANGE_FEED}</code></a> lists the builds of the last ${FEED_DAYS} days, each with, per dataset that changed, a small JSON and CSV file of the records added, removed and changed (old and new values) since the build before, with their SHA-256. ${feed?.predecessor === null || feed === undefined ? "This build had no earlier build to compare with: its feed is empty." : `This build lists ${feed.builds} ${feed.builds === 1 ? "build" : "builds"}, the newest compared with the build of ${feed.predecessor}.`}</p>
<p>Two builds hold the same record when its identity is the same: ${IDENTITY_IN_WORDS}. A record whose other values differ is changed; a renamed street is removed and added.</p>
<p>With a checkout of this project, one command keeps a SQLite copy in sync: the first run loads the datasets, every later run applies the feed, each build in one transaction, every file's SHA-256 checked, and loads the datasets again when the feed no longer reaches the copy:</p>
<pre><code>npm run sync -- --from https://api.example --db copy.sqlite --datasets de.streets,de.localities</code></pre>
<p>(<code>--from</code> takes this site's address in place of <code>https://api.example</code>; without <code>--datasets</code> the copy keeps every dataset.) To write a client of your own, follow the rules of the project's <code>docs/CHANGES.md</code>.</p>`,
  );
}

export function sourcesSection(resources: readonly DocsResource[]): Markup {
  const credits = new Map<Credit, string[]>();
  for (const { resource } of resources)
    for (const credit of resource.credits)
      credits.set(credit, [...(credits.get(credit) ?? []), resource.path]);
  const rows = [...credits].map(([credit, paths]) => [
    html`${paths.map((path, i) => html`${i > 0 ? ", " : ""}<code>${path}</code>`)}`,
    credit.sourceUrl === undefined
      ? credit.source
      : html`<a href="${credit.sourceUrl}">${credit.source}</a>`,
    html`<strong>${credit.attribution}</strong>`,
    credit.licenceUrl === undefined
      ? credit.licence
      : html`<a href="${credit.licenceUrl}">${credit.licence}</a>`,
    credit.asOf,
  ]);
  return section(
    "sources",
    "Data sources and licences",
    html`<p>The data is real, from these publishers. Show the attribution wherever you show or pass on the data.</p>
${dataTable("Data sources", ["Endpoints", "Source", "Attribution", "Licence", "As of"], rows)}`,
  );
}
