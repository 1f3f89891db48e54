// @ts-check
/*
 * The docs page's "Try it" form (served as /docs.js): calls the API with fetch and shows the status,
 * the four paging headers, the records as a table and the raw body. Plain DOM, no framework; the
 * page is complete without it. Type-checked with `tsc -p generator/docs/tsconfig.client.json`.
 */
"use strict";

const PAGING_HEADERS = ["x-page", "x-page-size", "x-total-count", "x-total-pages"];
const MAX_BODY_CHARS = 100_000;

/**
 * @template {HTMLElement} T
 * @param {string} id
 * @param {new () => T} type
 * @returns {T}
 */
function element(id, type) {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`docs.js: #${id} is missing`);
  return found;
}

function init() {
  const form = element("try-form", HTMLFormElement);
  const endpoint = element("try-endpoint", HTMLSelectElement);
  const paging = element("try-paging", HTMLFieldSetElement);
  const filterInputs = [...paging.querySelectorAll("input[data-filter]")].filter(
    (input) => input instanceof HTMLInputElement,
  );

  const pageInputs = [
    element("try-page", HTMLInputElement),
    element("try-pagesize", HTMLInputElement),
  ];
  const sync = () => {
    const option = endpoint.selectedOptions[0];
    // An unpaged endpoint takes no page; its filters (the address check's) stay usable.
    for (const input of pageInputs) input.disabled = option?.dataset["paged"] !== "true";
    const filters = (option?.dataset["filters"] ?? "").split(" ");
    for (const input of filterInputs)
      input.disabled = !filters.includes(input.dataset["filter"] ?? "");
  };
  endpoint.addEventListener("change", sync);
  sync();
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void send(requestTarget(form));
  });
  element("try-nojs", HTMLElement).hidden = true;
  form.hidden = false;
}

/**
 * The request the form describes: the endpoint's path and the enabled, non-empty fields.
 * @param {HTMLFormElement} form
 */
function requestTarget(form) {
  const data = new FormData(form); // disabled fields are not in it
  const params = new URLSearchParams();
  let path = String(data.get("endpoint") ?? "/");
  for (const [name, value] of data) {
    if (name === "endpoint" || typeof value !== "string" || value === "") continue;
    if (name === "format" && value === "json") continue; // the default
    if (path.includes(`{${name}}`))
      path = path.replace(`{${name}}`, encodeURIComponent(value)); // a path parameter
    else params.append(name, value);
  }
  const query = params.toString();
  return query === "" ? path : `${path}?${query}`;
}

/** @param {string} target */
async function send(target) {
  const result = element("try-result", HTMLElement);
  const status = element("try-status", HTMLElement);
  const link = element("try-url", HTMLAnchorElement);
  const body = element("try-body", HTMLElement);
  result.hidden = false;
  link.href = target;
  element("try-target", HTMLElement).textContent = `GET ${target}`;
  status.textContent = "Sending…";
  for (const name of PAGING_HEADERS) setHeader(name, "…");
  showTable([], []);
  body.textContent = "";

  /** @type {Response} */
  let response;
  /** @type {string} */
  let text;
  try {
    response = await fetch(target);
    text = await response.text();
  } catch (error) {
    status.textContent = `The request failed: ${error instanceof Error ? error.message : String(error)}`;
    return;
  }
  const type = response.headers.get("content-type") ?? "";
  for (const name of PAGING_HEADERS) setHeader(name, response.headers.get(name) ?? "not sent");
  body.textContent =
    text.length > MAX_BODY_CHARS
      ? `${text.slice(0, MAX_BODY_CHARS)}\n… (${text.length - MAX_BODY_CHARS} more characters)`
      : text;

  if (!response.ok) {
    status.textContent = `HTTP ${response.status}: ${problemSummary(text)}`;
    return;
  }
  const table = type.startsWith("text/csv") ? csvTable(text) : jsonTable(text);
  showTable(table.columns, table.rows);
  const valid = /^\{"valid":(true|false)/.exec(text)?.[1];
  status.textContent = `HTTP ${response.status}, ${type || "no content type"}: ${valid === undefined ? "" : `valid: ${valid}; `}${table.rows.length} ${table.rows.length === 1 ? "record" : "records"} shown.`;
}

/**
 * @param {string} name
 * @param {string} value
 */
function setHeader(name, value) {
  const cell = document.querySelector(`#try-headers dd[data-header="${name}"]`);
  if (cell !== null) cell.textContent = value;
}

/** @param {string} text */
function problemSummary(text) {
  try {
    /** @type {{ title?: string, detail?: string, errors?: Record<string, string[]> }} */
    const problem = JSON.parse(text);
    const errors = Object.values(problem.errors ?? {}).flat();
    return (
      [problem.title, ...errors]
        .filter((part) => typeof part === "string" && part !== "")
        .join(" ") || text
    );
  } catch {
    return text;
  }
}

/**
 * JSON records as rows; nested objects become dotted columns (`municipality.key`).
 * @param {string} text
 * @returns {{ columns: string[], rows: string[][] }}
 */
function jsonTable(text) {
  /** @type {unknown} */
  const parsed = JSON.parse(text);
  // The address check's `{ valid, suggestions }`: its suggestions are the records.
  const records = Array.isArray(parsed)
    ? parsed
    : parsed !== null &&
        typeof parsed === "object" &&
        "suggestions" in parsed &&
        Array.isArray(parsed.suggestions)
      ? parsed.suggestions
      : [parsed];
  const flat = records.map((record) => flatten(record, ""));
  const columns = [...new Set(flat.flatMap((entries) => entries.map(([key]) => key)))];
  const rows = flat.map((entries) => {
    const values = new Map(entries);
    return columns.map((column) => values.get(column) ?? "");
  });
  return { columns, rows };
}

/**
 * @param {unknown} value
 * @param {string} prefix
 * @returns {[string, string][]}
 */
function flatten(value, prefix) {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return [[prefix || "value", JSON.stringify(value) ?? ""]];
  return Object.entries(value).flatMap(([key, inner]) => {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    return inner !== null && typeof inner === "object"
      ? flatten(inner, path)
      : [[path, typeof inner === "string" ? inner : (JSON.stringify(inner) ?? "")]];
  });
}

/**
 * RFC 4180: the first row names the columns.
 * @param {string} text
 * @returns {{ columns: string[], rows: string[][] }}
 */
function csvTable(text) {
  const [columns = [], ...rows] = parseCsv(text);
  return { columns, rows };
}

/**
 * @param {string} text
 * @returns {string[][]}
 */
function parseCsv(text) {
  /** @type {string[][]} */
  const rows = [];
  /** @type {string[]} */
  let row = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}

/**
 * @param {string[]} columns
 * @param {string[][]} rows
 */
function showTable(columns, rows) {
  const table = element("try-table", HTMLTableElement);
  const head = table.tHead ?? table.createTHead();
  const body = table.tBodies[0] ?? table.createTBody();
  head.replaceChildren();
  body.replaceChildren();
  if (columns.length === 0) return;
  const headRow = head.insertRow();
  for (const column of columns) {
    const cell = document.createElement("th");
    cell.scope = "col";
    cell.textContent = column;
    headRow.append(cell);
  }
  for (const values of rows) {
    const tableRow = body.insertRow();
    for (const value of values) tableRow.insertCell().textContent = value;
  }
}

init();
