// The settings record over HTTP: required fields, the image switch starting off, and the
// public copy that clients read (with the delivery mode).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '#server/test/helpers.ts';
import { form, settingsBody, tinyPng } from '#server/test/routes.ts';
import { expectCleanError, expectSpecFields, expectUnchanged } from '#server/test/spec.ts';

let server: TestServer;
let admin = '';
let client = '';
beforeAll(async () => {
  server = await startServer();
  admin = server.adminToken;
  client = (await server.createClient()).token;
});
afterAll(() => server?.close());

const VALID = {
  account_number: '0987654321',
  account_name: 'PT Sebar Pesan',
  bank_name: 'Mandiri',
  barcode_url: null,
  qr_code_file: null,
  qr_data_url: null,
};

describe('settings', () => {
  it('starts empty with allow_images false, for the admin and for clients', async () => {
    const empty = {
      account_number: '',
      account_name: '',
      bank_name: '',
      barcode_url: null,
      qr_code_file: null,
      qr_data_url: null,
      allow_images: false,
    };
    for (const [url, token, expected] of [
      ['/api/admin/settings', admin, empty],
      // Users also read how blasts are delivered: the blast form follows it.
      ['/api/public/settings', client, { ...empty, delivery_mode: 'manual' }],
      ['/api/public/settings', admin, { ...empty, delivery_mode: 'manual' }],
    ] as const) {
      const answer = await server.api('GET', url, { token });
      expect(answer.status).toBe(200);
      expectSpecFields(answer.body, 'settings');
      expect(answer.body).toEqual(expected);
    }
  });

  it('saves (allow_images defaulting to false) and clients read the same record', async () => {
    const saved = await server.api('POST', '/api/admin/settings', { token: admin, body: VALID });
    expect(saved.status).toBe(200);
    expectSpecFields(saved.body, 'settings');
    expect(saved.body).toEqual({ ...VALID, allow_images: false });
    const qr = 'data:image/png;base64,iVBORw0KGgo=';
    const on = await server.api('POST', '/api/admin/settings', {
      token: admin,
      body: { ...VALID, qr_data_url: qr, qr_code_file: '/uploads/x.png', allow_images: true },
    });
    expect(on.body).toMatchObject({ allow_images: true, qr_data_url: qr });
    const seen = await server.api('GET', '/api/public/settings', { token: client });
    expect(seen.body).toEqual({ ...on.body, delivery_mode: 'manual' });
    // Saving again without the switch turns images off again: the form always sends it.
    const off = await server.api('POST', '/api/admin/settings', { token: admin, body: VALID });
    expect(off.body.allow_images).toBe(false);
    expect(off.body.qr_data_url).toBeNull();
  });

  it('takes empty QR fields, as a form without a QR sends them, as no QR', async () => {
    const qr = 'data:image/png;base64,iVBORw0KGgo=';
    const withQr = await server.api('POST', '/api/admin/settings', {
      token: admin,
      body: {
        ...VALID,
        qr_data_url: qr,
        qr_code_file: '/uploads/x.png',
        barcode_url: '/uploads/x.png',
      },
    });
    expect(withQr.status).toBe(200);
    for (const empty of ['', '   ']) {
      const answer = await server.api('POST', '/api/admin/settings', {
        token: admin,
        body: {
          ...VALID,
          barcode_url: empty,
          qr_code_file: empty,
          qr_data_url: '',
          allow_images: true,
        },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toEqual({ ...VALID, allow_images: true });
      const seen = await server.api('GET', '/api/public/settings', { token: client });
      expect(seen.body).toEqual({ ...answer.body, delivery_mode: 'manual' });
    }
    // Text that is not an image is still refused, and changes nothing.
    await expectUnchanged(server.database.db, async () => {
      const bad = await server.api('POST', '/api/admin/settings', {
        token: admin,
        body: { ...VALID, qr_data_url: ' ' },
      });
      expectCleanError(bad, 422);
      expect(bad.body.detail).toBe('QR Code harus berupa data gambar');
    });
  });

  it('requires account number, account name and bank name, with Indonesian messages', async () => {
    await expectUnchanged(server.database.db, async () => {
      for (const [field, detail] of [
        ['account_number', 'Nomor rekening harus diisi'],
        ['account_name', 'Nama pemilik rekening harus diisi'],
        ['bank_name', 'Nama bank harus diisi'],
      ] as const) {
        for (const value of ['', '   ']) {
          const answer = await server.api('POST', '/api/admin/settings', {
            token: admin,
            body: { ...VALID, [field]: value },
          });
          expectCleanError(answer, 422);
          expect(answer.body.detail).toBe(detail);
          expect(answer.body.errors[0].field).toBe(field);
        }
        const rest = Object.fromEntries(Object.entries(VALID).filter(([key]) => key !== field));
        const missing = await server.api('POST', '/api/admin/settings', {
          token: admin,
          body: rest,
        });
        expectCleanError(missing, 422);
        expect(missing.body.detail).toBe(`${field} harus diisi`);
        const nulled = await server.api('POST', '/api/admin/settings', {
          token: admin,
          body: { ...VALID, [field]: null },
        });
        expect(nulled.body.detail).toBe(`${field} harus diisi`);
      }
      expectCleanError(
        await server.api('POST', '/api/admin/settings', { token: client, body: VALID }),
        403,
      );
      expectCleanError(await server.api('GET', '/api/admin/settings', { token: client }), 403);
      expectCleanError(await server.api('GET', '/api/public/settings'), 401);
    });
  });
});

describe('two first saves at once', () => {
  it('leave only the QR upload the saved settings name', async () => {
    const fresh = await startServer();
    const uploadQr = async () => {
      const answer = await fresh.api('POST', '/api/admin/upload-qr', {
        token: fresh.adminToken,
        raw: form('file', await tinyPng()),
      });
      expect(answer.status).toBe(200);
      return answer.body as { file_url: string; data_url: string };
    };
    const qrUploads = () =>
      fresh.database.db.selectFrom('uploads').select('name').where('kind', '=', 'qr').execute();
    try {
      for (let round = 0; round < 6; round += 1) {
        await fresh.database.db.deleteFrom('settings').execute();
        const [first, second] = [await uploadQr(), await uploadQr()];
        const answers = await Promise.all(
          [first, second].map((qr) =>
            fresh.api('POST', '/api/admin/settings', {
              token: fresh.adminToken,
              body: settingsBody(qr),
            }),
          ),
        );
        expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
        const named = (await fresh.api('GET', '/api/admin/settings', { token: fresh.adminToken }))
          .body.qr_code_file as string;
        expect(
          (await qrUploads()).map((row) => `/uploads/${row.name}`),
          `round ${round}`,
        ).toEqual([named]);
        await fresh.database.db.deleteFrom('uploads').execute();
      }
    } finally {
      await fresh.close();
    }
  });
});
