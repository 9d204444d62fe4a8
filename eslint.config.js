// `npm run lint` runs this, then `prettier --check`. typescript-eslint's
// type-checked recommended rules over the TypeScript that tsconfig.json
// covers (src/, test/, bench/), the plain recommended rules over the rest.
// Formatting is prettier's alone: no stylistic rule here but the length of
// comment lines, which prettier does not wrap.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { builtinRules } from 'eslint/use-at-your-own-risk';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** A function's name as written: its own, or the variable, property or method it is assigned to. */
function functionName(node) {
  const p = node.parent;
  return node.id?.name ?? (p?.type === 'VariableDeclarator' ? p.id.name : (p?.key?.name ?? p?.key?.value));
}

/**
 * ESLint's max-lines-per-function with declarative tables exempted by name
 * (`{ max, tables: [names] }`): a table of command declarations or seed data
 * reads best whole, and its length is a count of entries, not of steps.
 */
const maxLinesPerFunction = {
  meta: { ...builtinRules.get('max-lines-per-function').meta, schema: false },
  create(context) {
    const [{ max, tables = [] }] = context.options;
    const inner = Object.create(context, {
      options: { value: [{ max }] },
      report: { value: (d) => tables.includes(functionName(d.node)) || context.report(d) },
    });
    return builtinRules.get('max-lines-per-function').create(inner);
  },
};

export default defineConfig(
  {
    ignores: [
      'dist/',
      'coverage/',
      'bench-results/',
      'test-artifacts/',
      'node_modules/',
      'contract/node_modules/',
      'schemas/',
      'fixtures/',
      '.wsc/',
      '.scratch/',
      'tmp/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Lines under 120 characters. Prettier wraps code at 120 but leaves
      // comments and string literals as they are: a long message is written
      // as a concatenation of pieces.
      'max-len': ['error', { code: 120, tabWidth: 2, ignoreUrls: true, ignorePattern: '// eslint-disable' }],
      // A leading underscore names what is deliberately unused: a parameter an
      // interface requires, a member left out of a copy by destructuring.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // An async function without await is how a promise-returning interface
      // is implemented here (the port, the export sink, fakes in tests): a
      // throw inside it still becomes a rejection.
      '@typescript-eslint/require-await': 'off',
      // A caught value is rethrown as it came (unknown), and an aborted wait
      // rejects with the signal's reason (any): both keep the original error.
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      // Values from outside (a server's answer, a bundle file) are stringified
      // for messages after checks the rule cannot follow (narrowed unknowns,
      // JSON scalars); canonical JSON stringifies what JSON lacks on purpose.
      '@typescript-eslint/no-base-to-string': 'off',
      // Each command's options type is named for the command even when it adds
      // nothing to the common ones (`ValidateOptions extends CommonOptions {}`).
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      // zod's named `z` is its whole namespace as one object: the bundle then
      // carries zod's 64 locales, and every command loads them (14 ms).
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "ImportDeclaration[source.value='zod'][importKind!='type'] > " +
            "ImportSpecifier[imported.name='z'][importKind!='type']",
          message: "Write `import * as z from 'zod'`: the named `z` puts all of zod's locales in the bundle.",
        },
      ],
    },
  },
  {
    // Small files named for what they hold (CONTRIBUTING): no file of src/
    // longer than 450 lines, blank lines and comments included.
    files: ['src/**/*.ts'],
    plugins: { wsc: { rules: { 'max-lines-per-function': maxLinesPerFunction } } },
    rules: {
      'max-lines': ['error', { max: 450 }],
      // No function over 100 lines (blank lines and comments included) but the
      // declarative tables: every command's declaration (cli.ts), the
      // emulator's UI-made seed and its default data model (data written out,
      // no steps; a generator such as generateSeed is split like any code).
      'wsc/max-lines-per-function': ['error', { max: 100, tables: ['buildCli', 'uiMadeSeed', 'defaultModel'] }],
    },
  },
  {
    // Tests reach into parsed JSON (a plan, a request log, a server's body)
    // and pass methods to expect() and fakes: the assertion is the check, so
    // the rules about `any` and unbound methods only add casts.
    files: ['test/**/*.ts'],
    rules: {
      // An expected output line or a regular expression reads best whole.
      'max-len': [
        'error',
        {
          code: 120,
          tabWidth: 2,
          ignoreUrls: true,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreRegExpLiterals: true,
          ignorePattern: '// eslint-disable',
        },
      ],
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // Plain JavaScript (scripts, the launcher, the preview page, this file)
    // is outside tsconfig.json: no type information for it.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // The preview page runs in the browser.
    files: ['assets/preview/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
