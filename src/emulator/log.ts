// The request log that tests read.
export interface RequestLogEntry {
  seq: number;
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string>;
  /** HTTP status answered; 0 when the connection was reset without an answer. */
  status: number;
  /** Parsed JSON body (or the raw text when it was not JSON); undefined when none. */
  requestBody: unknown;
  responseBody?: unknown;
  /** Email of the authenticated caller. */
  user?: string;
  /** The Authorization header as sent: tests check which token went where. */
  authorization?: string;
  /** The injected fault, if any (`429`, `reset-after`, ...). */
  fault?: string;
  startedAt: string;
  durationMs: number;
}

/**
 * Entries that may have changed the content (every method but GET/HEAD; a deployment token
 * minted for the semantic check changes no content).
 */
export function writes(log: readonly RequestLogEntry[]): RequestLogEntry[] {
  return log.filter((e) => e.method !== 'GET' && e.method !== 'HEAD' && !/\/deployments\/[^/]+\/token$/.test(e.path));
}

/** Entries matching a method and a path (string = equal, RegExp = test). */
export function requests(log: readonly RequestLogEntry[], method: string, path?: string | RegExp): RequestLogEntry[] {
  return log.filter(
    (e) =>
      e.method === method.toUpperCase() &&
      (path === undefined || (typeof path === 'string' ? e.path === path : path.test(e.path))),
  );
}

/**
 * An answer is a JSON object or array, never null (`??=` parses once), or JSON lines (`/v1/cubesql`): then the
 * list of its lines' values. A test printing a log entry must not fail on its own answer.
 */
export function lazyResponseBody(entry: RequestLogEntry, bytes: Buffer): void {
  let parsed: unknown;
  const parse = (text: string): unknown => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text.split('\n').flatMap((line) => (line.trim() === '' ? [] : [JSON.parse(line) as unknown]));
    }
  };
  Object.defineProperty(entry, 'responseBody', {
    enumerable: true,
    configurable: true,
    get: () => (parsed ??= parse(bytes.toString('utf8'))),
  });
}
