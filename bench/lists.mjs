// The three lists of a deployment as a plain script reads them with fetch and
// JSON.parse: each one cursor chain of full pages, the three side by side.
// Shared by the two scripts the bench runs beside wsc (bench/honest.mjs,
// bench/same-work.ts), so both read exactly alike. bench/lists-undici.mjs
// reads them the same way with undici's request (a row of the floor).

/** fetch's answer as the pager reads it: the status and the body's text. */
async function fetchText(url, headers) {
  const res = await fetch(url, { headers });
  return { status: res.status, text: await res.text() };
}

/** Every item of one list, page after page (a page's request needs the previous page's cursor). */
async function readAll(get, base, path, pageSize, token) {
  const headers = { authorization: `Bearer ${token}` };
  const items = [];
  let after;
  for (;;) {
    const query = new URLSearchParams({ first: pageSize, ...(after ? { after } : {}) });
    const res = await get(`${base}${path}?${query}`, headers);
    if (res.status < 200 || res.status > 299) throw new Error(`GET ${path}: ${res.status}`);
    const page = JSON.parse(res.text);
    items.push(...page.items);
    if (!page.pageInfo?.hasNextPage) return items;
    after = page.pageInfo.endCursor;
  }
}

/** The reports, workbooks and user attributes of a deployment, read side by side, each page got with `get`. */
export function readListsWith(get, base, deployment, pageSize, token) {
  return Promise.all([
    readAll(get, base, `/api/v1/deployments/${deployment}/reports`, pageSize, token),
    readAll(get, base, `/api/v1/deployments/${deployment}/workbooks`, pageSize, token),
    readAll(get, base, '/api/v1/user-attributes', pageSize, token),
  ]);
}

/** The reports, workbooks and user attributes of a deployment, read side by side with fetch. */
export function readLists(base, deployment, pageSize, token) {
  return readListsWith(fetchText, base, deployment, pageSize, token);
}
