// Accounts: presenting users, the first administrator, and the admin's client management.
import crypto from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { User } from '#common/auth.ts';
import { formatNumber } from '#common/format.ts';
import type { PageQuery } from '#common/pagination.ts';
import {
  CreateUserSchema,
  type ChangePassword,
  type CreateUser,
  type UpdateUser,
  type UserPage,
} from '#common/users.ts';
import { now, type DbHandle } from '#server/db/connection.ts';
import { pageWindow } from '#server/db/pages.ts';
import { forUpdate, transact, type Tx } from '#server/db/transaction.ts';
import type { Database, UsersTable } from '#server/db/schema.ts';
import { hashPassword } from '#server/modules/auth/passwords.ts';
import type { AuthUser } from '#server/plugins/auth.ts';
import { conflict, notFound } from '#server/plugins/errors.ts';
import { recordAudit } from '#server/modules/audit/audit.service.ts';
import { applyPoints } from '#server/modules/points/ledger.ts';
import type { FileStore } from '#server/modules/uploads/file-store.ts';
import { removeFiles } from '#server/modules/uploads/uploads.service.ts';

export const EMAIL_TAKEN = 'Email sudah terdaftar';
export const USERNAME_TAKEN = 'Username sudah digunakan';

export function toUser(row: AuthUser): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    role: row.role,
    points: row.points,
    is_active: Boolean(row.is_active),
    created_at: row.created_at,
  };
}

const normalEmail = (email: string) => email.trim().toLowerCase();

async function emailTaken(db: Kysely<Database>, email: string, exceptId?: string) {
  let query = db.selectFrom('users').select('id').where('email', '=', normalEmail(email));
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/**
 * Whether another account has this username in any letter case: compared with the database's
 * lower(), the expression of the unique index (migration 008), so the check and the index agree.
 */
async function usernameTaken(db: Kysely<Database>, username: string, exceptId?: string) {
  let query = db
    .selectFrom('users')
    .select('id')
    .where(sql`lower(username)`, '=', sql`lower(${username})`);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Refuses an email or a username another account has (409, before any change). */
async function checkUnique(
  db: Kysely<Database>,
  input: { email: string; username: string },
  id?: string,
) {
  if (await emailTaken(db, input.email, id)) throw conflict(EMAIL_TAKEN);
  if (await usernameTaken(db, input.username, id)) throw conflict(USERNAME_TAKEN);
}

/**
 * A unique index caught what the check above let through (the same name saved twice at once):
 * the same 409 the check gives, with the reason.
 */
async function uniqueRace<T>(
  database: DbHandle,
  input: { email: string; username: string },
  id: string | undefined,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE')
      await checkUnique(database.db, input, id);
    throw error;
  }
}

/**
 * Creates the first super administrator when there is none; answers a generated password.
 * Instances starting together may all find none: the insert that loses the race does nothing
 * and answers null, so only the instance whose admin was stored prints a password.
 */
export async function ensureAdmin(
  { db }: DbHandle,
  email: string | null,
  password: string | null,
): Promise<{ email: string; generatedPassword: string | null } | null> {
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'super_admin')
    .executeTakeFirst();
  if (existing) return null;
  const generated = password ? null : crypto.randomBytes(12).toString('base64url');
  // Held to the rules of an account the admin creates: one that could never sign in is refused.
  const checked = CreateUserSchema.pick({ email: true, password: true }).safeParse({
    email: email ?? 'admin@sebar.local',
    password: password ?? generated,
  });
  if (!checked.success) {
    const reasons = checked.error.issues.map((issue) => issue.message).join('; ');
    throw new Error(`SEBAR_ADMIN_EMAIL / SEBAR_ADMIN_PASSWORD: ${reasons}`);
  }
  const adminEmail = normalEmail(checked.data.email);
  const timestamp = now();
  const inserted = await db
    .insertInto('users')
    .values({
      id: crypto.randomUUID(),
      username: 'admin',
      email: adminEmail,
      password_hash: await hashPassword(checked.data.password),
      role: 'super_admin',
      points: 0,
      ledger_seq: 0,
      is_active: 1,
      token_version: 0,
      created_at: timestamp,
      updated_at: timestamp,
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  if (!inserted.numInsertedOrUpdatedRows) return null;
  return { email: adminEmail, generatedPassword: generated };
}

export async function listClients(
  { db }: DbHandle,
  { page, page_size }: PageQuery,
): Promise<UserPage> {
  const clients = db.selectFrom('users').where('role', '=', 'client');
  const stats = await clients
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>('is_active').as('active'),
      eb.fn.sum<number>('points').as('points'),
    ])
    .executeTakeFirstOrThrow();
  const total = Number(stats.total);
  const window = pageWindow(page, page_size, total);
  const order = window.reverse ? 'asc' : 'desc';
  const rows = await clients
    .selectAll()
    .orderBy('created_at', order)
    .orderBy('id', order)
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  if (window.reverse) rows.reverse();
  const totalPoints = Number(stats.points ?? 0);
  return {
    items: rows.map(toUser),
    total,
    page,
    page_size,
    summary: {
      total_clients: total,
      active_clients: Number(stats.active ?? 0),
      total_points: totalPoints,
      average_points: total ? Math.round(totalPoints / total) : 0,
    },
  };
}

/** Creates a client or, when the admin asks for one, another super administrator. */
export async function createUser(database: DbHandle, actorId: string, input: CreateUser) {
  await checkUnique(database.db, input);
  const timestamp = now();
  const row: UsersTable = {
    id: crypto.randomUUID(),
    username: input.username,
    email: normalEmail(input.email),
    password_hash: await hashPassword(input.password),
    role: input.role,
    points: 0,
    ledger_seq: 0,
    is_active: 1,
    token_version: 0,
    created_at: timestamp,
    updated_at: timestamp,
  };
  await uniqueRace(database, input, undefined, () =>
    transact(database, async ({ db: trx }) => {
      const inserted = await trx
        .insertInto('users')
        .values(row)
        .onConflict((oc) => oc.column('email').doNothing())
        .executeTakeFirst();
      if (!inserted.numInsertedOrUpdatedRows) throw conflict(EMAIL_TAKEN);
      await recordAudit(trx, {
        actorId,
        action: 'user.create',
        targetType: 'user',
        targetId: row.id,
        after: toUser(row),
      });
    }),
  );
  return toUser(row);
}

async function clientForUpdate(tx: Tx, id: string) {
  const row = await forUpdate(
    tx,
    tx.db.selectFrom('users').selectAll().where('id', '=', id).where('role', '=', 'client'),
  ).executeTakeFirst();
  if (!row) throw notFound('Klien');
  return row;
}

/** Edits a client; a changed balance is an `adjustment` entry of the difference. */
export async function updateClient(
  database: DbHandle,
  actorId: string,
  id: string,
  input: UpdateUser,
) {
  return uniqueRace(database, input, id, () =>
    transact(database, async (tx) => {
      const trx = tx.db;
      // An unknown id is a 404 before any name is compared.
      const before = await clientForUpdate(tx, id);
      await checkUnique(trx, input, id);
      const expected = input.expected_points;
      const untouched = expected !== undefined && input.points === expected;
      if (expected !== undefined && !untouched && before.points !== expected)
        throw conflict(
          `Poin klien berubah menjadi ${before.points} sejak form dibuka. Tutup dan buka lagi form untuk mengubah poin.`,
        );
      const delta = untouched ? 0 : input.points - before.points;
      await applyPoints(tx, {
        userId: id,
        type: 'adjustment',
        delta,
        description: `Penyesuaian saldo oleh admin (${formatNumber(before.points)} → ${formatNumber(before.points + delta)})`,
      });
      const deactivated = before.is_active && !input.is_active;
      const after = await trx
        .updateTable('users')
        .set({
          username: input.username,
          email: normalEmail(input.email),
          is_active: input.is_active ? 1 : 0,
          token_version: deactivated ? before.token_version + 1 : before.token_version,
          updated_at: now(),
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        actorId,
        action: 'user.update',
        targetType: 'user',
        targetId: id,
        before: toUser(before),
        after: toUser(after),
      });
      return toUser(after);
    }),
  );
}

/** Sets a new password; every token issued before stops working. Answers the client's email. */
export async function changeClientPassword(
  database: DbHandle,
  actorId: string,
  id: string,
  input: ChangePassword,
) {
  const passwordHash = await hashPassword(input.new_password);
  return transact(database, async (tx) => {
    const trx = tx.db;
    const before = await clientForUpdate(tx, id);
    await replacePassword(trx, before, passwordHash).execute();
    await recordAudit(trx, { actorId, action: 'user.password', targetType: 'user', targetId: id });
    return before.email;
  });
}

/** The update that sets a user's password and ends every token issued before it. */
const replacePassword = (
  trx: Transaction<Database>,
  user: { id: string; token_version: number },
  passwordHash: string,
) =>
  trx
    .updateTable('users')
    .set({ password_hash: passwordHash, token_version: user.token_version + 1, updated_at: now() })
    .where('id', '=', user.id);

/**
 * A signed-in user's own new password (the current one was checked by the route): every other
 * token of theirs stops working; the answer is the user with the new token version.
 */
export async function changeOwnPassword(database: DbHandle, id: string, newPassword: string) {
  const passwordHash = await hashPassword(newPassword);
  return transact(database, async (tx) => {
    const trx = tx.db;
    const before = await forUpdate(
      tx,
      trx.selectFrom('users').selectAll().where('id', '=', id),
    ).executeTakeFirstOrThrow();
    const after = await replacePassword(trx, before, passwordHash)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      actorId: id,
      action: 'user.password',
      targetType: 'user',
      targetId: id,
    });
    return after;
  });
}

/** The account the admin lifts sign-in waits of (any role: another admin may be the one). */
export async function accountOf({ db }: DbHandle, id: string) {
  const user = await db
    .selectFrom('users')
    .select(['id', 'username', 'email'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!user) throw notFound('Akun');
  return user;
}

/**
 * Deletes a client with its blasts, requests, ledger and uploaded images; the audit record keeps
 * the forfeited balance.
 */
export async function deleteClient(
  database: DbHandle,
  files: FileStore,
  actorId: string,
  id: string,
) {
  const { user, images } = await transact(database, async (tx) => {
    const trx = tx.db;
    // An approval locks its request, then the account: the deletion takes them in that order too.
    await forUpdate(
      tx,
      trx.selectFrom('point_requests').select('id').where('user_id', '=', id),
    ).execute();
    const before = await clientForUpdate(tx, id);
    // Explicit order (children first) so neither engine depends on cascade settings.
    const blastIds = trx.selectFrom('blasts').select('id').where('user_id', '=', id);
    await trx.deleteFrom('blast_numbers').where('blast_id', 'in', blastIds).execute();
    for (const table of [
      'point_transactions',
      'blasts',
      'point_requests',
      'idempotency_keys',
    ] as const) {
      await trx.deleteFrom(table).where('user_id', '=', id).execute();
    }
    await trx.deleteFrom('users').where('id', '=', id).execute();
    const images = await trx
      .deleteFrom('uploads')
      .where('user_id', '=', id)
      .returning('name')
      .execute();
    await recordAudit(trx, {
      actorId,
      action: 'user.delete',
      targetType: 'user',
      targetId: id,
      before: { ...toUser(before), points_forfeited: before.points },
    });
    return { user: toUser(before), images: images.map((row) => row.name) };
  });
  await removeFiles(files, images);
  return user;
}
