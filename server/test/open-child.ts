// A process that opens new SQLite files at agreed moments (server/db/open.test.ts runs two):
// argv: directory, rounds, the first moment (ms since the epoch), the interval between rounds.
import path from 'node:path';
import { sql } from 'kysely';
import { openSqlite } from '#server/db/sqlite.ts';

const [dir, rounds, first, interval] = process.argv.slice(2) as [string, string, string, string];
let failed = 0;
for (let round = 0; round < Number(rounds); round += 1) {
  const at = Number(first) + round * Number(interval);
  while (Date.now() < at); // both processes open the same new file in the same millisecond
  try {
    const handle = openSqlite(path.join(dir, `${round}.sqlite`));
    await sql`create table if not exists opened (pid integer)`.execute(handle.db);
    await sql`insert into opened values (${process.pid})`.execute(handle.db);
    await handle.close();
  } catch (error) {
    failed += 1;
    console.error(`round ${round}: ${(error as Error).message}`);
  }
}
process.exit(failed === 0 ? 0 : 1);
