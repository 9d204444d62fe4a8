// The fetch-only script the benchmark reports beside `wsc plan` (not a target:
// it does a fraction of the work): the shortest script that reads a deployment
// as wsc must, with nothing but fetch and JSON.parse (bench/lists.mjs). It
// prints how many items it read. What it leaves out (the bundle, schema
// checks, the plan, the output) is what wsc adds to the same reads.
//
//   node bench/honest.mjs BASE_URL DEPLOYMENT PAGE_SIZE   (token in WSC_TOKEN)
import { readLists } from './lists.mjs';

const [base, deployment, pageSize] = process.argv.slice(2);
const lists = await readLists(base, deployment, pageSize, process.env.WSC_TOKEN);
console.log(lists.map((l) => l.length).join(' '));
