// The production server as one ES module, dist/server/main.js: loading one file instead of
// hundreds of modules (and no TypeScript compiler at run time) cuts the cold start and the
// memory at rest. Native addons stay outside the bundle.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Bundles server/main.ts into `outfile` (tests and the bench build their own copy). */
export function bundleServer(outfile = path.join(ROOT, 'dist', 'server', 'main.js')): string {
  buildSync({
    entryPoints: [path.join(ROOT, 'server', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    external: ['better-sqlite3', 'better-sqlite3-12', 'sharp', '@node-rs/argon2', 'pg-native'],
    // Without comments and spaces the source V8 keeps in memory is 2.5 MB of one-byte text instead
    // of 7.5 MB of two-byte text (a few comments in dependencies are not ASCII). Identifiers are
    // not minified, so stack traces still read; esbuild's keepNames is not used: it wraps every
    // function made at run time in a call, which cost a fifth of a `/api/auth/me` answer.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    // Bundled CommonJS packages call require(); an ES module has none of its own.
    banner: {
      js: "import { createRequire as sebarRequire } from 'node:module'; const require = sebarRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  bundleServer(process.argv[2] && path.resolve(process.argv[2]));
}
