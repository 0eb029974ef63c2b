// One test command: API tests on SQLite and on PostgreSQL, pure tests once (common, client,
// bench, local-apis), browser tests in Chromium. Test files run one per CPU; the browser tests
// run one at a time after them (decision 233).
import { defineConfig } from 'vitest/config';

const serverTests = ['server/**/*.test.ts'];

export default defineConfig({
  test: {
    reporters: ['default', './test-summary-reporter.ts'],
    maxWorkers: '100%',
    projects: [
      {
        test: {
          name: 'common',
          include: ['common/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'client',
          include: ['client/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'bench',
          include: ['bench/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'local-apis',
          include: ['local-apis/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'sqlite',
          include: serverTests,
          env: { TEST_DB: 'sqlite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'postgres',
          include: serverTests,
          env: { TEST_DB: 'postgres' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
