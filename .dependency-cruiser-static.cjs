// What a command loads before it runs, checked by dependency-cruiser in
// `npm run lint` over the imports that load a module: static ones, not
// `import type` (erased) nor `await import(…)` (loaded only when that path
// runs: validate's `--semantic-check`). .dependency-cruiser.cjs holds every other rule, over
// every import. test/dependency-rules.test.ts shows that this rule can fail.

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'validate-offline',
      severity: 'error',
      comment:
        'wsc validate works offline and starts fast: it never loads the HTTP client (api/client.ts) or undici, ' +
        'but through the lazy import of --semantic-check.',
      from: { path: '^src/commands/validate\\.ts$' },
      to: { path: ['^src/api/client\\.ts$', '^node_modules/undici/'], reachable: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/', dynamic: true },
    tsPreCompilationDeps: false,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
