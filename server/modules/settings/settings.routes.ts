// The single settings record: payment details, the QR code and the blast image switch.
import { SettingsInputSchema, SettingsSchema, type Settings } from '../../../common/settings.ts';
import type { App, AppContext } from '../../app-context.ts';
import { bool, now, type Db } from '../../db/connection.ts';
import { forUpdate, transact } from '../../db/transaction.ts';
import { endingName, removeFiles } from '../uploads/uploads.service.ts';

const tags = ['settings'];

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

export function settingsRoutes(app: App, { database, files }: AppContext) {
  const { db } = database;
  app.get(
    '/api/admin/settings',
    { config: { access: 'admin' }, schema: { tags, response: { 200: SettingsSchema } } },
    () => readSettings(db),
  );
  app.get(
    '/api/public/settings',
    { config: { access: 'user' }, schema: { tags, response: { 200: SettingsSchema } } },
    () => readSettings(db),
  );
  app.post(
    '/api/admin/settings',
    {
      config: { access: 'admin' },
      // The inline QR image (data URL of an image up to 5 MB) rides along.
      bodyLimit: 8 * 1024 * 1024,
      schema: { tags, body: SettingsInputSchema, response: { 200: SettingsSchema } },
    },
    async (request) => {
      const values = {
        ...request.body,
        allow_images: bool(request.body.allow_images),
        updated_at: now(),
      };
      const replaced = await transact(database, async (tx) => {
        const trx = tx.db;
        // Saves queue on the row, so each sees the QR the previous one left and removes it.
        await forUpdate(tx, trx.selectFrom('settings').select('id').where('id', '=', 1)).execute();
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
      return readSettings(db);
    },
  );
}
