// The honest alternative the benchmark runs beside `wsc plan`: the shortest
// script that reads a deployment as wsc must, with nothing but fetch and
// JSON.parse. The three lists at once, each one cursor chain of full pages;
// it prints how many items it read. What it leaves out (the bundle, schema
// checks, the plan, the output) is what wsc adds to the same reads.
//
//   node bench/honest.mjs BASE_URL DEPLOYMENT PAGE_SIZE   (token in WSC_TOKEN)
const [base, deployment, pageSize] = process.argv.slice(2);
const headers = { authorization: `Bearer ${process.env.WSC_TOKEN}` };

async function readAll(path) {
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

const lists = await Promise.all([
  readAll(`/api/v1/deployments/${deployment}/reports`),
  readAll(`/api/v1/deployments/${deployment}/workbooks`),
  readAll('/api/v1/user-attributes'),
]);
console.log(lists.map((l) => l.length).join(' '));
