// The message of an error answer, whatever JSON shape the server gives it:
// NestJS-style `{ statusCode, message, error?, code? }` (message a string, an
// array of messages or an object), `{ error: "..." }`, a nested
// `{ error: { message, code } }`, problem+json `{ title, detail }`, or a bare
// array of messages. The text is cut to a sane length and its control
// characters are made visible, as it is shown on a terminal.
import { visible } from '../visible.js';

/** Longest server message shown. */
export const MAX_SERVER_MESSAGE = 500;

export interface ErrorBodyFacts {
  message?: string;
  /** The body's `code` (top level, or in a nested `error`), e.g. `upsert_branch_changed`. */
  code?: string;
}

function text(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() === '' ? undefined : v;
  if (Array.isArray(v)) {
    const parts = v
      .map((x) => text(x) ?? (x === null || x === undefined ? undefined : JSON.stringify(x)))
      .filter((x) => x !== undefined);
    return parts.length > 0 ? parts.join('; ') : undefined;
  }
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    // A nested message object: say its message if it has one, else show it.
    return text(o['message']) ?? text(o['detail']) ?? text(o['title']) ?? JSON.stringify(v);
  }
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

function messageOf(body: unknown): string | undefined {
  if (Array.isArray(body)) return text(body);
  if (body === null || typeof body !== 'object') return typeof body === 'string' ? text(body) : undefined;
  const o = body as Record<string, unknown>;
  const message = text(o['message']);
  if (message !== undefined) return message;
  // problem+json: the title names the kind of problem, the detail this occurrence.
  const title = typeof o['title'] === 'string' ? o['title'] : undefined;
  const detail = typeof o['detail'] === 'string' ? o['detail'] : undefined;
  if (title !== undefined || detail !== undefined) {
    return [title, detail].filter((x) => x !== undefined && x.trim() !== '').join(': ') || undefined;
  }
  const error = o['error'];
  if (error !== null && typeof error === 'object' && !Array.isArray(error)) return text(error);
  return text(error) ?? text(o['errors']);
}

function codeOf(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const o = body as Record<string, unknown>;
  if (typeof o['code'] === 'string') return o['code'];
  const nested = o['error'];
  const inner = nested !== null && typeof nested === 'object' ? (nested as Record<string, unknown>)['code'] : undefined;
  return typeof inner === 'string' ? inner : undefined;
}

/** Cut to MAX_SERVER_MESSAGE characters (an ellipsis says so), control characters made visible. */
export function shownServerText(s: string, redact: (s: string) => string = (x) => x): string {
  const one = redact(s);
  const cut = one.length > MAX_SERVER_MESSAGE ? `${one.slice(0, MAX_SERVER_MESSAGE)}…` : one;
  return visible(cut);
}

/** What an error body says, from any of the shapes above; nothing when it says nothing wsc can show. */
export function readErrorBody(body: unknown, redact?: (s: string) => string): ErrorBodyFacts {
  const facts: ErrorBodyFacts = {};
  const m = messageOf(body);
  if (m !== undefined) facts.message = shownServerText(m, redact);
  const code = codeOf(body);
  if (code !== undefined) facts.code = code;
  return facts;
}
