/**
 * PostgreSQL's default text-search parser (wparser_def.c, TParserGet): a table-driven automaton
 * with a stack of saved positions for backtracking and two sub-parsers (host, URL path). Ported
 * to code points: the tables are in parser-tables.ts, the character classes in ctype.ts.
 *
 * Portions Copyright (c) 1996-2024, PostgreSQL Global Development Group. PostgreSQL License.
 */
import { isAlnum, isAlpha, isAsciiLetter, isDigit, isHexDigit, isSpace, isSpecial } from "./ctype.ts";
import { HOST, STATES, URLPATH, type Action, type Special } from "./parser-tables.ts";

export interface Token {
  /** The token type's number (parser-tables.ts: ASCIIWORD …). */
  readonly type: number;
  readonly text: string;
}

const NEXT = 0, BINGO = 1, POP = 2, PUSH = 4, RERUN = 8, CLEAR = 16, MERGE = 32, CLRALL = 64;
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

interface Parser {
  readonly chars: readonly number[];
  /** UTF-16 offset of each code point (and of the end), to slice token texts. */
  readonly offsets: readonly number[];
  readonly text: string;
  readonly len: number;
  state: Position;
  ignore: boolean;
  wanthost: boolean;
  tokenStart: number;
  lentoken: number;
  type: number;
}

const current = (p: Parser) => p.chars[p.state.pos] ?? 0;
const slice = (p: Parser, from: number, to: number) => p.text.slice(p.offsets[from] ?? 0, p.offsets[to] ?? 0);
const atEnd = (p: Parser) => p.state.pos === p.len || p.state.charlen === 0;

const TESTS: Record<string, Test> = {
  isEOF: atEnd,
  isalpha: (p) => !atEnd(p) && isAlpha(current(p)),
  isasclet: (p) => !atEnd(p) && isAsciiLetter(current(p)),
  isdigit: (p) => !atEnd(p) && isDigit(current(p)),
  isalnum: (p) => !atEnd(p) && isAlnum(current(p)),
  isnotalnum: (p) => atEnd(p) || !isAlnum(current(p)),
  isspecial: (p) => !atEnd(p) && isSpecial(current(p)),
  isspace: (p) => !atEnd(p) && isSpace(current(p)),
  isxdigit: (p) => !atEnd(p) && isHexDigit(current(p)),
  isurlchar: (p) => {
    const c = current(p);
    return !atEnd(p) && c > 0x20 && c < 0x7f && !'"<>\\^`{|}'.includes(String.fromCharCode(c));
  },
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
    const token = slice(p, p.tokenStart, p.tokenStart + p.state.lentoken).replace(/[A-Z]/g, (ch) => ch.toLowerCase());
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
  test: test === "" ? null : test.length === 1 ? (p) => !atEnd(p) && current(p) === test.charCodeAt(0) : (TESTS[test] ?? fail(test)),
  flags: flags.split("|").reduce((bits, flag) => bits | (FLAG_BITS[flag] ?? 0), 0),
  to: stateIndex(to),
  type,
  special: special === undefined ? null : SPECIALS[special],
});
const fail = (what: string): never => {
  throw new Error(`unknown parser test ${what}`);
};
const ACTIONS: readonly (readonly CompiledAction[])[] = STATE_NAMES.map((name) => (STATES[name] ?? []).map(compile));
const BASE = stateIndex("Base");
const URL_PATH_FIRST = stateIndex("InURLPathFirst");

const position = (state: number, pos: number, prev: Position | null = null): Position => ({ pos, charlen: 0, lentoken: 0, state, prev, pushedAt: -1 });

function newParser(from: Parser | string, start: number): Parser {
  const { text, chars, offsets } = typeof from === "string" ? codePoints(from) : from;
  return { text, chars, offsets, len: chars.length, state: position(BASE, start), ignore: false, wanthost: false, tokenStart: start, lentoken: 0, type: 0 };
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
      p.state.pushedAt = i;
      p.state = { ...p.state, prev: p.state, pushedAt: -1 };
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

/** The tokens of a text as ts_parse('default', text) lists them, blanks included. */
export function parseTokens(text: string): Token[] {
  const p = newParser(text, 0);
  const tokens: Token[] = [];
  while (next(p)) tokens.push({ type: p.type, text: slice(p, p.tokenStart, p.tokenStart + p.lentoken) });
  return tokens;
}

function codePoints(text: string): { text: string; chars: number[]; offsets: number[] } {
  const chars: number[] = [];
  const offsets: number[] = [];
  for (let i = 0; i < text.length; ) {
    const c = text.codePointAt(i) ?? 0;
    chars.push(c);
    offsets.push(i);
    i += c > 0xffff ? 2 : 1;
  }
  offsets.push(text.length);
  return { text, chars, offsets };
}
