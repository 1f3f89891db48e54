/**
 * A tiny HTML template: `html` escapes every interpolated value unless it is markup made by `html`
 * itself (or an array of such), so text from resource definitions or data can never become markup.
 */
export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type Interpolation = Markup | string | number | readonly Markup[] | undefined | false;

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ENTITIES[ch] ?? ch);
}

export function html(strings: TemplateStringsArray, ...values: readonly Interpolation[]): Markup {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? "");
  });
  return new Markup(out);
}

function render(value: Interpolation): string {
  if (value === undefined || value === false) return "";
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return value.map((item: Markup) => item.text).join("");
  return escapeHtml(String(value));
}

/** Text that goes in unescaped: only for text the generator itself wrote, never for data. */
export function trusted(text: string): Markup {
  return new Markup(text);
}
