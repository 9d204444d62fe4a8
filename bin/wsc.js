#!/usr/bin/env node
// Launcher: the compiled CLI lives in dist/ (built by `npm ci` via `prepare`).
import('../dist/main.js').then((m) => m.main(process.argv));
