// The delivery mode written straight into its settings row, for tests of what a mode does to
// blasts without going through 'Pengiriman' (whose gateway settings are saved elsewhere).
import type { Db } from '#server/db/connection.ts';
import { now } from '#server/db/connection.ts';
import type { DeliverySettingsTable } from '#server/db/schema.ts';

/** Sets the mode, creating the row (nothing else set: no Cloud API credentials) when absent. */
export async function writeDeliveryMode(db: Db, mode: DeliverySettingsTable['mode']) {
  const updated_at = now();
  await db
    .insertInto('delivery_settings')
    .values({
      id: 1,
      mode,
      graph_url: 'https://graph.facebook.com',
      api_version: 'v23.0',
      phone_number_id: '',
      business_account_id: '',
      access_token: null,
      app_secret: null,
      verify_token: null,
      messages_per_second: 20,
      daily_recipient_limit: null,
      updated_at,
    })
    .onConflict((oc) => oc.column('id').doUpdateSet({ mode, updated_at }))
    .execute();
}
