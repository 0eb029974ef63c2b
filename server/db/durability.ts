// Asserts at start that the database keeps what it acknowledges; answers warnings to log.
import { sql } from 'kysely';
import type { DbHandle } from './connection.ts';

export async function checkDurability({ db, engine }: DbHandle): Promise<string[]> {
  if (engine === 'sqlite') {
    const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
    const sync = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
    const problems: string[] = [];
    if (journal.rows[0]?.journal_mode !== 'wal') problems.push('SQLite is not in WAL mode');
    if (sync.rows[0]?.synchronous !== 2) problems.push('SQLite synchronous is not FULL');
    if (problems.length) throw new Error(problems.join('; '));
    return [];
  }
  const warnings: string[] = [];
  for (const setting of ['fsync', 'synchronous_commit', 'full_page_writes']) {
    const result = await sql<{
      value: string;
    }>`select current_setting(${setting}) as value`.execute(db);
    if (result.rows[0]?.value !== 'on') {
      warnings.push(
        `PostgreSQL ${setting} is ${result.rows[0]?.value}: acknowledged writes may be lost in a crash`,
      );
    }
  }
  return warnings;
}
