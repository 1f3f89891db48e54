import type { DocsFile } from "../contract/address.ts";
import { inlineCss } from "./blocks.ts";
import { changesSection, downloadsSection, sourcesSection } from "./data.ts";
import { endpointsSection, notServedSection } from "./endpoints.ts";
import { errorsSection, formatsSection, pagingSection } from "./guide.ts";
import { html } from "./html.ts";
import type { DocsInput } from "./input.ts";
import { tryItSection } from "./try-it.ts";

/** The public paths of the page's own files. */
const DOCS_SCRIPT_PATH: DocsFile = "/docs.js";
const OPENAPI_PATH: DocsFile = "/openapi.json";

/** The docs page: readable without JavaScript; `docs.js` adds the live form. `css` is inlined. */
export function docsPage(input: DocsInput, css: string): string {
  const resources = input.resources;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>plz-static: postal and regional data API</title>
<meta name="description" content="A static lookup API for streets, federal states, provinces, cantons and communes of Germany, Austria, Switzerland and Liechtenstein, with the OpenPLZ paging contract.">
<style>${inlineCss(css)}</style>
<script src="${DOCS_SCRIPT_PATH}" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to the content</a>
<header>
<h1>plz-static</h1>
<p class="lead">A static lookup API for regional and address data of Germany, Austria, Switzerland and Liechtenstein, with the paging contract of the <a href="https://www.openplzapi.org">OpenPLZ API</a>. Every answer is a file prepared at build time and served from a CDN: no database, no server.</p>
<nav aria-label="On this page"><ul>
<li><a href="#try">Try it</a></li><li><a href="#endpoints">Endpoints</a></li><li><a href="#not-served">Not served</a></li><li><a href="#paging">Paging</a></li><li><a href="#formats">Formats</a></li><li><a href="#errors">Errors</a></li><li><a href="#downloads">Downloads</a></li>${input.downloads === undefined ? "" : html`<li><a href="#changes">Change feed</a></li>`}<li><a href="#sources">Data sources and licences</a></li><li><a href="${OPENAPI_PATH}">OpenAPI document</a></li>
</ul></nav>
</header>
<main id="main">
${tryItSection(resources)}
${endpointsSection(resources)}
${notServedSection(input.notServed)}
${pagingSection(resources)}
${formatsSection(resources)}
${errorsSection(resources)}
${downloadsSection(input.downloads)}
${changesSection(input.downloads)}
${sourcesSection(resources)}
</main>
<footer>
<p>Keep the attributions of <a href="#sources">the data sources</a> when you use or redistribute the data. The machine-readable description of this API: <a href="${OPENAPI_PATH}">OpenAPI 3.1</a>.</p>
</footer>
</body>
</html>
`.text;
}
