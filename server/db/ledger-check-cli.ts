// `npm run ledger:check`: checks the ledger of the configured database (DATABASE_URL, or the
// SQLite file in SEBAR_DATA_DIR, or a file given as the first argument) and exits 1 if broken.
import fs from 'node:fs';
import { loadConfig } from '#server/config.ts';
import { openDatabase } from './open.ts';
import { openSqlite, sqliteFile } from './sqlite.ts';
import { checkLedger, INVARIANTS } from './ledger-check.ts';

const config = loadConfig();
const file = process.argv[2] ?? (config.databaseUrl ? null : sqliteFile(config));
if (file && !fs.existsSync(file)) {
  console.error(`ledger:check: no database at ${file}`);
  process.exit(2);
}
const database = file ? openSqlite(file) : openDatabase(config);
try {
  const violations = await checkLedger(database.db);
  if (violations.length === 0) {
    console.log(`ledger:check: all ${INVARIANTS.length} invariants hold`);
  } else {
    for (const v of violations) console.error(`BROKEN: ${v.invariant}: ${v.detail}`);
    const broken = new Set(violations.map((v) => v.invariant));
    console.error(`ledger:check: ${broken.size} invariant(s) broken: ${[...broken].join('; ')}`);
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
