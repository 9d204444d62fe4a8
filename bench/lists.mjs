// The three lists of a deployment as a plain script reads them with fetch and
// JSON.parse: each one cursor chain of full pages, the three side by side.
// Shared by the two scripts the bench runs beside wsc (bench/honest.mjs,
// bench/same-work.ts), so both read exactly alike.

/** Every item of one list, page after page (a page's request needs the previous page's cursor). */
async function readAll(base, path, pageSize, token) {
  const headers = { authorization: `Bearer ${token}` };
  const items = [];
  let after;
  for (;;) {
    const query = new URLSearchParams({ first: pageSize, ...(after ? { after } : {}) });
    const res = await fetch(`${base}${path}?${query}`, { headers });
    if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
    const page = JSON.parse(await res.text());
    items.push(...page.items);
    if (!page.pageInfo?.hasNextPage) return items;
    after = page.pageInfo.endCursor;
  }
}

/** The reports, workbooks and user attributes of a deployment, read side by side. */
export function readLists(base, deployment, pageSize, token) {
  return Promise.all([
    readAll(base, `/api/v1/deployments/${deployment}/reports`, pageSize, token),
    readAll(base, `/api/v1/deployments/${deployment}/workbooks`, pageSize, token),
    readAll(base, '/api/v1/user-attributes', pageSize, token),
  ]);
}
