// Blasts in Cloud API mode over HTTP, against the local Cloud API's templates: a blast names an
// enabled template and its parameters, stores the text the recipient reads and queues every
// number in the debit's transaction; each refusal says why in Indonesian and changes nothing.
// No delivery engine runs here: the queued numbers stay queued.
import { cloudApiSettingsOf } from '#local-apis/cloud-api/test-helpers.ts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalCloudApi, type LocalCloudApi } from '#local-apis/cloud-api/server.ts';
import { DEFAULT_TEMPLATES } from '#local-apis/cloud-api/templates.ts';
import { checkLedger } from '#server/db/ledger-check.ts';
import { startServer, type TestServer } from '#server/test/helpers.ts';
import {
  expectCleanError,
  expectIdempotentBlast,
  expectSpecFields,
  expectUnchanged,
} from '#server/test/spec.ts';

let server: TestServer;
let double: LocalCloudApi;
let client = { id: '', token: '' };
let imageUrl = '';
const START_POINTS = 1000;

const idOf = (name: string) => DEFAULT_TEMPLATES.find((t) => t.name === name)!.id;
const PROMO = idOf('promo_bulanan'); // IMAGE header, {{1}} {{2}}
const TAGIHAN = idOf('pengingat_tagihan'); // body only, {{1}}
const SAPAAN = idOf('sapaan_pelanggan'); // named {{nama}}
const KONFIRMASI = idOf('konfirmasi_kehadiran'); // {{1}} and a footer
const KILAT = idOf('promo_kilat'); // header {{1}}, body {{1}} {{2}}, a URL button ending in {{1}}

const admin = (method: string, url: string, body?: unknown) =>
  server.api(method, url, { token: server.adminToken, body });
const send = (body: unknown, headers?: Record<string, string>) =>
  server.api('POST', '/api/client/blast-requests', { token: client.token, body, headers });
const balance = async () =>
  (await server.api('GET', '/api/auth/me', { token: client.token })).body.points as number;
const local = (i: number) => `0812${String(i).padStart(8, '0')}`;

/** Sebar's delivery settings pointed at the double, in `mode`. */
async function setMode(mode: 'manual' | 'cloud_api') {
  const answer = await admin('PUT', '/api/admin/delivery', {
    mode,
    cloud_api: {
      ...cloudApiSettingsOf(double),
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

async function uploadImage(format: 'png' | 'gif' = 'png'): Promise<string> {
  const bytes = await sharp({
    create: { width: 32, height: 32, channels: 3, background: '#0f9d58' },
  })
    .toFormat(format)
    .toBuffer();
  const form = new FormData();
  const type = `image/${format}`;
  form.append('image', new Blob([new Uint8Array(bytes)], { type }), `promo.${format}`);
  const answer = await server.api('POST', '/api/upload/image', { token: client.token, raw: form });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.url as string;
}

beforeAll(async () => {
  // No worker: these tests are about what creation stores, before anything is sent.
  server = await startServer({ secretKey: 'template-blasts-test-key-0123', deliveryWorker: false });
  double = await startLocalCloudApi({ templates: structuredClone(DEFAULT_TEMPLATES) });
  const created = await server.createClient({ username: 'tari', email: 'tari@sebar.test' });
  client = { id: created.user.id, token: created.token };
  const funded = await admin('PUT', `/api/admin/users/${client.id}`, {
    username: 'tari',
    email: 'tari@sebar.test',
    points: START_POINTS,
    is_active: true,
  });
  expect(funded.status).toBe(200);
  const settings = await admin('POST', '/api/admin/settings', {
    account_number: '1234567890',
    account_name: 'PT Sebar',
    bank_name: 'BCA',
    allow_images: true,
  });
  expect(settings.status).toBe(200);
  imageUrl = await uploadImage();
  await setMode('cloud_api');
  expect((await admin('POST', '/api/admin/delivery/templates/sync')).status).toBe(200);
  // sapaan_pelanggan stays off until a test has seen it refused.
  for (const id of [PROMO, TAGIHAN, KONFIRMASI, KILAT]) {
    const enabled = await admin('PUT', `/api/admin/delivery/templates/${id}`, { enabled: true });
    expect(enabled.status).toBe(200);
  }
});
afterAll(async () => {
  await server?.close();
  await double?.close();
});

describe('Cloud API blast creation', () => {
  it('tells clients the delivery mode with the settings they read', async () => {
    const answer = await server.api('GET', '/api/public/settings', { token: client.token });
    expect(answer.status).toBe(200);
    expect(answer.body.delivery_mode).toBe('cloud_api');
  });

  it('stores the rendered text, the template and its values, queues each number, debits once', async () => {
    const before = await balance();
    const answer = await send({
      target_numbers: [local(1), '+62 812-0000-0002', local(1)],
      template_id: PROMO,
      parameters: { '1': 'Budi', '2': '20%' },
      image_url: imageUrl,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expectSpecFields(answer.body, 'blast');
    expect(answer.body).toMatchObject({
      message: 'Halo Budi, nikmati diskon 20% untuk semua produk bulan ini!',
      image_url: imageUrl,
      status: 'pending',
      total_numbers: 2,
      points_used: 2,
      delivery_mode: 'cloud_api',
      template: {
        id: PROMO,
        name: 'promo_bulanan',
        language: 'id',
        header_format: 'IMAGE',
        parameters: { '1': 'Budi', '2': '20%' },
      },
    });
    expect(answer.body.target_numbers).toEqual(['6281200000001', '6281200000002']);
    for (const number of answer.body.numbers) {
      expect(number.status).toBe('pending');
      expect(number.delivery).toMatchObject({ state: 'queued', attempts: 0, sent_at: null });
      expect(number.delivery.queued_at).toBe(answer.body.created_at);
    }
    // The detail, read back, is what was answered.
    const detail = await server.api('GET', `/api/client/blast-requests/${answer.body.id}`, {
      token: client.token,
    });
    expect(
      detail.body.numbers.map((n: { delivery: { state: string } }) => n.delivery.state),
    ).toEqual(['queued', 'queued']);
    expect(detail.body.template).toEqual(answer.body.template);
    expect(await balance()).toBe(before - 2);
    const usage = await server.database.db
      .selectFrom('point_transactions')
      .select(['type', 'delta'])
      .where('blast_id', '=', answer.body.id)
      .execute();
    expect(usage).toEqual([{ type: 'usage', delta: -2 }]);
    expect(await checkLedger(server.database.db)).toEqual([]);
  });

  it('takes the parameters as a list for {{1}}, {{2}} …, and adds the footer to the text', async () => {
    const tagihan = await send({
      target_numbers: [local(3)],
      template_id: TAGIHAN,
      parameters: ['Rp150.000'],
    });
    expect(tagihan.status, JSON.stringify(tagihan.body)).toBe(201);
    expect(tagihan.body.message).toBe(
      'Tagihan Anda sebesar Rp150.000 jatuh tempo besok. Terima kasih.',
    );
    expect(tagihan.body.template).toMatchObject({
      header_format: null,
      parameters: { '1': 'Rp150.000' },
    });
    expect(tagihan.body.image_url).toBeNull();

    const konfirmasi = await send({
      target_numbers: [local(4)],
      template_id: KONFIRMASI,
      parameters: ['Andi'],
    });
    expect(konfirmasi.status, JSON.stringify(konfirmasi.body)).toBe(201);
    expect(konfirmasi.body.message).toBe(
      'Halo Andi, apakah Anda akan hadir di acara kami besok?\n\nBalas dengan menekan salah satu tombol',
    );
  });

  it('refuses a blast without an offered template, saying why, changing nothing', async () => {
    const pending = idOf('info_pengiriman');
    await expectUnchanged(server.database.db, async () => {
      for (const [body, detail] of [
        [{ target_numbers: [local(1)] }, 'Pilih template pesan'],
        // A free message is not a template.
        [{ message: 'Halo', target_numbers: [local(1)] }, 'Pilih template pesan'],
        [
          { target_numbers: [local(1)], template_id: '999', parameters: {} },
          'Template tidak ditemukan atau tidak lagi diaktifkan admin',
        ],
        // Approved at Meta but not switched on by the admin.
        [
          { target_numbers: [local(1)], template_id: SAPAAN, parameters: { nama: 'Siti' } },
          'Template tidak ditemukan atau tidak lagi diaktifkan admin',
        ],
        // Not approved by Meta (it cannot be switched on).
        [
          { target_numbers: [local(1)], template_id: pending, parameters: ['INV-001'] },
          'Template tidak ditemukan atau tidak lagi diaktifkan admin',
        ],
      ] as const) {
        const answer = await send(body);
        expect([answer.status, answer.body.detail], JSON.stringify(body)).toEqual([422, detail]);
        // 'Pilih template pesan' says what to do without a word the clean-error check knows.
        if (detail !== 'Pilih template pesan') expectCleanError(answer, 422);
      }
    });
  });

  it('refuses a parameter Meta would refuse, naming the first one, changing nothing', async () => {
    const promo = (parameters: unknown, image_url: string | null = imageUrl) => ({
      target_numbers: [local(1)],
      template_id: PROMO,
      parameters,
      image_url,
    });
    await expectUnchanged(server.database.db, async () => {
      for (const [body, detail] of [
        [promo(undefined), 'Parameter {{1}}: Parameter tidak boleh kosong'],
        [promo({ '1': 'Budi' }), 'Parameter {{2}}: Parameter tidak boleh kosong'],
        [promo(['Budi', '   ']), 'Parameter {{2}}: Parameter tidak boleh kosong'],
        [
          promo({ '1': 'Budi\nSantoso', '2': '20%' }),
          'Parameter {{1}}: Parameter tidak boleh berisi baris baru atau tab',
        ],
        [
          promo({ '1': 'Budi', '2': '20\t%' }),
          'Parameter {{2}}: Parameter tidak boleh berisi baris baru atau tab',
        ],
        [
          promo({ '1': 'Budi     Santoso', '2': '20%' }),
          'Parameter {{1}}: Parameter tidak boleh berisi lebih dari 4 spasi berturut-turut',
        ],
        // A template with a header takes at most 1024 characters per parameter.
        [
          promo({ '1': 'x'.repeat(1025), '2': '20%' }),
          'Parameter {{1}}: Parameter maksimal 1024 karakter',
        ],
        [
          promo({ '1': 'Budi', '2': '20%', '3': 'lagi' }),
          'Parameter {{3}} tidak ada di template ini',
        ],
        [promo(['Budi', '20%', 'lagi']), 'Parameter {{3}} tidak ada di template ini'],
      ] as const) {
        const answer = await send(body);
        expectCleanError(answer, 422);
        expect(answer.body.detail, JSON.stringify(body).slice(0, 80)).toBe(detail);
      }
    });
  });

  it('fills a text header, the body and a URL button’s end, each by its own key', async () => {
    const values = { 'header.1': 'Kilat', '1': 'Budi', '2': 'HEMAT50', 'button.0': 'kilat-7' };
    const answer = await send({
      target_numbers: [local(5)],
      template_id: KILAT,
      parameters: values,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.message).toBe(
      'Promo Kilat\n\nHalo Budi, pakai kode HEMAT50 sebelum tengah malam.\n\nBalas STOP untuk berhenti',
    );
    expect(answer.body.template).toEqual({
      id: KILAT,
      name: 'promo_kilat',
      language: 'id',
      header_format: 'TEXT',
      parameters: values,
    });
  });

  it('refuses a header value or a URL end Meta would refuse, naming it, changing nothing', async () => {
    const ok = { 'header.1': 'Kilat', '1': 'Budi', '2': 'HEMAT50', 'button.0': 'kilat-7' };
    const kilat = (over: Record<string, string>) => ({
      target_numbers: [local(6)],
      template_id: KILAT,
      parameters: { ...ok, ...over },
    });
    await expectUnchanged(server.database.db, async () => {
      for (const [body, detail] of [
        [kilat({ 'header.1': '' }), 'Parameter header {{1}}: Parameter tidak boleh kosong'],
        [
          kilat({ 'header.1': 'x'.repeat(61) }),
          'Parameter header {{1}}: Parameter maksimal 60 karakter',
        ],
        [
          kilat({ 'button.0': 'kilat 7' }),
          'Parameter akhiran URL tombol Lihat promo: Akhiran URL tidak boleh berisi spasi',
        ],
        [kilat({ 'button.1': 'x' }), 'Parameter {{button.1}} tidak ada di template ini'],
        // A list gives the body's values only: the header's is then missing.
        [
          { target_numbers: [local(6)], template_id: KILAT, parameters: ['Budi', 'HEMAT50'] },
          'Parameter header {{1}}: Parameter tidak boleh kosong',
        ],
      ] as const) {
        const answer = await send(body);
        expectCleanError(answer, 422);
        expect(answer.body.detail, JSON.stringify(body).slice(0, 80)).toBe(detail);
      }
    });
  });

  it('refuses a GIF header image, which Meta does not send, changing nothing', async () => {
    const gif = await uploadImage('gif');
    await expectUnchanged(server.database.db, async () => {
      const answer = await send({
        target_numbers: [local(1)],
        template_id: PROMO,
        parameters: ['Budi', '20%'],
        image_url: gif,
      });
      expectCleanError(answer, 422);
      expect(answer.body.detail).toBe('Gambar header template harus berupa PNG atau JPG');
    });
  });

  it('takes a body-only parameter up to 32768 characters', async () => {
    const long = 'x'.repeat(32768);
    await expectUnchanged(server.database.db, async () => {
      const over = await send({
        target_numbers: [local(1)],
        template_id: TAGIHAN,
        parameters: [`${long}x`],
      });
      expectCleanError(over, 422);
      expect(over.body.detail).toBe('Parameter {{1}}: Parameter maksimal 32768 karakter');
    });
    const answer = await send({
      target_numbers: [local(5)],
      template_id: TAGIHAN,
      parameters: [long],
    });
    expect(answer.status, JSON.stringify(answer.body).slice(0, 200)).toBe(201);
  });

  it('refuses an image header without an image, and an image for a template without one', async () => {
    await expectUnchanged(server.database.db, async () => {
      const without = await send({
        target_numbers: [local(1)],
        template_id: PROMO,
        parameters: ['Budi', '20%'],
        image_url: null,
      });
      expectCleanError(without, 422);
      expect(without.body.detail).toBe(
        'Template ini membutuhkan gambar header. Upload gambar terlebih dahulu.',
      );
      const extra = await send({
        target_numbers: [local(1)],
        template_id: TAGIHAN,
        parameters: ['Rp150.000'],
        image_url: imageUrl,
      });
      expectCleanError(extra, 422);
      expect(extra.body.detail).toBe('Template ini tidak memakai gambar');
    });
  });

  it('takes named parameters once the admin switches the template on', async () => {
    const on = await admin('PUT', `/api/admin/delivery/templates/${SAPAAN}`, { enabled: true });
    expect(on.status).toBe(200);
    const answer = await send({
      target_numbers: [local(6)],
      template_id: SAPAAN,
      parameters: { nama: 'Siti' },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.message).toBe(
      'Selamat datang, Siti! Terima kasih telah berbelanja di toko kami.',
    );
    expect(answer.body.template.parameters).toEqual({ nama: 'Siti' });
  });

  it('answers a retry with the same Idempotency-Key with the same blast, charged once', async () => {
    const body = {
      target_numbers: [local(7), local(8)],
      template_id: PROMO,
      parameters: ['Rina', '30%'],
      image_url: imageUrl,
    };
    // The same key with other values is another request: refused.
    await expectIdempotentBlast(server.database.db, send, balance, {
      body,
      changed: { ...body, parameters: ['Rina', '40%'] },
      key: 'template-blast-retry-1',
    });
  });

  it('in manual mode refuses a template and takes the message as before', async () => {
    await setMode('manual');
    try {
      const settings = await server.api('GET', '/api/public/settings', { token: client.token });
      expect(settings.body.delivery_mode).toBe('manual');
      await expectUnchanged(server.database.db, async () => {
        for (const body of [
          { target_numbers: [local(1)], template_id: TAGIHAN, parameters: ['Rp150.000'] },
          { message: 'Halo', target_numbers: [local(1)], template_id: TAGIHAN },
          { message: 'Halo', target_numbers: [local(1)], parameters: ['Rp150.000'] },
        ]) {
          const answer = await send(body);
          expectCleanError(answer, 422);
          expect(answer.body.detail).toBe(
            'Template hanya dapat dipakai saat blast dikirim melalui WhatsApp Cloud API',
          );
        }
      });
      const manual = await send({ message: 'Halo manual', target_numbers: [local(9)] });
      expect(manual.status, JSON.stringify(manual.body)).toBe(201);
      expect(manual.body).toMatchObject({
        message: 'Halo manual',
        delivery_mode: 'manual',
        template: null,
      });
      expect(manual.body.numbers[0].delivery).toBeNull();
    } finally {
      await setMode('cloud_api');
    }
    expect(await checkLedger(server.database.db)).toEqual([]);
    // One point for each number of the blasts made above.
    expect(await balance()).toBe(START_POINTS - 2 - 1 - 1 - 1 - 1 - 1 - 2 - 1);
  });
});
