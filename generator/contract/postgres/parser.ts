/**
 * PostgreSQL's default text-search parser (wparser_def.c, TParserGet): a table-driven automaton
 * with a stack of saved positions for backtracking and two sub-parsers (host, URL path). Ported
 * to code points: the tables are in parser-tables.ts, the character classes in ctype.ts.
 *
 * Portions Copyright (c) 1996-2024, PostgreSQL Global Development Group. PostgreSQL License.
 */
import { isAlpha, isAsciiLetter, isDigit, isHexDigit, isSpace, isSpecial } from "./ctype.ts";
import { HOST, STATES, URLPATH, type Action, type Special } from "./parser-tables.ts";

export interface Token {
  /** The token type's number (parser-tables.ts: ASCIIWORD …). */
  readonly type: number;
  readonly text: string;
}

const NEXT = 0,
  BINGO = 1,
  POP = 2,
  PUSH = 4,
  RERUN = 8,
  CLEAR = 16,
  MERGE = 32,
  CLRALL = 64;
const FLAG_BITS: Record<string, number> = { NEXT, BINGO, POP, PUSH, RERUN, CLEAR, MERGE, CLRALL };

type Test = (p: Parser) => boolean;

interface CompiledAction {
  readonly test: Test | null;
  readonly flags: number;
  /** -1: stay in the current state (TPS_Null). */
  readonly to: number;
  readonly type: number;
  readonly special: ((p: Parser) => void) | null;
}

/** A saved parser position (TParserPosition). */
interface Position {
  pos: number;
  charlen: number;
  lentoken: number;
  state: number;
  prev: Position | null;
  /** Index of the action that pushed this position, to resume after a POP; -1 if none. */
  pushedAt: number;
}

/** Character classes per code point, as bits; the end of the text has none. */
const ALPHA = 1,
  DIGIT = 2,
  ASCII_LETTER = 4,
  SPECIAL = 8,
  SPACE = 16,
  XDIGIT = 32,
  URLCHAR = 64;
const ALNUM = ALPHA | DIGIT;

function classify(c: number): number {
  let bits =
    (isAlpha(c) ? ALPHA : 0) |
    (isDigit(c) ? DIGIT : 0) |
    (isAsciiLetter(c) ? ASCII_LETTER : 0) |
    (isSpace(c) ? SPACE : 0) |
    (isHexDigit(c) ? XDIGIT : 0);
  if (c >= 0x80 && isSpecial(c)) bits |= SPECIAL;
  // p_isurlchar: printable ASCII but space and the characters RFC 3986 disallows
  if (c > 0x20 && c < 0x7f && !'"<>\\^`{|}'.includes(String.fromCharCode(c))) bits |= URLCHAR;
  return bits;
}
const ASCII_CLASSES = Uint8Array.from({ length: 0x80 }, (_, c) => classify(c));

interface Text {
  readonly text: string;
  readonly chars: readonly number[];
  /** UTF-16 offset of each code point (and of the end), to slice token texts. */
  readonly offsets: readonly number[];
  /** classify() of each code point, and 0 for the end. */
  readonly classes: Uint8Array;
}

interface Parser extends Text {
  readonly len: number;
  state: Position;
  ignore: boolean;
  wanthost: boolean;
  tokenStart: number;
  lentoken: number;
  type: number;
}

const is =
  (bits: number): Test =>
  (p) =>
    ((p.classes[p.state.pos] ?? 0) & bits) !== 0;
const slice = (p: Parser, from: number, to: number) =>
  p.text.slice(p.offsets[from] ?? 0, p.offsets[to] ?? 0);
const atEnd = (p: Parser) => p.state.pos === p.len || p.state.charlen === 0;

const TESTS: Record<string, Test> = {
  isEOF: atEnd,
  isalpha: is(ALPHA),
  isasclet: is(ASCII_LETTER),
  isdigit: is(DIGIT),
  isalnum: is(ALNUM),
  isnotalnum: (p) => ((p.classes[p.state.pos] ?? 0) & ALNUM) === 0,
  isspecial: is(SPECIAL),
  isspace: is(SPACE),
  isxdigit: is(XDIGIT),
  isurlchar: is(URLCHAR),
  isstophost: (p) => {
    if (!p.wanthost) return false;
    p.wanthost = false;
    return true;
  },
  isignore: (p) => p.ignore,
  ishost: (p) => subParse(p, false),
  isURLPath: (p) => subParse(p, true),
};

const rewind = (p: Parser) => {
  p.state.pos -= p.state.lentoken;
};
const SPECIALS: Record<Special, (p: Parser) => void> = {
  Tags: (p) => {
    const token = slice(p, p.tokenStart, p.tokenStart + p.state.lentoken).replace(/[A-Z]/g, (ch) =>
      ch.toLowerCase(),
    );
    if (token === "</script" || token === "</style") p.ignore = false;
    else if (token === "<script" || token === "<style") p.ignore = true;
  },
  FURL: (p) => {
    p.wanthost = true;
    rewind(p);
  },
  Hyphen: rewind,
  VerVersion: (p) => {
    rewind(p);
    p.state.lentoken = 0;
  },
};

const STATE_NAMES = Object.keys(STATES);
const stateIndex = (name: string) => (name === "Null" ? -1 : STATE_NAMES.indexOf(name));
const compile = ([test, flags, to, type = 0, special]: Action): CompiledAction => ({
  test:
    test === ""
      ? null
      : test.length === 1
        ? equals(test.charCodeAt(0))
        : (TESTS[test] ?? fail(test)),
  flags: flags.split("|").reduce((bits, flag) => bits | (FLAG_BITS[flag] ?? 0), 0),
  to: stateIndex(to),
  type,
  special: special === undefined ? null : SPECIALS[special],
});
const equals =
  (code: number): Test =>
  (p) =>
    p.state.pos < p.len && p.chars[p.state.pos] === code;
const fail = (what: string): never => {
  throw new Error(`unknown parser test ${what}`);
};
const ACTIONS: readonly (readonly CompiledAction[])[] = STATE_NAMES.map((name) =>
  (STATES[name] ?? []).map(compile),
);
const BASE = stateIndex("Base");
const URL_PATH_FIRST = stateIndex("InURLPathFirst");

const position = (state: number, pos: number, prev: Position | null = null): Position => ({
  pos,
  charlen: 0,
  lentoken: 0,
  state,
  prev,
  pushedAt: -1,
});

function newParser(from: Text | string, start: number): Parser {
  const { text, chars, offsets, classes } = typeof from === "string" ? analyse(from) : from;
  return {
    text,
    chars,
    offsets,
    classes,
    len: chars.length,
    state: position(BASE, start),
    ignore: false,
    wanthost: false,
    tokenStart: start,
    lentoken: 0,
    type: 0,
  };
}

/** p_ishost / p_isURLPath: a parser copy from the current position must find a host / URL path here. */
function subParse(p: Parser, urlPath: boolean): boolean {
  const sub = newParser(p, p.state.pos);
  if (urlPath) sub.state = position(URL_PATH_FIRST, p.state.pos, sub.state);
  else sub.wanthost = true;
  if (!next(sub) || sub.type !== (urlPath ? URLPATH : HOST)) return false;
  p.state.pos += sub.lentoken;
  p.state.lentoken += sub.lentoken;
  p.state.charlen = sub.state.charlen;
  return true;
}

/** TParserGet: the next token into p.type / p.tokenStart / p.lentoken; false at the end. */
function next(p: Parser): boolean {
  if (p.state.pos >= p.len) return false;
  p.tokenStart = p.state.pos;
  p.state.pushedAt = -1;
  let item: CompiledAction | undefined;
  while (p.state.pos <= p.len) {
    const st = p.state;
    st.charlen = st.pos === p.len ? 0 : 1;
    const actions = ACTIONS[st.state] ?? [];
    let i = 0;
    if (st.pushedAt >= 0) {
      i = st.pushedAt + 1;
      st.pushedAt = -1;
    }
    while ((actions[i]?.test ?? null) !== null && !(actions[i]?.test?.(p) ?? false)) i++;
    item = actions[i];
    if (item === undefined) throw new Error("parser table without a default action");
    item.special?.(p);
    if (item.flags & BINGO) {
      p.lentoken = p.state.lentoken;
      p.state.lentoken = 0;
      p.type = item.type;
    }
    if (item.flags & POP) p.state = p.state.prev ?? p.state;
    else if (item.flags & PUSH) {
      st.pushedAt = i;
      p.state = {
        pos: st.pos,
        charlen: st.charlen,
        lentoken: st.lentoken,
        state: st.state,
        prev: st,
        pushedAt: -1,
      };
    } else if (item.flags & CLEAR) p.state.prev = p.state.prev?.prev ?? null;
    else if (item.flags & CLRALL) p.state.prev = null;
    else if (item.flags & MERGE) {
      const merged = p.state;
      p.state = merged.prev ?? merged;
      p.state.pos = merged.pos;
      p.state.charlen = merged.charlen;
      p.state.lentoken = merged.lentoken;
    }
    if (item.to >= 0) p.state.state = item.to;
    if (item.flags & BINGO || (p.state.pos >= p.len && !(item.flags & RERUN))) break;
    if (item.flags & (RERUN | POP)) continue;
    if (p.state.charlen) {
      p.state.pos += p.state.charlen;
      p.state.lentoken += p.state.charlen;
    }
  }
  return item !== undefined && (item.flags & BINGO) !== 0;
}

/** The tokens of a text as ts_parse('default', text) lists them (blanks included), or only those of the types wanted. */
export function parseTokens(text: string, wanted: (type: number) => boolean = () => true): Token[] {
  const p = newParser(text, 0);
  const tokens: Token[] = [];
  while (next(p))
    if (wanted(p.type))
      tokens.push({ type: p.type, text: slice(p, p.tokenStart, p.tokenStart + p.lentoken) });
  return tokens;
}

function analyse(text: string): Text {
  const chars: number[] = [];
  const offsets: number[] = [];
  for (let i = 0; i < text.length;) {
    const c = text.codePointAt(i) ?? 0;
    chars.push(c);
    offsets.push(i);
    i += c > 0xffff ? 2 : 1;
  }
  offsets.push(text.length);
  const classes = new Uint8Array(chars.length + 1);
  chars.forEach((c, i) => (classes[i] = c < 0x80 ? (ASCII_CLASSES[c] ?? 0) : classify(c)));
  return { text, chars, offsets, classes };
}
