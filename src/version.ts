// wsc's own version, from package.json. This file sits one level below the
// package root both as source (src/version.ts, run by tsx in tests) and once
// bundled (a chunk in dist/), so one relative path serves both.
import { createRequire } from 'node:module';

export const VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;
