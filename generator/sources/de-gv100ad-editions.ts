import type { Edition, EditionListing } from "./editions.ts";

/**
 * Destatis publishes GV100AD monthly, each edition under its reference day without the year
 * (`…/Administrativ/Archiv/GV100ADQ/GV100AD3011.zip` for 30.11.), so a fixed URL would serve last
 * year's file once the day comes round again. The editions are listed on the Gemeindeverzeichnis
 * page: links to `GV100ADQ/GV100AD{DDMM}.html` (the edition's page) or `.zip`, whose text is the
 * reference day `DD.MM.YYYY`. The zip is `GV100AD{DDMM}.zip?__blob=publicationFile`.
 */
export const GV100AD_LISTING: EditionListing = {
  listing:
    "https://www.destatis.de/DE/Themen/Laender-Regionen/Regionales/Gemeindeverzeichnis/_inhalt.html",
  what: "GV100AD",
  editions: gv100adEditions,
  dateOf: gv100adDate,
};

/** The data file inside the zip: `GV100AD_DDMMYYYY.txt` (the zip also holds the record layout and a licence note). */
export const GV100AD_ENTRY = /(^|\/)GV100AD[^/]*\.txt$/i;

const LINK = /<a\b[^>]*?\bhref\s*=\s*(["'])(.*?)\1[^>]*>([\s\S]*?)<\/a\s*>/gi;
const EDITION = /\/GV100ADQ\/GV100AD(\d{2})(\d{2})\.(html|zip)$/i;
const DAY = /\b(\d{2})\.(\d{2})\.(\d{4})\b/g;

/** The monthly editions a listing page links to, one per reference day (a direct zip link preferred). */
export function gv100adEditions(html: string, pageUrl: string): Edition[] {
  const byDate = new Map<string, { edition: Edition; direct: boolean }>();
  for (const [, , rawHref = "", text = ""] of html.matchAll(LINK)) {
    let url: URL;
    try {
      url = new URL(decodeEntities(rawHref), pageUrl);
    } catch {
      continue;
    }
    const [, dd, mm, kind] = EDITION.exec(url.pathname) ?? [];
    if (dd === undefined || mm === undefined) continue;
    // The year is only in the link's text: a text without this edition's day names no edition.
    const day = [...decodeEntities(text.replace(/<[^>]*>/g, " ")).matchAll(DAY)].find(
      (m) => m[1] === dd && m[2] === mm,
    );
    if (day?.[3] === undefined) continue;
    const direct = kind?.toLowerCase() === "zip";
    if (!direct) {
      url.pathname = url.pathname.replace(/\.html$/i, ".zip");
      url.search = "?__blob=publicationFile";
    }
    url.hash = "";
    const date = `${day[3]}-${mm}-${dd}`;
    const known = byDate.get(date);
    if (known === undefined || (direct && !known.direct))
      byDate.set(date, { edition: { date, url: url.href }, direct });
  }
  return [...byDate.values()].map((e) => e.edition);
}

/** An edition's reference day from its data: characters 3–10 of every record are `YYYYMMDD`. */
export function gv100adDate(bytes: Uint8Array): string | undefined {
  const stamp = /^.{2}(\d{4})(\d{2})(\d{2})/.exec(new TextDecoder().decode(bytes.subarray(0, 16)));
  return stamp === null ? undefined : `${stamp[1]}-${stamp[2]}-${stamp[3]}`;
}

function decodeEntities(text: string): string {
  return text.replace(
    /&(amp|lt|gt|quot|#39|#x27|nbsp);/g,
    (_, name: string) =>
      ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'", nbsp: " " })[name] ?? "",
  );
}
