// Preloaded with `node --import` by test/cli/loaded-modules.test.ts: every
// module the process loads is appended, one URL a line, to the file named by
// WSC_TEST_LOADS (module hooks run on their own thread, so they write it).
import { register } from 'node:module';

const hooks = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, nextLoad) {
  appendFileSync(process.env.WSC_TEST_LOADS, url + '\\n');
  return nextLoad(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
