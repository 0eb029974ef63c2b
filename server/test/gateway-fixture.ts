// For the gateway tests: a Sebar test server in gateway mode pointed at a local WAHA, with paired
// devices, a fast pacing clock (`gatewaySecondMs`) and a funded client.
import { expect } from 'vitest';
import { outcomeBySuffix } from '#local-apis/waha/outcomes.ts';
import { startLocalWaha, type LocalWaha } from '#local-apis/waha/server.ts';
import type { LocalWahaOptions } from '#local-apis/waha/context.ts';
import { now } from '#server/db/connection.ts';
import type { Config } from '#server/config.ts';
import { ENGINE_DEFAULTS } from '#server/modules/delivery/engine-options.ts';
import { writeDeliveryMode } from './delivery-mode.ts';
import { readUntil, waitFor } from './processes.ts';
import { startServer, type TestServer } from './helpers.ts';
import { uploadImage } from './routes.ts';

export const WEBHOOK_SECRET = 'gateway-webhook-secret';

export interface GatewayPacingInput {
  min_delay_seconds: number;
  max_delay_seconds: number;
  daily_limit_per_device: number;
  sending_hours: string;
  check_numbers: boolean;
}

export interface GatewayFixture {
  server: TestServer;
  waha: LocalWaha;
  client: { id: string; token: string };
  /** Creates a free-text blast as the client; answers the created blast. */
  blast(numbers: string[], message?: string, imageUrl?: string): Promise<any>;
  /** Allows images and uploads a PNG as the client: its URL, for a blast's image. */
  image(): Promise<string>;
  read(id: string): Promise<any>;
  until(id: string, done: (blast: any) => boolean, timeoutMs?: number): Promise<any>;
  /** Saves the gateway's pacing settings (over the fixture's). */
  configure(pacing: Partial<GatewayPacingInput>): Promise<void>;
  /** A device paired at the local WAHA and known to Sebar as WORKING. */
  addDevice(session: string, phone: string): Promise<void>;
  close(): Promise<void>;
}

/** One pacing second lasts this long in the tests (gaps of 5-8 s take 100-160 ms). */
export const SECOND_MS = 20;

const PACING: GatewayPacingInput = {
  min_delay_seconds: 5,
  max_delay_seconds: 8,
  daily_limit_per_device: 500,
  sending_hours: '00:00-24:00',
  check_numbers: true,
};

export async function startGatewayFixture(
  options: { waha?: Partial<LocalWahaOptions>; config?: Partial<Config> } = {},
): Promise<GatewayFixture> {
  const server = await startServer({
    secretKey: 'gateway-test-key-0123456789',
    ...options.config,
    delivery: {
      ...ENGINE_DEFAULTS,
      retryBaseMs: 50,
      maxAttempts: 3,
      idleMs: 10,
      gatewaySecondMs: SECOND_MS,
      ...options.config?.delivery,
    },
  });
  const waha = await startLocalWaha({ ackDelayMs: 5, outcomes: outcomeBySuffix, ...options.waha });
  const { secrets } = server.context;
  let pacing = PACING;
  const configure = async (change: Partial<GatewayPacingInput>) => {
    pacing = { ...pacing, ...change };
    const row = {
      id: 1,
      provider: 'waha' as const,
      base_url: waha.url,
      api_key: secrets.seal(waha.options.apiKey),
      webhook_secret: secrets.seal(WEBHOOK_SECRET),
      session: 'default',
      ...pacing,
      check_numbers: pacing.check_numbers ? 1 : 0,
      updated_at: now(),
    };
    await server.database.db
      .insertInto('gateway_settings')
      .values(row)
      .onConflict((oc) => oc.column('id').doUpdateSet(row))
      .execute();
  };
  await configure({});
  await writeDeliveryMode(server.database.db, 'gateway');

  const admin = server.adminToken;
  const created = await server.createClient();
  const funded = await server.api('PUT', `/api/admin/users/${created.user.id}`, {
    token: admin,
    body: {
      username: created.user.username,
      email: created.user.email,
      points: 10_000,
      is_active: true,
    },
  });
  expect(funded.status).toBe(200);
  const client = { id: created.user.id, token: created.token };
  const read = async (id: string) =>
    (await server.api('GET', `/api/client/blast-requests/${id}`, { token: client.token })).body;

  return {
    server,
    waha,
    client,
    read,
    configure,
    async addDevice(session, phone) {
      // As the admin pairs one: added, its QR scanned, then listed WORKING with its number.
      const devices = '/api/admin/delivery/devices';
      const added = await server.api('POST', devices, { token: admin, body: { session } });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
      await waitFor(
        () => waha.session(session)?.status === 'SCAN_QR_CODE',
        5_000,
        `${session}'s QR`,
      );
      waha.pair(session, phone);
      await waitFor(
        async () => {
          const listed = await server.api('GET', devices, { token: admin });
          const device = listed.body.items.find((d: { session: string }) => d.session === session);
          return device?.status === 'WORKING' && device.phone === phone;
        },
        10_000,
        `${session} WORKING`,
      );
    },
    image: () => uploadImage(server, client.token),
    async blast(numbers, message = '{Halo|Hai} kak {nomor}, ada promo hari ini', imageUrl) {
      const answer = await server.api('POST', '/api/client/blast-requests', {
        token: client.token,
        body: { target_numbers: numbers, message, image_url: imageUrl ?? null },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body;
    },
    until(id, done, timeoutMs = 30_000) {
      return readUntil(() => read(id), done, timeoutMs, `blast ${id} done`);
    },
    async close() {
      await server.close();
      await waha.close();
    },
  };
}
