// The delivery settings over HTTP: manual by default, secrets write-only and sealed at rest, the
// Cloud API mode refused while incomplete, and what 'Tes Koneksi' says when it cannot connect.
import { cloudApiSettingsOf } from '#local-apis/cloud-api/test-helpers.ts';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalCloudApi } from '#local-apis/cloud-api/server.ts';
import { startServer, type TestServer } from '#server/test/helpers.ts';
import { expectCleanError, expectUnchanged } from '#server/test/spec.ts';
import { readDelivery } from './delivery.service.ts';
import { loadSecretBox } from './secret-box.ts';

const SECRET_KEY = 'delivery-test-key-0123456789';
let server: TestServer;
let admin = '';
let client = '';
beforeAll(async () => {
  server = await startServer({ secretKey: SECRET_KEY });
  admin = server.adminToken;
  client = (await server.createClient()).token;
});
afterAll(() => server?.close());

const CLOUD = {
  graph_url: 'http://127.0.0.1:9',
  api_version: 'v23.0',
  phone_number_id: '106540352242922',
  business_account_id: '102290129340398',
  access_token: 'EAAG-token-rahasia',
  app_secret: 'app-secret-rahasia',
  verify_token: 'verify-rahasia',
  messages_per_second: 40,
  daily_recipient_limit: 1000,
};
const put = (body: unknown, token = admin) =>
  server.api('PUT', '/api/admin/delivery', { token, body });

describe('delivery settings', () => {
  it('start in manual mode with the Cloud API defaults and no secret set', async () => {
    const answer = await server.api('GET', '/api/admin/delivery', { token: admin });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      mode: 'manual',
      cloud_api: {
        graph_url: 'https://graph.facebook.com',
        api_version: 'v23.0',
        phone_number_id: '',
        business_account_id: '',
        access_token_set: false,
        app_secret_set: false,
        verify_token_set: false,
        messages_per_second: 20,
        daily_recipient_limit: null,
      },
      // The gateway's block (issue 29), its defaults.
      gateway: expect.objectContaining({ provider: 'waha', api_key_set: false }),
    });
  });

  it('are the admin’s alone', async () => {
    for (const [method, url] of [
      ['GET', '/api/admin/delivery'],
      ['PUT', '/api/admin/delivery'],
      ['POST', '/api/admin/delivery/test'],
    ] as const) {
      const body = method === 'GET' ? undefined : {};
      expectCleanError(await server.api(method, url, { token: client, body }), 403);
      expectCleanError(await server.api(method, url, { body }), 401);
    }
  });

  it('refuse the Cloud API mode while something it needs is missing, saving nothing', async () => {
    await expectUnchanged(server.database.db, async () => {
      const answer = await put({ mode: 'cloud_api', cloud_api: { phone_number_id: '123' } });
      expectCleanError(answer, 422);
      expect(answer.body.detail).toBe(
        'Mode Cloud API belum dapat dipakai: WhatsApp Business Account ID, Access token, App secret, Verify token harus diisi',
      );
    });
  });

  it('check each field with an Indonesian message', async () => {
    await expectUnchanged(server.database.db, async () => {
      for (const [cloud_api, message] of [
        [{ phone_number_id: '12a' }, 'Phone Number ID hanya boleh berisi angka'],
        [{ graph_url: 'ftp://graph' }, 'Graph URL harus berupa alamat http(s) tanpa path'],
        [
          { graph_url: 'https://graph.test/v1' },
          'Graph URL harus berupa alamat http(s) tanpa path',
        ],
        [
          { graph_url: 'http://127.0.0.1:99999' },
          'Graph URL tidak valid: periksa nama host dan port (port maksimal 65535)',
        ],
        [{ api_version: '23' }, 'Versi API harus seperti v23.0'],
        [{ messages_per_second: 1001 }, 'Pesan per detik maksimal 1000'],
        [{ messages_per_second: 0 }, 'Pesan per detik minimal 1'],
        [{ daily_recipient_limit: 1.5 }, 'Batas penerima harian harus bilangan bulat'],
        [{ access_token: '   ' }, 'Access token tidak boleh kosong'],
      ] as const) {
        const answer = await put({ mode: 'manual', cloud_api });
        expectCleanError(answer, 422);
        expect(JSON.stringify(answer.body)).toContain(message);
      }
      expectCleanError(await put({ mode: 'whatsapp_web' }), 422);
    });
  });

  it('save the Cloud API mode and answer each secret only as set', async () => {
    const answer = await put({ mode: 'cloud_api', cloud_api: CLOUD });
    expect(answer.status).toBe(200);
    const { access_token, app_secret, verify_token, ...open } = CLOUD;
    const expected = {
      mode: 'cloud_api',
      cloud_api: { ...open, access_token_set: true, app_secret_set: true, verify_token_set: true },
      gateway: expect.objectContaining({ provider: 'waha' }),
    };
    expect(answer.body).toEqual(expected);
    expect((await server.api('GET', '/api/admin/delivery', { token: admin })).body).toEqual(
      expected,
    );
    for (const secret of [access_token, app_secret, verify_token]) {
      expect(JSON.stringify(answer.body)).not.toContain(secret);
    }
  });

  it('keep the secrets sealed at rest, readable only under the server’s key', async () => {
    const row = await server.database.db
      .selectFrom('delivery_settings')
      .selectAll()
      .executeTakeFirstOrThrow();
    const stored = JSON.stringify(row);
    for (const secret of [CLOUD.access_token, CLOUD.app_secret, CLOUD.verify_token]) {
      expect(stored).not.toContain(secret);
    }
    const opened = await readDelivery(
      server.database.db,
      await loadSecretBox(server.database.db, SECRET_KEY),
    );
    expect(opened.cloud_api.access_token).toBe(CLOUD.access_token);
    // Under another key the secrets cannot be opened: they read as not set.
    const other = await readDelivery(
      server.database.db,
      await loadSecretBox(server.database.db, 'another-key'),
    );
    expect(other.cloud_api).toMatchObject({ access_token: null, app_secret: null });
  });

  it('keep a secret that a save leaves out, and replace one that it names', async () => {
    const kept = await put({
      mode: 'cloud_api',
      cloud_api: { ...CLOUD, access_token: 'baru', app_secret: undefined, verify_token: null },
    });
    expect(kept.status).toBe(200);
    const opened = await readDelivery(
      server.database.db,
      await loadSecretBox(server.database.db, SECRET_KEY),
    );
    expect(opened.cloud_api).toMatchObject({
      access_token: 'baru',
      app_secret: CLOUD.app_secret,
      verify_token: CLOUD.verify_token,
    });
    const audit = await server.database.db
      .selectFrom('audit_log')
      .select(['action', 'after_json'])
      .where('action', '=', 'delivery.update')
      .execute();
    expect(audit.length).toBeGreaterThan(0);
    expect(JSON.stringify(audit)).not.toContain('baru');
  });

  it('Tes Koneksi says when the Graph API cannot be reached', async () => {
    const closed = await closedPort();
    await put({
      mode: 'cloud_api',
      cloud_api: { ...CLOUD, graph_url: `http://127.0.0.1:${closed}` },
    });
    const answer = await server.api('POST', '/api/admin/delivery/test', { token: admin });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ok: false,
      message: `Graph API di http://127.0.0.1:${closed} tidak dapat dihubungi`,
      display_phone_number: null,
      verified_name: null,
    });
  });

  it("Tes Koneksi reaches the local Cloud API, names its number, checks it is the account's", async () => {
    const double = await startLocalCloudApi();
    try {
      const local = {
        ...cloudApiSettingsOf(double),
      };
      expect((await put({ mode: 'cloud_api', cloud_api: local })).status).toBe(200);
      const answer = await server.api('POST', '/api/admin/delivery/test', { token: admin });
      expect(answer.body).toEqual({
        ok: true,
        message: 'Terhubung ke WhatsApp Cloud API: 62 811-0000-0000 (Sebar Lokal)',
        display_phone_number: '62 811-0000-0000',
        verified_name: 'Sebar Lokal',
      });
      // It reads the number the sends go to, as its own node, not only the account's list.
      expect(
        double.requests.some(
          (r) => r.method === 'GET' && r.path === `/v23.0/${double.options.phoneNumberId}`,
        ),
      ).toBe(true);

      // Meta's test number: the token reaches it, but it is not the business account's.
      const test = double.options.otherPhoneNumbers[0]!;
      await put({ mode: 'cloud_api', cloud_api: { ...local, phone_number_id: test.id } });
      const elsewhere = await server.api('POST', '/api/admin/delivery/test', { token: admin });
      expect(elsewhere.body).toEqual({
        ok: false,
        message:
          `Phone Number ID ${test.id} tidak terdaftar di WhatsApp Business Account ` +
          `${double.options.businessAccountId}. Nomor di akun ini: 62 811-0000-0000 ` +
          `(ID ${double.options.phoneNumberId})`,
        display_phone_number: null,
        verified_name: null,
      });

      await put({ mode: 'cloud_api', cloud_api: { ...local, access_token: 'token-salah' } });
      const refused = await server.api('POST', '/api/admin/delivery/test', { token: admin });
      expect(refused.body).toEqual({
        ok: false,
        message:
          'Access token tidak valid atau sudah kedaluwarsa (kode 190: Invalid OAuth access token - Cannot parse access token)',
        display_phone_number: null,
        verified_name: null,
      });
    } finally {
      await double.close();
    }
  });

  it('switches back to manual, keeping the Cloud API settings for later', async () => {
    const answer = await put({ mode: 'manual', cloud_api: { phone_number_id: '1' } });
    expect(answer.status).toBe(200);
    expect(answer.body.mode).toBe('manual');
    expect(answer.body.cloud_api.access_token_set).toBe(true);
  });
});

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('two first saves at once', () => {
  it('keep the secrets one of them sets when the other leaves them out', async () => {
    const fresh = await startServer({ secretKey: SECRET_KEY });
    try {
      const box = await loadSecretBox(fresh.database.db, SECRET_KEY);
      for (let round = 0; round < 8; round += 1) {
        await fresh.database.db.deleteFrom('delivery_settings').execute();
        const answers = await Promise.all([
          fresh.api('PUT', '/api/admin/delivery', {
            token: fresh.adminToken,
            body: { mode: 'cloud_api', cloud_api: CLOUD },
          }),
          fresh.api('PUT', '/api/admin/delivery', {
            token: fresh.adminToken,
            body: { mode: 'manual', cloud_api: { ...CLOUD, access_token: undefined } },
          }),
        ]);
        expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
        const saved = await readDelivery(fresh.database.db, box);
        expect(saved.cloud_api.access_token, `round ${round}`).toBe(CLOUD.access_token);
      }
    } finally {
      await fresh.close();
    }
  });
});
