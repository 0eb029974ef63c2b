// The message templates over HTTP against the local Cloud API: the sync mirrors the business
// account's templates (keeping what the admin enabled, dropping what Meta no longer has), only an
// approved template can be enabled, clients see only the enabled, approved ones, and Meta's
// template status webhooks (a pause, a disable, an approval) change what clients see at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalCloudApi, type LocalCloudApi } from '#local-apis/cloud-api/server.ts';
import { signBody } from '#local-apis/cloud-api/webhooks.ts';
import {
  DEFAULT_TEMPLATES,
  templateStatusWebhook,
  UNSENDABLE_TEMPLATES,
  type MessageTemplate,
} from '#local-apis/cloud-api/templates.ts';
import { startServer, type TestServer } from '#server/test/helpers.ts';
import { expectCleanError, expectUnchanged } from '#server/test/spec.ts';

let server: TestServer;
let double: LocalCloudApi;
let admin = '';
let client = '';
let clientId = '';
beforeAll(async () => {
  server = await startServer({ secretKey: 'templates-test-key-0123456789' });
  admin = server.adminToken;
  const created = await server.createClient({ username: 'tari', email: 'tari@sebar.test' });
  client = created.token;
  clientId = created.user.id;
  // A copy: the tests change the set the double answers.
  double = await startLocalCloudApi({ templates: structuredClone(DEFAULT_TEMPLATES) });
});
afterAll(async () => {
  await server?.close();
  await double?.close();
});

/** Points Sebar's delivery settings at `api` (its ids), with `token` as the access token. */
async function pointAt(api: LocalCloudApi, token = api.options.accessToken) {
  const answer = await server.api('PUT', '/api/admin/delivery', {
    token: admin,
    body: {
      mode: 'cloud_api',
      cloud_api: {
        graph_url: api.url,
        phone_number_id: api.options.phoneNumberId,
        business_account_id: api.options.businessAccountId,
        access_token: token,
        app_secret: api.options.appSecret,
        verify_token: api.options.verifyToken,
      },
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

const sync = (token = admin) => server.api('POST', '/api/admin/delivery/templates/sync', { token });
const enable = (id: string, enabled: boolean, token = admin) =>
  server.api('PUT', `/api/admin/delivery/templates/${id}`, { token, body: { enabled } });
const idOf = (name: string) => DEFAULT_TEMPLATES.find((t) => t.name === name)!.id;
const names = (list: { name: string }[]) => list.map((t) => t.name);

describe('template sync', () => {
  it('says what is missing while the Cloud API settings are incomplete, changing nothing', async () => {
    await expectUnchanged(server.database.db, async () => {
      const answer = await sync();
      expectCleanError(answer, 422);
      expect(answer.body.detail).toBe(
        'Mode Cloud API belum dapat dipakai: Phone Number ID, WhatsApp Business Account ID, Access token, App secret, Verify token harus diisi',
      );
    });
  });

  it('lists every template of the business account, read from its components', async () => {
    await pointAt(double);
    const answer = await sync();
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(names(answer.body)).toEqual([
      'info_pengiriman',
      'konfirmasi_kehadiran',
      'pengingat_tagihan',
      'promo_bulanan',
      'promo_kilat',
      'sapaan_pelanggan',
      'undian_berhadiah',
    ]);
    const byName = Object.fromEntries(answer.body.map((t: { name: string }) => [t.name, t]));
    expect(byName.promo_bulanan).toEqual({
      id: '1029384756000001',
      name: 'promo_bulanan',
      language: 'id',
      status: 'APPROVED',
      category: 'MARKETING',
      enabled: false,
      unsupported: null,
      header: { format: 'IMAGE' },
      body: 'Halo {{1}}, nikmati diskon {{2}} untuk semua produk bulan ini!',
      footer: null,
      buttons: [],
      parameters: [
        { name: '1', part: 'body', placeholder: '1', example: 'Budi' },
        { name: '2', part: 'body', placeholder: '2', example: '20%' },
      ],
    });
    expect(byName.sapaan_pelanggan.parameters).toEqual([
      { name: 'nama', part: 'body', placeholder: 'nama', example: 'Siti' },
    ]);
    // A text header's placeholder and a URL button's end are values a blast fills too.
    expect(byName.promo_kilat).toMatchObject({
      unsupported: null,
      header: { format: 'TEXT', text: 'Promo {{1}}' },
      buttons: [
        { type: 'URL', text: 'Lihat promo', url: 'https://toko.example/promo/{{1}}' },
        { type: 'QUICK_REPLY', text: 'Berhenti', url: null },
      ],
      parameters: [
        { name: 'header.1', part: 'header', placeholder: '1', example: 'Kilat' },
        { name: '1', part: 'body', placeholder: '1', example: 'Budi' },
        { name: '2', part: 'body', placeholder: '2', example: 'HEMAT50' },
        { name: 'button.0', part: 'button', placeholder: '1', example: 'kilat-123' },
      ],
    });
    expect(byName.konfirmasi_kehadiran.footer).toBe('Balas dengan menekan salah satu tombol');
    expect(byName.undian_berhadiah).toMatchObject({ status: 'REJECTED', parameters: [] });
    const list = await server.api('GET', '/api/admin/delivery/templates', { token: admin });
    expect(list.body).toEqual(answer.body);
  });

  it('enables an approved template for clients, audited', async () => {
    const answer = await enable(idOf('promo_bulanan'), true);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ name: 'promo_bulanan', enabled: true });
    expect((await enable(idOf('konfirmasi_kehadiran'), true)).status).toBe(200);
    const audit = await server.database.db
      .selectFrom('audit_log')
      .select(['action', 'target_id', 'after_json'])
      .where('action', '=', 'template.enable')
      .execute();
    expect(audit.map((a) => a.target_id).sort()).toEqual([
      idOf('promo_bulanan'),
      idOf('konfirmasi_kehadiran'),
    ]);
  });

  it('refuses to enable a template Meta has not approved, and an unknown one; nothing changes', async () => {
    await expectUnchanged(server.database.db, async () => {
      const pending = await enable(idOf('info_pengiriman'), true);
      expectCleanError(pending, 422);
      expect(pending.body.detail).toBe(
        'Template info_pengiriman belum disetujui Meta (status: Menunggu), jadi belum dapat diaktifkan',
      );
      const rejected = await enable(idOf('undian_berhadiah'), true);
      expectCleanError(rejected, 422);
      const unknown = await enable('999', true);
      expectCleanError(unknown, 404);
      expect(unknown.body.detail).toBe('Template tidak ditemukan');
      expectCleanError(
        await server.api('PUT', `/api/admin/delivery/templates/${idOf('promo_bulanan')}`, {
          token: admin,
          body: { enabled: 'ya' },
        }),
        422,
      );
    });
  });

  it('offers clients only the enabled, approved templates, without the admin’s switch', async () => {
    const answer = await server.api('GET', '/api/client/templates', { token: client });
    expect(answer.status).toBe(200);
    expect(names(answer.body)).toEqual(['konfirmasi_kehadiran', 'promo_bulanan']);
    expect(answer.body[1]).not.toHaveProperty('enabled');
    expect(answer.body[1].parameters).toHaveLength(2);
  });

  it('a re-sync keeps what was enabled, drops what Meta removed, never offers an unapproved one', async () => {
    const templates = double.options.templates;
    const promo = templates.find((t) => t.name === 'promo_bulanan')!;
    promo.status = 'PAUSED';
    double.options.templates = templates.filter((t) => t.name !== 'konfirmasi_kehadiran');
    const answer = await sync();
    expect(answer.status).toBe(200);
    expect(names(answer.body)).not.toContain('konfirmasi_kehadiran');
    expect(answer.body.find((t: { name: string }) => t.name === 'promo_bulanan')).toMatchObject({
      status: 'PAUSED',
      enabled: true,
    });
    const offered = await server.api('GET', '/api/client/templates', { token: client });
    expect(offered.body).toEqual([]);
    // Approved again at Meta: offered again, as the admin left it.
    promo.status = 'APPROVED';
    expect((await sync()).status).toBe(200);
    const again = await server.api('GET', '/api/client/templates', { token: client });
    expect(names(again.body)).toEqual(['promo_bulanan']);
  });

  it('reads every page of a large account', async () => {
    const many: MessageTemplate[] = Array.from({ length: 130 }, (_, i) => ({
      ...structuredClone(DEFAULT_TEMPLATES[1]!),
      id: String(5_000_000 + i),
      name: `tagihan_${String(i).padStart(3, '0')}`,
    }));
    const large = await startLocalCloudApi({ templates: many });
    try {
      await pointAt(large);
      const answer = await sync();
      expect(answer.status).toBe(200);
      expect(answer.body).toHaveLength(130);
      const pages = large.requests.filter((r) => r.path.endsWith('/message_templates'));
      expect(pages).toHaveLength(2);
    } finally {
      await large.close();
      await pointAt(double);
    }
  });

  it('says in Indonesian why the Cloud API refused, keeping the synced templates', async () => {
    await pointAt(double, 'token-yang-salah');
    await expectUnchanged(server.database.db, async () => {
      const answer = await sync();
      // 502: the failure is the Cloud API's, not the request's; the detail says what is wrong.
      expect([answer.status, answer.body]).toEqual([
        502,
        {
          detail:
            'Access token tidak valid atau sudah kedaluwarsa (kode 190: Invalid OAuth access token - Cannot parse access token)',
        },
      ]);
    });
    const list = await server.api('GET', '/api/admin/delivery/templates', { token: admin });
    expect(list.body).toHaveLength(130);
  });

  it('are the admin’s to manage; clients only read theirs', async () => {
    for (const [method, url, body] of [
      ['GET', '/api/admin/delivery/templates', undefined],
      ['POST', '/api/admin/delivery/templates/sync', undefined],
      ['PUT', `/api/admin/delivery/templates/${idOf('promo_bulanan')}`, { enabled: true }],
    ] as const) {
      expectCleanError(await server.api(method, url, { token: client, body }), 403);
      expectCleanError(await server.api(method, url, { body }), 401);
    }
    expectCleanError(await server.api('GET', '/api/client/templates', { token: admin }), 403);
  });
});

describe('a template with a part Sebar cannot send yet', () => {
  let account: LocalCloudApi;
  beforeAll(async () => {
    account = await startLocalCloudApi({
      templates: structuredClone([...DEFAULT_TEMPLATES, ...UNSENDABLE_TEMPLATES]),
    });
    await pointAt(account);
    expect((await sync()).status).toBe(200);
  });
  afterAll(() => account?.close());

  it('is listed with the part named, and cannot be switched on; nothing changes', async () => {
    const list = await server.api('GET', '/api/admin/delivery/templates', { token: admin });
    const unsupported = Object.fromEntries(
      list.body.map((t: { name: string; unsupported: string | null }) => [t.name, t.unsupported]),
    );
    expect(unsupported).toMatchObject({
      video_peluncuran: 'header video',
      kode_kupon: 'tombol COPY_CODE',
      promo_kilat: null,
      promo_bulanan: null,
      konfirmasi_kehadiran: null,
    });
    await expectUnchanged(server.database.db, async () => {
      const video = await enable('1029384756000101', true);
      expectCleanError(video, 422);
      expect(video.body.detail).toBe(
        'Template video_peluncuran memakai header video, yang belum dapat dikirim Sebar, jadi belum dapat diaktifkan',
      );
      const button = await enable('1029384756000102', true);
      expectCleanError(button, 422);
      expect(button.body.detail).toBe(
        'Template kode_kupon memakai tombol COPY_CODE, yang belum dapat dikirim Sebar, jadi belum dapat diaktifkan',
      );
    });
  });

  it('is no longer offered once Meta gives it such a part, and can be switched off', async () => {
    const tagihan = idOf('pengingat_tagihan');
    expect((await enable(tagihan, true)).status).toBe(200);
    let offered = await server.api('GET', '/api/client/templates', { token: client });
    expect(names(offered.body)).toContain('pengingat_tagihan');
    // The template is edited at Meta: it now has a video header.
    const template = account.options.templates.find((t) => t.id === tagihan)!;
    template.components.unshift({ type: 'HEADER', format: 'VIDEO' });
    expect((await sync()).status).toBe(200);
    offered = await server.api('GET', '/api/client/templates', { token: client });
    expect(names(offered.body)).not.toContain('pengingat_tagihan');
    await expectUnchanged(server.database.db, async () => {
      const blast = await server.api('POST', '/api/client/blast-requests', {
        token: client,
        body: { target_numbers: ['081234567890'], template_id: tagihan, parameters: ['Rp1'] },
      });
      expect([blast.status, blast.body.detail]).toEqual([
        422,
        'Template tidak ditemukan atau tidak lagi diaktifkan admin',
      ]);
    });
    const off = await enable(tagihan, false);
    expect(off.body).toMatchObject({ enabled: false, unsupported: 'header video' });
  });
});

describe('Meta’s template status webhooks', () => {
  let meta: LocalCloudApi;
  const promo = idOf('promo_bulanan');
  const adminTemplate = async (id: string) => {
    const list = await server.api('GET', '/api/admin/delivery/templates', { token: admin });
    return list.body.find((t: { id: string }) => t.id === id) as {
      status: string;
      enabled: boolean;
    };
  };
  const offered = async () =>
    names((await server.api('GET', '/api/client/templates', { token: client })).body);
  const unapplied = async () =>
    (
      await server.database.db
        .selectFrom('webhook_events')
        .select('id')
        .where('processed_at', 'is', null)
        .execute()
    ).length;
  /** Waits until the webhooks posted so far are taken and applied by the engine. */
  const applied = async () => {
    await meta.settled();
    await expect.poll(unapplied, { timeout: 10_000 }).toBe(0);
  };
  const statusAudits = () =>
    server.database.db
      .selectFrom('audit_log')
      .select(['actor_id', 'target_id', 'before_json', 'after_json'])
      .where('action', '=', 'template.status')
      .orderBy('created_at')
      .execute();

  const pointsOf = async () =>
    (await server.api('GET', '/api/auth/me', { token: client })).body.points as number;

  beforeAll(async () => {
    meta = await startLocalCloudApi({
      templates: structuredClone(DEFAULT_TEMPLATES),
      webhookUrl: `${server.url}/api/webhooks/whatsapp`,
    });
    await pointAt(meta);
    expect((await sync()).status).toBe(200);
    expect((await enable(promo, true)).status).toBe(200);
    const funded = await server.api('PUT', `/api/admin/users/${clientId}`, {
      token: admin,
      body: { username: 'tari', email: 'tari@sebar.test', points: 10, is_active: true },
    });
    expect(funded.status, JSON.stringify(funded.body)).toBe(200);
  });
  afterAll(() => meta?.close());

  it('takes a paused template from the clients at once and offers it again when Meta approves it', async () => {
    expect(await offered()).toContain('promo_bulanan');
    meta.changeTemplate(promo, 'PAUSED');
    await applied();
    expect(await adminTemplate(promo)).toMatchObject({ status: 'PAUSED', enabled: true });
    expect(await offered()).not.toContain('promo_bulanan');
    await expectUnchanged(server.database.db, async () => {
      const blast = await server.api('POST', '/api/client/blast-requests', {
        token: client,
        body: { target_numbers: ['081234567890'], template_id: promo, parameters: ['Budi', '5%'] },
      });
      // The client was offered it: it is told why it may not send with it now.
      expect([blast.status, blast.body.detail]).toEqual([
        422,
        'Template promo_bulanan tidak dapat dipakai saat ini (status di Meta: Dijeda)',
      ]);
    });
    // A FLAGGED warning leaves the status as it is; Meta's APPROVED ends the pause.
    meta.changeTemplate(promo, 'FLAGGED');
    await applied();
    expect((await adminTemplate(promo)).status).toBe('PAUSED');
    meta.changeTemplate(promo, 'APPROVED');
    await applied();
    expect(await adminTemplate(promo)).toMatchObject({ status: 'APPROVED', enabled: true });
    expect(await offered()).toContain('promo_bulanan');
    const audits = await statusAudits();
    expect(audits.map((a) => [a.actor_id, a.target_id, JSON.parse(a.after_json!).status])).toEqual([
      [null, promo, 'PAUSED'],
      [null, promo, 'APPROVED'],
    ]);
    expect(JSON.parse(audits[0]!.before_json!)).toEqual({
      name: 'promo_bulanan',
      language: 'id',
      status: 'APPROVED',
    });
  });

  it('never lets a late or retried webhook undo a newer status, nor touches an unknown template', async () => {
    const before = await statusAudits();
    // A pause from an hour ago, delivered only now (Meta retries for days): the last sync and
    // the approval since then know better.
    const late = templateStatusWebhook(
      meta.options.businessAccountId,
      meta.options.templates.find((t) => t.id === promo)!,
      'PAUSED',
      Date.now() - 60 * 60 * 1000,
    );
    const unknown = templateStatusWebhook(
      meta.options.businessAccountId,
      { ...DEFAULT_TEMPLATES[0]!, id: '777000777' },
      'DISABLED',
    );
    for (const payload of [late, unknown]) {
      const raw = JSON.stringify(payload);
      const answer = await server.api('POST', '/api/webhooks/whatsapp', {
        raw,
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': signBody(raw, meta.options.appSecret),
        },
      });
      expect(answer.status).toBe(200);
    }
    await applied();
    expect(await adminTemplate(promo)).toMatchObject({ status: 'APPROVED', enabled: true });
    expect(await adminTemplate('777000777')).toBeUndefined();
    expect(await statusAudits()).toEqual(before);
  });

  it.each([
    ['its webhook', '08123456001'],
    ['a sync', '08123456002'],
  ])(
    'holds the numbers of a template Meta pauses, charged, not failed, and sends them once %s says it is approved again',
    async (told, prefix) => {
      const sapaan = idOf('sapaan_pelanggan');
      expect((await enable(sapaan, true)).status).toBe(200);
      // Paused at Meta, its webhook not come yet: the first refusal tells Sebar.
      const atMeta = meta.options.templates.find((t) => t.id === sapaan)!;
      atMeta.status = 'PAUSED';
      const numbers = [1, 2, 3].map((n) => `${prefix}${n}`);
      const pointsBefore = await pointsOf();
      const blast = await server.api('POST', '/api/client/blast-requests', {
        token: client,
        body: { target_numbers: numbers, template_id: sapaan, parameters: { nama: 'Tari' } },
      });
      expect(blast.status, JSON.stringify(blast.body)).toBe(201);
      const read = async () =>
        (await server.api('GET', `/api/client/blast-requests/${blast.body.id}`, { token: client }))
          .body;
      const held = (body: any) =>
        body.numbers.every(
          (n: any) => n.delivery.state === 'queued' && n.delivery.error_code === 132015,
        );
      await expect.poll(async () => held(await read()), { timeout: 10_000 }).toBe(true);
      const waiting = await read();
      expect(waiting).toMatchObject({ status: 'pending', failed_count: 0, refund_points: 0 });
      expect(waiting.numbers[0].delivery.reason).toBe(
        'Template pesan sedang dijeda WhatsApp; dikirim setelah disetujui kembali',
      );
      expect(await pointsOf()).toBe(pointsBefore - numbers.length);
      expect((await adminTemplate(sapaan)).status).toBe('PAUSED');
      // Held, not sent again: each number was tried (and refused) once at most, none accepted,
      // and no more tries while the engine keeps running.
      const recipients = numbers.map((number) => `62${number.slice(1)}`);
      const tries = () =>
        meta.requests.filter(
          (r) =>
            r.path.endsWith('/messages') && recipients.includes((r.body as { to?: string }).to!),
        ).length;
      const refused = tries();
      expect(refused).toBeGreaterThanOrEqual(1);
      expect(refused).toBeLessThanOrEqual(numbers.length);
      for (const recipient of recipients) expect(meta.sentTo(recipient)).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(tries()).toBe(refused);

      // Meta approves it again: its webhook, or the admin's next sync, releases the numbers.
      if (told === 'a sync') {
        atMeta.status = 'APPROVED';
        expect((await sync()).status).toBe(200);
      } else {
        meta.changeTemplate(sapaan, 'APPROVED');
        await applied();
      }
      await expect.poll(async () => (await read()).status, { timeout: 10_000 }).toBe('completed');
      expect(await read()).toMatchObject({
        successful_count: 3,
        failed_count: 0,
        refund_points: 0,
      });
      for (const recipient of recipients) expect(meta.sentTo(recipient)).toBe(1);
      expect(tries()).toBe(refused + numbers.length);
      expect(await pointsOf()).toBe(pointsBefore - numbers.length);
    },
  );

  it('fails and refunds a number Meta refuses because it disabled the template, and stops offering it', async () => {
    const tagihan = idOf('pengingat_tagihan');
    expect((await enable(tagihan, true)).status).toBe(200);
    // Disabled at Meta, its webhook not come yet: Sebar still offers the template.
    meta.options.templates.find((t) => t.id === tagihan)!.status = 'DISABLED';
    const blast = await server.api('POST', '/api/client/blast-requests', {
      token: client,
      body: { target_numbers: ['081234567890'], template_id: tagihan, parameters: ['Rp1'] },
    });
    expect(blast.status, JSON.stringify(blast.body)).toBe(201);
    const read = () =>
      server.api('GET', `/api/client/blast-requests/${blast.body.id}`, { token: client });
    await expect
      .poll(async () => (await read()).body.status, { timeout: 10_000 })
      .toBe('completed');
    const { body } = await read();
    expect(body).toMatchObject({ failed_count: 1, refund_points: 1 });
    expect(body.numbers[0]).toMatchObject({
      status: 'failed',
      delivery: {
        state: 'failed',
        error_code: 132016,
        reason: 'Template pesan dinonaktifkan WhatsApp',
      },
    });
    // The refusal told Sebar before Meta's webhook did: clients are no longer offered it.
    expect(await adminTemplate(tagihan)).toMatchObject({ status: 'DISABLED', enabled: true });
    expect(await offered()).not.toContain('pengingat_tagihan');
    const audit = (await statusAudits()).at(-1)!;
    expect([audit.actor_id, audit.target_id, JSON.parse(audit.after_json!)]).toEqual([
      null,
      tagihan,
      {
        name: 'pengingat_tagihan',
        language: 'id',
        status: 'DISABLED',
        event: 'DISABLED',
        reason: 'send refused with 132016',
      },
    ]);
  });
});
