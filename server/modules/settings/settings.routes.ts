// The single settings record: payment details, the QR code and the blast image switch; users
// read it with the delivery mode.
import { PublicSettingsSchema, SettingsInputSchema, SettingsSchema } from '#common/settings.ts';
import type { App, AppContext } from '#server/app-context.ts';
import { readPublicSettings, readSettings, saveSettings } from './settings.service.ts';

const tags = ['settings'];

export function settingsRoutes(app: App, { database, files }: AppContext) {
  const { db } = database;
  app.get(
    '/api/admin/settings',
    { config: { access: 'admin' }, schema: { tags, response: { 200: SettingsSchema } } },
    () => readSettings(db),
  );
  app.get(
    '/api/public/settings',
    { config: { access: 'user' }, schema: { tags, response: { 200: PublicSettingsSchema } } },
    () => readPublicSettings(db),
  );
  app.post(
    '/api/admin/settings',
    {
      config: { access: 'admin' },
      // The inline QR image (data URL of an image up to 5 MB) rides along.
      bodyLimit: 8 * 1024 * 1024,
      schema: { tags, body: SettingsInputSchema, response: { 200: SettingsSchema } },
    },
    (request) => saveSettings(database, files, request.body),
  );
}
