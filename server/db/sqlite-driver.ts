// better-sqlite3 for the Node.js that runs: version 13 (Node-API, for Node 22 and later) or, on
// Node 20, version 12, compiled for it at install. Neither works on the other's Node: 12's
// statements abort the process when the garbage collector frees them on Node 24.19 and later,
// and 13 crashes on Node 20. Node 20 is past its end of life but still the Node of this project's
// machines; when they move on, version 12 and this choice go (docs/decisions/081).
import { createRequire } from 'node:module';
import type SQLite from 'better-sqlite3';

const require = createRequire(import.meta.url);

/** The better-sqlite3 module for this Node.js, loaded when first asked for. */
export function loadSqlite(): typeof SQLite {
  const major = Number(process.versions.node.split('.')[0]);
  return require(major >= 22 ? 'better-sqlite3' : 'better-sqlite3-12') as typeof SQLite;
}
