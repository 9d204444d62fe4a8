// The dependency rules between the files of src/, checked by dependency-cruiser
// in `npm run lint` (scripts/lint.mjs). Every import counts: static, dynamic
// (`await import(…)`) and type-only (tsPreCompilationDeps), since each couples
// the code. The one rule about what a command LOADS (validate and the HTTP
// client) needs the static graph alone: it is in .dependency-cruiser-static.cjs.
// test/dependency-rules.test.ts shows that each rule here can fail.

/** A path under src/ that is not in one of these parts (folders, or files directly in src/ without `.ts`). */
const outside = (...parts) => `^src/(?!(?:${parts.join('|')})(?:/|\\.ts$))`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import cycle between files of src/: a cycle makes the order modules load in matter, and hides layering.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-circular-folders',
      severity: 'error',
      comment:
        'No cycle between the folders of src/ either (api/ importing config/ and config/ importing api/, ' +
        'through files that form no cycle): a folder is a layer.',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'shared-files-are-leaves',
      severity: 'error',
      comment:
        'The files directly in src/ but main.ts and cli.ts (errors, env, redact, visible, timings, version, ' +
        'make-dir, process-guard, help) are what every folder shares: they import no folder of src/ but ' +
        'domain/ (the bottom, which imports nothing of wsc: visible.ts takes its character class there), ' +
        'so no cycle runs through them.',
      from: { path: '^src/[^/]+\\.ts$', pathNot: '^src/(main|cli)\\.ts$' },
      to: { path: '^src/[^/]+/', pathNot: '^src/domain/' },
    },
    {
      name: 'main-and-cli-on-top',
      severity: 'error',
      comment: 'main.ts (the one place that exits) is imported by no file of src/; cli.ts by main.ts alone.',
      from: { path: '^src/', pathNot: '^src/main\\.ts$' },
      to: { path: '^src/(main|cli)\\.ts$' },
    },
    {
      name: 'core-is-pure',
      severity: 'error',
      comment:
        'core is pure (no I/O, clock, environment): it sees the API and the bundle only through domain types ' +
        'and the ports it is given, so of wsc it imports only domain/, errors.ts and defaults.ts (constants ' +
        'and arithmetic on them: the max-deletes default is applied by prune).',
      from: { path: '^src/core/' },
      to: { path: outside('core', 'domain', 'errors', 'defaults') },
    },
    {
      name: 'core-no-io-modules',
      severity: 'error',
      comment: 'core does no I/O: of Node it uses node:crypto (hashes) alone.',
      from: { path: '^src/core/' },
      to: { dependencyTypes: ['core'], pathNot: '^(node:)?crypto$' },
    },
    {
      name: 'emulator-is-independent',
      severity: 'error',
      comment:
        'The emulator is an independent check on the client: it shares only the wire types (domain/) ' +
        'and make-dir.ts, never core/ or api/.',
      from: { path: '^src/emulator/' },
      to: { path: outside('emulator', 'domain', 'make-dir') },
    },
    {
      name: 'domain-is-the-bottom',
      severity: 'error',
      comment: 'domain/ is the bottom layer: everything may use it, it uses nothing of wsc.',
      from: { path: '^src/domain/' },
      to: { path: outside('domain') },
    },
    {
      name: 'render-does-no-io',
      severity: 'error',
      comment:
        'Renderers turn models into strings: they never import api/ or commands/, nor the spinner (ora: ' +
        'commands/progress.ts drives it with the strings render/ makes).',
      from: { path: '^src/render/' },
      to: { path: '^src/(api|commands)/|(^|/)node_modules/ora/' },
    },
    {
      name: 'render-no-io-modules',
      severity: 'error',
      comment:
        'Renderers return strings and write nothing: of Node they use node:module alone (the yaml library ' +
        'loaded on first use), never fs, streams, the process or a terminal.',
      from: { path: '^src/render/' },
      to: { dependencyTypes: ['core'], pathNot: '^(node:)?module$' },
    },
    {
      name: 'preview-offline',
      severity: 'error',
      comment: 'The preview reads files only: it never imports the HTTP client (api/) nor the commands.',
      from: { path: '^src/preview/' },
      to: { path: '^src/(api|commands)/' },
    },
    {
      name: 'yaml-below-config-and-bundle',
      severity: 'error',
      comment: 'yaml/ is what config/ and bundle/ share: it imports neither.',
      from: { path: '^src/yaml/' },
      to: { path: '^src/(config|bundle)/' },
    },
    {
      name: 'config-not-bundle',
      severity: 'error',
      comment: 'wsc.yaml is read without the bundle: config/ never imports bundle/.',
      from: { path: '^src/config/' },
      to: { path: '^src/bundle/' },
    },
    {
      name: 'bundle-not-config',
      severity: 'error',
      comment:
        'bundle/ never imports config/, but for the schema of wsc.yaml that json-schema.ts turns into JSON Schema.',
      from: { path: '^src/bundle/', pathNot: '^src/bundle/json-schema\\.ts$' },
      to: { path: '^src/config/' },
    },
    {
      name: 'no-dev-dependencies-in-src',
      severity: 'error',
      comment: 'src/ is what ships: it imports only dependencies, never a devDependency (not installed for users).',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-dev'] },
    },
    {
      name: 'no-undeclared-packages',
      severity: 'error',
      comment: 'A package src/ imports is declared in package.json (not reached through another one).',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to no file (a typo, a moved file).',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
