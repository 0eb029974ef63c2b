// The single settings record: read with defaults, and saved with the QR upload it replaces.
import type { Role } from '#common/auth.ts';
import type { PublicSettings, Settings, SettingsInput } from '#common/settings.ts';
import { bool, now, type Db, type DbHandle } from '#server/db/connection.ts';
import { holdSingleRow, transact } from '#server/db/transaction.ts';
import { readDeliveryMode } from '#server/modules/delivery/delivery.service.ts';
import type { FileStore } from '#server/modules/uploads/file-store.ts';
import { endingName, removeFiles, storedFile } from '#server/modules/uploads/uploads.service.ts';

export async function readSettings(db: Db): Promise<Settings> {
  const row = await db.selectFrom('settings').selectAll().where('id', '=', 1).executeTakeFirst();
  return {
    account_number: row?.account_number ?? '',
    account_name: row?.account_name ?? '',
    bank_name: row?.bank_name ?? '',
    barcode_url: row?.barcode_url ?? null,
    qr_code_file: row?.qr_code_file ?? null,
    qr_data_url: row?.qr_data_url ?? null,
    allow_images: Boolean(row?.allow_images),
  };
}

/** The settings as users read them: with the delivery mode, which decides the blast form. */
export async function readPublicSettings(db: Db): Promise<PublicSettings> {
  const [settings, mode] = await Promise.all([readSettings(db), readDeliveryMode(db)]);
  return { ...settings, delivery_mode: mode };
}

/** Saves the settings; a QR upload they named before and no longer name is removed. */
export async function saveSettings(
  database: DbHandle,
  files: FileStore,
  input: SettingsInput,
): Promise<Settings> {
  const values = { ...input, allow_images: bool(input.allow_images), updated_at: now() };
  const replaced = await transact(database, async (tx) => {
    const trx = tx.db;
    // Saves queue on the row, so each sees the QR the previous one left and removes it.
    await holdSingleRow(tx, 'settings', {
      id: 1,
      account_number: '',
      account_name: '',
      bank_name: '',
      allow_images: 0,
      updated_at: now(),
    });
    const before = await readSettings(trx);
    await trx
      .insertInto('settings')
      .values({ id: 1, ...values })
      .onConflict((oc) => oc.column('id').doUpdateSet(values))
      .execute();
    // A QR upload the settings named before and no longer name is of no use: it goes.
    // Named means as the QR fallback reads it: any address ending in the file's name.
    const kept = [values.qr_code_file, values.barcode_url].map(endingName);
    const names = [before.qr_code_file, before.barcode_url].flatMap((url) => {
      const name = endingName(url);
      return name && !kept.includes(name) ? [name] : [];
    });
    if (names.length === 0) return [];
    const gone = await trx
      .deleteFrom('uploads')
      .where('name', 'in', names)
      .where('kind', '=', 'qr')
      .returning('name')
      .execute();
    return gone.map((row) => row.name);
  });
  await removeFiles(files, replaced);
  return readSettings(database.db);
}

/**
 * A QR upload as the QR fallback reads it: the admin may read any, a client only the one the
 * settings currently name (any address ending in the file's name).
 */
export async function qrFile(db: Db, files: FileStore, filename: string, role: Role) {
  if (role !== 'super_admin') {
    const settings = await readSettings(db);
    const current = [settings.qr_code_file, settings.barcode_url].some((url) =>
      url?.endsWith(`/${filename}`),
    );
    if (!current) return undefined;
  }
  return storedFile(db, files, filename);
}
