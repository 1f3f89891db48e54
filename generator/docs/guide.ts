import { isFullTextSearch, isSearchedStreets } from "../contract/routes.ts";
import { CONTENT_TYPES, PAGING_HEADERS, PROBLEM_CONTENT_TYPE } from "../contract/headers.ts";
import { DEFAULT_MAX_VALUE_LENGTH, maxValueLength } from "../contract/limits.ts";
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE } from "../contract/paging.ts";
import { MAX_SEARCH_TERM_LENGTH } from "../contract/search/request.ts";
import { validationProblem } from "../contract/problem.ts";
import { exampleTarget } from "../resources/resource.ts";
import { codeList, count, section } from "./blocks.ts";
import { html, type Markup } from "./html.ts";
import type { DocsResource } from "./input.ts";
import { PAGING_HEADER_DOCS } from "./parameters.ts";

/** The sections on the contract every endpoint shares: paging, formats, errors. */

export function pagingSection(resources: readonly DocsResource[]): Markup {
  const paged = resources.filter((r) => r.resource.query.paged).map((r) => r.resource.path);
  return section(
    "paging",
    "Paging",
    html`<p>Paged endpoints (${codeList(paged)}) take two parameters; plain decimal digits only, anything else is a 400, never clamped.</p>
<ul>
<li><code>page</code>: ${DEFAULT_PAGE} to ${count(MAX_PAGE)} (2<sup>31</sup> − 1), default ${DEFAULT_PAGE}.</li>
<li><code>pageSize</code>: 1 to ${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}. No parameters is the same request as <code>page=${DEFAULT_PAGE}&amp;pageSize=${DEFAULT_PAGE_SIZE}</code>.</li>
<li>Every successful paged response, JSON or CSV, carries four headers (readable from other origins too: CORS exposes them):
<dl class="headers">${PAGING_HEADERS.map((name) => html`<dt>${name}</dt><dd>${PAGING_HEADER_DOCS[name]}</dd>`)}</dl></li>
<li><code>x-total-pages</code> = ⌈<code>x-total-count</code> / <code>pageSize</code>⌉, 0 for an empty result: 600 records in pages of 20 are 30 pages (the original API says one page more on exact multiples).</li>
<li>A page past the end is a 200 with an empty list and the real totals. Pages are consecutive: for any page size, pages 1 to n together are the whole ordered result.</li>
<li>Parameter names match case-insensitively; an empty value counts as absent; a repeated parameter is a 400; unknown parameters are ignored.</li>
<li>Every value has a length limit, counted in characters (Unicode code points) and checked before anything else: ${DEFAULT_MAX_VALUE_LENGTH}, and ${maxValueLength("page")} for <code>page</code> and <code>pageSize</code> (leading zeros included). A longer value is a 400 that names the parameter and its limit without repeating the value.</li>
<li>Unpaged endpoints return the whole list at once, without paging headers, and ignore <code>page</code> and <code>pageSize</code>.</li>
</ul>`,
  );
}

export function formatsSection(resources: readonly DocsResource[]): Markup {
  const paged = resources.find((r) => r.resource.query.paged)?.resource;
  const csvExample = paged?.examples.find((e) => e.query["format"] === "csv");
  return section(
    "formats",
    "Formats",
    html`<ul>
<li><strong>JSON</strong> (default): <code>${CONTENT_TYPES.json}</code>, the OpenPLZ record shapes in camelCase; absent values are omitted.</li>
<li><strong>CSV</strong>: <code>${CONTENT_TYPES.csv}</code> when the <code>Accept</code> header asks for <code>text/csv</code> (and does not prefer JSON), or with <code>format=csv</code>. RFC 4180: comma-separated, a header row with the dotted column names, fields quoted when they hold a comma, quote or line break, CRLF after every row. A value that starts with <code>=</code>, <code>+</code>, <code>-</code>, <code>@</code>, a tab or a carriage return is written with a leading <code>'</code>, so that a spreadsheet shows it as text instead of running it as a formula (no value of the publishers' files starts so; the JSON keeps every value as it is). Negotiated responses carry <code>Vary: Accept</code>.${
      paged !== undefined && csvExample !== undefined
        ? html` Example: <a href="${exampleTarget(paged, csvExample)}"><code>${exampleTarget(paged, csvExample)}</code></a>.`
        : ""
    }</li>
<li>Responses carry an <code>ETag</code> and answer <code>If-None-Match</code> with 304, and <code>Cache-Control: public, max-age=3600</code>.</li>
</ul>`,
  );
}

export function errorsSection(resources: readonly DocsResource[]): Markup {
  const required = resources.flatMap(({ resource }) => {
    if (isSearchedStreets(resource))
      return [
        html`none of <code>name</code>, <code>postalCode</code>, <code>locality</code> on <code>${resource.path}</code> ("No name, postal code or locality given."), `,
      ];
    if (resource.search?.role === "suggestions")
      return [html`a missing or blank <code>searchTerm</code> on <code>${resource.path}</code>, `];
    if (resource.search?.role === "addressCheck")
      return [
        html`a missing <code>street</code>, or neither <code>postalCode</code> nor <code>locality</code>, a <code>postalCode</code> not of digits, or <code>format=csv</code> on <code>${resource.path}</code>, `,
      ];
    if (isFullTextSearch(resource))
      return [
        html`a missing or blank <code>searchTerm</code> on <code>${resource.path}</code>, or one over ${MAX_SEARCH_TERM_LENGTH} characters, `,
      ];
    if (resource.patterns !== undefined)
      return [
        html`none of ${resource.patterns.filters.map((f, i) => html`${i > 0 ? ", " : ""}<code>${f.param}</code>`)} on <code>${resource.path}</code> ("${resource.patterns.missing}"), `,
      ];
    return (resource.selectors ?? [])
      .filter((s) => s.in === "query" && s.required)
      .map((s) => html`a missing <code>${s.param}</code> on <code>${resource.path}</code>, `);
  });
  const search = resources.some(({ resource }) => isSearchedStreets(resource));
  const patterns = resources.some(({ resource }) => resource.patterns !== undefined);
  const unserved = [
    ...new Set(resources.flatMap(({ resource }) => resource.query.unservedFilters)),
  ];
  const problem = validationProblem(
    { pageSize: ["The field pageSize must be between 1 and 50."] },
    "The query string has invalid parameters; see errors.",
  );
  return section(
    "errors",
    "Errors",
    html`<p>Invalid input is a <strong>400</strong> with <code>Content-Type: ${PROBLEM_CONTENT_TYPE}</code>: an RFC 9457 problem with <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code> and <code>errors</code> keyed by parameter. For example <code>pageSize=51</code> gives:</p>
<pre><code>${JSON.stringify(problem, null, 2)}</code></pre>
<ul>
<li>400 as well: <code>page</code> or <code>pageSize</code> out of range or not plain digits (<code>1.5</code>, <code>10e1</code>, <code>-1</code>), a repeated parameter, a value over its length limit (<a href="#paging">paging</a>), <code>format</code> other than <code>json</code> or <code>csv</code>, ${required}${search ? html`a <code>name</code>, <code>postalCode</code> or <code>locality</code> on the Streets endpoints that is not a valid regular expression or uses what the linear-time engine does not evaluate (the problem names the parameter and the construct), a Streets <code>name</code> pattern that would leave too many candidate names (<code>name=\\d</code> alone: the problem asks for three or more letters in a row, or for <code>postalCode</code> or <code>locality</code>), a street search too broad to count within the read budget (on national data <code>locality=e&amp;name=straße</code>: the problem says how to narrow it), ` : ""}${patterns ? html`a <code>name</code> or <code>postalCode</code> on the Localities endpoints that is not a valid regular expression, or that uses what the linear-time engine does not evaluate (back-references, lookahead and lookbehind, word boundaries, POSIX bracket classes; the problem names the parameter and the construct), ` : ""}and the filters this API does not serve (${codeList(unserved)}).</li>
<li>An unknown key or filter value (a district key that does not exist, a locality with no streets) is not an error: 200 with an empty list, <code>x-total-count: 0</code> and <code>x-total-pages: 0</code>.</li>
<li>A parameter's list in <code>errors</code> holds each distinct message once, however often the request repeats its cause (<code>page=1</code> sent 9,000 times is one message).</li>
<li>Unknown paths are a 404 and methods other than <code>GET</code>, <code>HEAD</code> and <code>OPTIONS</code> a 405 with <code>Allow</code>, both as problems too. An endpoint of the original API that this build does not serve is a 404 whose <code>detail</code> says so and why (<a href="#not-served">not served</a>), unlike a misspelt path's. The build's internal files (paths starting with <code>/_</code>) are a 404 under any spelling (<code>/%5Fbuild.json</code>, <code>//_build.json</code>): never a redirect that would tell they exist.</li>
</ul>`,
  );
}
