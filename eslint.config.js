// One lint config: TypeScript rules plus the import direction (common <- server, common <- client;
// routes -> services, pages -> features).
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * Imports whose path matches `regex` (the subpath aliases of package.json, or node:) are refused,
 * and product code's imports of the local test doubles (`others`).
 */
const forbid = (regex, message, others = [localApis]) => ({
  'no-restricted-imports': ['error', { patterns: [{ regex, message }, ...others] }],
});

/** The local test doubles of outside services are separate programs: product code never imports
 * them, by alias or by relative path. Part of every folder's pattern list, since a later entry for
 * the same rule replaces an earlier one instead of adding to it. */
const localApis = {
  regex: '^#local-apis/|(^|/)local-apis(/|$)',
  message:
    'local-apis/ holds test doubles run as their own programs: product code never imports them',
};

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'data', 'coverage', '.tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // Promises are awaited or handed on; an event handler may start one (react-hook-form's submit).
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
    },
  },
  {
    // A product function does one thing and fits on a screen or two.
    files: ['server/**', 'client/**', 'common/**', 'local-apis/**', 'scripts/**'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'server/test/**'],
    rules: { 'max-lines-per-function': ['error', { max: 80 }] },
  },
  {
    // Tests read answers loosely on purpose: they assert on them.
    files: ['**/*.test.ts', 'server/test/**', 'e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['common/**'],
    rules: forbid('^(#(server|client)/|node:|\\.\\./)', 'common/ is pure: no I/O, no app code'),
  },
  {
    files: ['server/**'],
    rules: forbid('^#client/', 'server/ never imports client/'),
  },
  {
    files: ['client/**'],
    rules: forbid('^#server/', 'client/ never imports server/'),
  },
  {
    // The server's tests run the local test doubles against it.
    files: ['server/**/*.test.ts', 'server/test/**'],
    rules: forbid('^#client/', 'server/ never imports client/', []),
  },
  {
    // No import cycles. Two layers: a service holds rules and queries and never reaches back into
    // HTTP; a feature is shared by pages and never imports one.
    files: ['server/**', 'client/**', 'common/**'],
    plugins: { 'import-x': importX },
    // The plugin reads the imported TypeScript files too, found by Node's own resolution (which
    // follows the subpath aliases of package.json, #server/…): without both it sees no import.
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver()],
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './server/**/*.service.ts',
              from: './server/**/*.routes.ts',
              message: 'A service never imports routes: move the function into a service.',
            },
            {
              target: './client/features/**',
              from: './client/app/**/pages/**',
              message: 'A feature never imports a page.',
            },
          ],
        },
      ],
    },
  },
  {
    // The rules of hooks (and the React Compiler's checks that come with them) on the client.
    files: ['client/**'],
    ...reactHooks.configs.flat.recommended,
  },
);
