// A request's body: read with a size cap, parsed as JSON and logged.
import type { IncomingMessage } from 'node:http';
import { badRequest, HttpError } from './http-error.js';
import type { RequestLogEntry } from './log.js';

const MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * The body parsed (logged as parsed, or as text when it is not JSON). A body
 * that is not a JSON object is refused only after routing and authentication,
 * as a server validates: its error is kept until then.
 */
export function readJsonBody(raw: Buffer, entry: RequestLogEntry): { parsed: unknown; error?: HttpError } {
  if (raw.length === 0) return { parsed: undefined };
  const text = raw.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    entry.requestBody = text;
    return { parsed: undefined, error: badRequest('The body is not valid JSON') };
  }
  entry.requestBody = parsed;
  if (parsed !== null && (typeof parsed !== 'object' || Array.isArray(parsed))) {
    return { parsed, error: badRequest('The body must be a JSON object') };
  }
  return { parsed };
}

/** Leaving the loop early (413) destroys the request. */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, 'The body is too large');
    chunks.push(c);
  }
  return Buffer.concat(chunks);
}
