// How a failed request is worded: an answer's status and body, a body wsc
// cannot use, or no answer at all, as an ApiError or NetworkError whose
// message names the request and whose hint says what to check. Pure: the
// client gives what it knows (host, base URL, timeouts, its token redaction).
import type { z } from 'zod';
import { ApiError, NetworkError, type ApiCode } from '../errors.js';
import { readErrorBody, shownServerText } from './error-body.js';
import { BINARY_CONTROL } from '../domain/unsafe-chars.js';

/** What the wording needs to know about the client. */
export interface Wording {
  host: string;
  baseUrl: string;
  timeoutMs: number;
  connectTimeoutMs: number;
  /** Removes the token from text the server sent (a hostile or careless server may echo it). */
  redact: (s: string) => string;
  /** The client is closing: a failure now is a cancellation. */
  closed: () => boolean;
  /** Where the token came from (`WSC_TOKEN`, or wsc.yaml's `token:` variable), when the client knows. */
  tokenSource?: string;
}

/** What to check when the token is refused: the one sent, named by where it came from when that is known. */
function rejectedToken(source: string | undefined): string {
  const scheme = 'and WSC_AUTH_SCHEME (bearer, api-key or raw).';
  if (source === undefined)
    return `The token was rejected: check WSC_TOKEN / the environment's token (\`token:\` in wsc.yaml), ${scheme}`;
  // WSC_TOKEN wins over wsc.yaml's token: a token set for another job is the usual surprise.
  const over = source === 'WSC_TOKEN' ? " (it is used before the environment's `token:` in wsc.yaml)" : '';
  return `The token sent came from ${source}${over}: check it, ${scheme}`;
}

const STATUS_TEXT: Record<number, string> = {
  301: 'Moved Permanently',
  302: 'Found',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  411: 'Length Required',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** "2 s", "1.5 s", "2 min". */
export function seconds(ms: number): string {
  const s = Math.round(ms / 100) / 10;
  return s >= 120 && s % 60 === 0 ? `${s / 60} min` : `${s} s`;
}

/** At most `max` of zod's issues, each as `say` words it, in one line. */
function joinIssues(error: z.ZodError, max: number, say: (i: z.core.$ZodIssue, where: string) => string): string {
  const parts = error.issues.slice(0, max).map((i) => say(i, i.path.length ? i.path.map(String).join('.') : '(root)'));
  const more = error.issues.length - max;
  return parts.join('; ') + (more > 0 ? ` (and ${more} more)` : '');
}

/** zod's issues in one line, at most `max` of them. */
export function issuesText(error: z.ZodError, max = 3): string {
  return joinIssues(error, max, (i, where) =>
    // zod words a missing member as a wrong type ("expected number, received undefined"); JSON has no undefined.
    i.code === 'invalid_type' && i.message.endsWith('received undefined')
      ? `${where}: missing (expected ${i.expected})`
      : `${where}: ${i.message}`,
  );
}

/** What is wrong with an item, with the values it holds there: `source: "NEW" (Invalid option: ...)`. */
export function valuedIssues(item: unknown, error: z.ZodError, max = 3): string {
  return joinIssues(error, max, (i, where) => {
    let v: unknown = item;
    for (const k of i.path) {
      v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
    }
    return `${where}: ${v === undefined ? 'missing' : JSON.stringify(v).slice(0, 80)} (${i.message})`;
  });
}

export function looksLikeHtml(contentType: string | undefined, text: string): boolean {
  if (contentType && /\btext\/html\b|\bapplication\/xhtml\+xml\b/i.test(contentType)) return true;
  return text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .startsWith('<');
}

/** The first errno-like code found on an undici/net error or its causes. */
function errnoOf(e: unknown, depth = 0): string | undefined {
  if (!e || typeof e !== 'object' || depth > 4) return undefined;
  const o = e as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof o.code === 'string' && /^E[A-Z]+$/.test(o.code)) return o.code;
  if (Array.isArray(o.errors)) {
    for (const x of o.errors) {
      const c = errnoOf(x, depth + 1);
      if (c) return c;
    }
  }
  return errnoOf(o.cause, depth + 1) ?? (typeof o.code === 'string' ? o.code : undefined);
}

/** The attempt never reached the server: refused, connect timeout, unknown host (counts toward the breaker). */
export function noConnection(e: unknown): boolean {
  const code = (e as { code?: string } | null)?.code ?? '';
  const errno = errnoOf(e);
  return (
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    errno === 'ECONNREFUSED' ||
    errno === 'ENOTFOUND' ||
    errno === 'EAI_AGAIN' ||
    errno === 'EHOSTUNREACH' ||
    errno === 'ENETUNREACH'
  );
}

/** A 2xx answer wsc cannot use: never retried (the same request gets the same answer). */
export function invalidBody(
  w: Wording,
  method: string,
  path: string,
  status: number,
  why: string,
  code: ApiCode = 'bad_response',
  hint?: string,
): ApiError {
  // A write answered with a success status was most likely applied: say so, rather than suspect the server only.
  const h =
    hint ??
    (method !== 'GET' && status >= 200 && status < 300
      ? `The server accepted the ${method} (status ${status}), so the change was probably applied, but its ` +
        "answer could not be read; a plan of the same bundle and deployment (`wsc plan` with this run's --dir and " +
        '--env) shows where things stand. If this persists, check the base URL ' +
        'and any proxy in between.'
      : 'The server does not answer as the Workspace Content API does; check the base URL and the server version.');
  const message = w.redact(`${method} ${path} answered ${status} with ${why}`);
  return new ApiError({ method, path, status, code }, message, { hint: h });
}

/** A body larger than the client accepts, refused before it is all read. */
export function tooLarge(method: string, path: string, maxBody: number): ApiError {
  const mib = Math.round(maxBody / 1024 / 1024);
  return new ApiError(
    { method, path, status: 200, code: 'response_too_large' },
    `${method} ${path}: the response is larger than ${mib} MiB; refused without reading it all.`,
    { hint: 'This is not an answer the API gives; check the base URL.' },
  );
}

/** The lists of one command went past their bytes in all (`--max-list-bytes`). */
export function listsTooLarge(path: string, max: number): ApiError {
  return new ApiError(
    { method: 'GET', path, status: 200, code: 'lists_too_large' },
    `GET ${path}: the lists read by this command went past ${Math.round(max / 1024 / 1024)} MiB in all ` +
      `(--max-list-bytes); stopped reading, nothing written.`,
    {
      hint:
        'A deployment this large is unusual; if it is yours, raise --max-list-bytes (WSC_MAX_LIST_BYTES), ' +
        'else the server sends more than its lists hold.',
    },
  );
}

/**
 * What an error answer says of the service behind the host, for the breaker:
 * an HTML page (a gateway's or a proxy's, never the API's JSON), or a server
 * error; not a 503 with Retry-After (a live server asking for time), nor 501
 * or 505 (a refusal, not an outage). undefined: the API itself answered.
 */
export function notTheApi(
  status: number,
  retryAfter: string | undefined,
  contentType: string | undefined,
  text: string,
) {
  if (text.trim() !== '' && looksLikeHtml(contentType, text)) return `answered ${status} with an HTML page`;
  if (status < 500 || status === 501 || status === 505) return undefined;
  if (status === 503 && retryAfter !== undefined) return undefined;
  return `answered ${status}`;
}

/** A web page where JSON was expected: the base URL points at a site, not the API. */
export function notApi(w: Wording, method: string, path: string, status: number): ApiError {
  return invalidBody(
    w,
    method,
    path,
    status,
    'a web page, not JSON. The server answered with a web page: wrong base URL, or this endpoint is not ' +
      'available on this tenant.',
    'not_api',
    `Check the base URL (${w.baseUrl}; give the host only, wsc appends /api/v1) and that the tenant offers ` +
      'the Workspace Content API.',
  );
}

/** A non-2xx answer as an ApiError, with the API's `code` when the body has one. */
export function statusFailure(
  w: Wording,
  method: string,
  path: string,
  status: number,
  contentType: string | undefined,
  text: string,
  location?: string,
): { error: ApiError; apiCode?: string } {
  let serverMessage: string | undefined;
  let apiCode: string | undefined;
  const html = text.trim() !== '' && looksLikeHtml(contentType, text);
  let jsonBody = false;
  if (!html && text.trim() !== '') {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON: a short plain-text body is still the best message there is
      // binary garbage is not a message
      if (text.length <= 200 && !BINARY_CONTROL.test(text)) serverMessage = shownServerText(text.trim(), w.redact);
    }
    if (json !== undefined) {
      jsonBody = true;
      ({ message: serverMessage, code: apiCode } = readErrorBody(json, w.redact));
    }
  }
  const reason = STATUS_TEXT[status] ?? 'HTTP error';
  const said =
    status >= 300 && status < 400 && location
      ? ` to ${w.redact(location.slice(0, 300))}`
      : serverMessage
        ? `: ${serverMessage}`
        : html
          ? ' (the body was a web page, not the API)'
          : '';
  const what = `${method} ${path} -> ${status} ${reason}${apiCode ? ` (${apiCode})` : ''}${said}`;
  const { message, hint } = explain(w, path, status, what);
  const init = {
    method,
    path,
    status,
    ...(apiCode !== undefined ? { apiCode } : {}),
    ...(serverMessage !== undefined ? { serverMessage } : {}),
    jsonBody,
  };
  const error = new ApiError(init, message, hint ? { hint } : {});
  return { error, ...(apiCode !== undefined ? { apiCode } : {}) };
}

/** The message and hint of a status: what it means for wsc, and what to check. */
function explain(w: Wording, path: string, status: number, what: string): { message: string; hint?: string } {
  const deployment = /\/deployments\/(\d+)(?:\/|$)/.exec(path)?.[1];
  if (status >= 300 && status < 400) {
    return {
      message: `The server redirected the request: ${what}`,
      hint:
        `Check the base URL (${w.baseUrl}): give the host that serves the API. wsc does not follow redirects, ` +
        'so the token is never sent anywhere else.',
    };
  }
  switch (status) {
    case 401:
      return {
        message: `The API rejected the token: ${what}`,
        hint: rejectedToken(w.tokenSource),
      };
    case 403:
      return {
        message: `Access denied: ${what}`,
        hint: deployment
          ? `The token is valid but may not do this in deployment ${deployment}: check its role, ` +
            'and that a scoped key covers this deployment.'
          : 'The token is valid but may not do this: check its role (user attributes need an admin).',
      };
    case 404:
      if (deployment) {
        return {
          message: `Not found: ${what}`,
          hint:
            `Deployment ${deployment} does not exist or the token cannot see it (or the resource was deleted): ` +
            'check --deployment / deploymentId.',
        };
      }
      return { message: `Not found: ${what}`, hint: 'Check the base URL and that this tenant offers the endpoint.' };
    case 429:
    case 502:
    case 503:
    case 504:
      return {
        message: `The server is busy or unavailable: ${what}`,
        hint: 'Try again later, or raise --max-retries.',
      };
    default:
      if (status >= 500) {
        return {
          message: `The server failed: ${what}`,
          hint: "A server error; try again, and report it to the server's operators if it persists.",
        };
      }
      return { message: `The API refused the request: ${what}` };
  }
}

/** No answer: refused, reset, timed out, unknown host, or the client closing. */
export function networkError(w: Wording, method: string, path: string, e: unknown, timedOut: boolean): NetworkError {
  // Plain seconds here, never minutes: a timeout is set in seconds (WSC_REQUEST_TIMEOUT).
  const secs = (ms: number) => `${Math.round(ms / 100) / 10} s`;
  const slow = 'The server is slow or not answering; check it, or raise WSC_REQUEST_TIMEOUT (seconds).';
  const noAnswer = `${method} ${path}: no answer from ${w.host} within ${secs(w.timeoutMs)}.`;
  if (w.closed()) return new NetworkError(method, path, `${method} ${path}: cancelled (the command is stopping).`);
  if (timedOut) return new NetworkError(method, path, noAnswer, { hint: slow });
  const name = (e as { code?: string } | null)?.code ?? '';
  const errno = errnoOf(e);
  if (name === 'UND_ERR_CONNECT_TIMEOUT' || errno === 'ETIMEDOUT') {
    return new NetworkError(method, path, `cannot connect to ${w.host} within ${secs(w.connectTimeoutMs)}.`, {
      hint: 'Check the base URL and your network.',
    });
  }
  if (name === 'UND_ERR_HEADERS_TIMEOUT' || name === 'UND_ERR_BODY_TIMEOUT') {
    return new NetworkError(method, path, noAnswer, { hint: slow });
  }
  if (errno === 'ECONNREFUSED') {
    return new NetworkError(method, path, `cannot reach ${w.host}: is the server running? (connection refused)`, {
      hint: 'Check the base URL (--base-url, WSC_BASE_URL or baseUrl in wsc.yaml).',
    });
  }
  if (errno === 'ENOTFOUND' || errno === 'EAI_AGAIN') {
    const message = `cannot resolve the host name of ${w.host}.`;
    return new NetworkError(method, path, message, { hint: 'Check the base URL.' });
  }
  const dropped =
    errno === 'ECONNRESET' ||
    errno === 'EPIPE' ||
    name.startsWith('UND_ERR_SOCKET') ||
    name === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH';
  if (dropped) {
    const message = `${method} ${path}: the connection to ${w.host} was closed before the answer was complete.`;
    const hint = 'The server or a proxy dropped the connection; try again.';
    return new NetworkError(method, path, message, { hint });
  }
  const msg = e instanceof Error ? e.message : String(e);
  return new NetworkError(method, path, w.redact(`${method} ${path}: no answer from ${w.host}: ${msg}`));
}
