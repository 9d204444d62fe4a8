// bench/lists.mjs's reads, each page got with undici's `request` (the HTTP
// client wsc is built on) instead of fetch. The same-work script built with
// it (bench/build-scripts.ts) is a row of the floor, reported and not a
// target: what that client costs a process by itself, loading it and parsing
// HTTP with it, beside the script that uses fetch.
import { request } from 'undici';
import { readListsWith } from './lists.mjs';

async function requestText(url, headers) {
  const res = await request(url, { headers });
  return { status: res.statusCode, text: await res.body.text() };
}

/** The reports, workbooks and user attributes of a deployment, read side by side with undici. */
export function readLists(base, deployment, pageSize, token) {
  return readListsWith(requestText, base, deployment, pageSize, token);
}
