// The single settings record: payment details, the QR code and the blast image switch.
import { SettingsInputSchema, SettingsSchema, type Settings } from '../../../common/settings.ts';
import type { App, AppContext } from '../../app-context.ts';
import { bool, now, type Db } from '../../db/connection.ts';

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

export function settingsRoutes(app: App, { database: { db } }: AppContext) {
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
      await db
        .insertInto('settings')
        .values({ id: 1, ...values })
        .onConflict((oc) => oc.column('id').doUpdateSet(values))
        .execute();
      return readSettings(db);
    },
  );
}
