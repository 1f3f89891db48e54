import { html, trusted, type Markup } from "./html.ts";

/** Building blocks of the docs page's sections. */

export const count = (n: number) => n.toLocaleString("en");

/** CSS is not HTML text: it goes in verbatim (its hash is in the CSP), but must not close the element. */
export function inlineCss(css: string): Markup {
  if (/<\/style/i.test(css)) throw new Error("the stylesheet must not contain </style");
  return trusted(css);
}

export function section(id: string, title: string, body: Markup): Markup {
  return html`<section id="${id}" aria-labelledby="${id}-h">
<h2 id="${id}-h">${title}</h2>
${body}
</section>`;
}

export function scrollTable(label: string, table: Markup): Markup {
  return html`<div class="scroll" role="region" aria-label="${label}" tabindex="0">${table}</div>`;
}

export type Cell = Markup | string | number;

/**
 * A table with column headings, in a scroll region. On a narrow screen (the stylesheet's `stack`
 * rule) each row becomes a block and each cell is labelled with its column (`data-label`), so a
 * phone shows every column without scrolling sideways. With `rowHeader`, a row's first cell heads it.
 */
export function dataTable(
  label: string,
  columns: readonly string[],
  rows: readonly (readonly Cell[])[],
  options: { readonly caption?: string; readonly rowHeader?: boolean } = {},
): Markup {
  const body = rows.map(
    (cells) =>
      html`<tr>${cells.map((cell, i) => (i === 0 && options.rowHeader === true ? html`<th scope="row">${cell}</th>` : html`<td data-label="${columns[i] ?? ""}">${cell}</td>`))}</tr>`,
  );
  return scrollTable(
    label,
    html`<table class="stack">
${
  options.caption === undefined
    ? ""
    : html`<caption>${options.caption}</caption>
`
}<thead><tr>${columns.map((column) => html`<th scope="col">${column}</th>`)}</tr></thead>
<tbody>${body}</tbody>
</table>`,
  );
}

/** `a`, `a and b`, `a, b and c`, each as code. */
export function codeList(items: readonly string[]): Markup {
  return html`${items.map((item, i) => html`${i === 0 ? "" : i === items.length - 1 ? " and " : ", "}<code>${item}</code>`)}`;
}
