// The local Cloud API behaves as Meta's protocol says: token, validation codes, template paging,
// media, signed webhooks with retries, limits and every scripted outcome.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalCloudApi, type LocalCloudApi, type LocalCloudApiOptions } from './server.ts';
import { DEFAULT_TEMPLATES } from './templates.ts';
import { billSend, graph, send, startReceiver, type Receiver } from './test-helpers.ts';

let api: LocalCloudApi | undefined;
let receiver: Receiver | undefined;

afterEach(async () => {
  await api?.close();
  await receiver?.close();
  api = undefined;
  receiver = undefined;
});

/** A double posting to a fresh receiver, with no recipient gap unless asked. */
async function start(options: Partial<LocalCloudApiOptions> = {}, answer?: (n: number) => number) {
  await api?.close();
  await receiver?.close();
  receiver = await startReceiver({
    verifyToken: 'local-verify-token',
    ...(answer ? { answer } : {}),
  });
  api = await startLocalCloudApi({ webhookUrl: receiver.url, recipientGapMs: 0, ...options });
  return { api, receiver };
}

function promoSend(to: string, header: unknown) {
  return {
    messaging_product: 'whatsapp',
    to,
    type: 'template',
    template: {
      name: 'promo_bulanan',
      language: { code: 'id' },
      components: [
        { type: 'header', parameters: [header] },
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Budi' },
            { type: 'text', text: '20%' },
          ],
        },
      ],
    },
  };
}

describe('token and phone number', () => {
  it('refuses a missing or wrong token with 401 code 190, takes the right one', async () => {
    const { api } = await start();
    const path = `/v23.0/${api.options.phoneNumberId}`;
    const missing = await graph(api, 'GET', path, { token: null });
    expect(missing.status).toBe(401);
    expect(missing.body.error).toMatchObject({ code: 190, type: 'OAuthException' });
    expect(missing.body.error.fbtrace_id).toEqual(expect.any(String));
    const bad = await graph(api, 'POST', `${path}/messages`, {
      json: billSend('6281211112222'),
      token: 'nope',
    });
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe(190);
    expect(bad.headers.get('www-authenticate')).toContain('invalid_token');
    expect(api.sends).toHaveLength(0);
  });

  it("answers the phone number for Sebar's connection test, with `fields`", async () => {
    const { api } = await start();
    const id = api.options.phoneNumberId;
    const all = await graph(api, 'GET', `/v23.0/${id}`);
    expect(all.body).toMatchObject({ id, verified_name: 'Sebar Lokal', quality_rating: 'GREEN' });
    const some = await graph(api, 'GET', `/v23.0/${id}?fields=display_phone_number,quality_rating`);
    expect(some.body).toEqual({
      id,
      display_phone_number: '62 811-0000-0000',
      quality_rating: 'GREEN',
    });
    const viaQuery = await graph(api, 'GET', `/v23.0/${id}?access_token=local-access-token`, {
      token: null,
    });
    expect(viaQuery.status).toBe(200);
  });

  it("lists the account's phone numbers, not another account's the token reaches", async () => {
    const { api } = await start();
    const o = api.options;
    const path = `/v23.0/${o.businessAccountId}/phone_numbers?fields=display_phone_number`;
    const list = await graph(api, 'GET', path);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      { id: o.phoneNumberId, display_phone_number: '62 811-0000-0000' },
    ]);
    expect(list.body.paging.next).toBeUndefined();
    const other = o.otherPhoneNumbers[0]!;
    const node = await graph(api, 'GET', `/v23.0/${other.id}?fields=verified_name`);
    expect(node.body).toEqual({ id: other.id, verified_name: 'Test Number' });
    const unknown = await graph(api, 'GET', '/v23.0/123/phone_numbers');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 100, error_subcode: 33 });
  });

  it('answers code 100 for a phone number id it does not know', async () => {
    const { api } = await start();
    const answer = await graph(api, 'POST', '/v23.0/123/messages', {
      json: billSend('6281211112222'),
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      code: 100,
      error_subcode: 33,
      type: 'GraphMethodException',
    });
  });
});

describe('send validation', () => {
  it('accepts a valid template send and answers like Meta', async () => {
    const { api } = await start();
    const answer = await send(
      api,
      billSend('+62 812-1111-2222', { biz_opaque_callback_data: 'blast-7' }),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      messaging_product: 'whatsapp',
      contacts: [{ input: '+62 812-1111-2222', wa_id: '6281211112222' }],
      messages: [{ id: expect.stringMatching(/^wamid\./), message_status: 'accepted' }],
    });
    expect(api.sends[0]).toMatchObject({
      to: '6281211112222',
      template: 'pengingat_tagihan',
      language: 'id',
      biz_opaque_callback_data: 'blast-7',
      wamid: answer.body.messages[0].id,
    });
    expect(api.sentTo('+6281211112222')).toBe(1);
    const logged = api.requests.find((r) => r.path.endsWith('/messages'));
    expect(logged?.headers.authorization).toBe('Bearer local-access-token');
    expect(logged?.body).toMatchObject({ to: '+62 812-1111-2222', type: 'template' });
  });

  it('answers each documented code for a bad send', async () => {
    const { api } = await start();
    const cases: [unknown, number, number][] = [
      [{ ...billSend('6281211112222'), messaging_product: undefined }, 400, 100],
      [
        { ...billSend('6281211112222'), template: { name: 'tidak_ada', language: { code: 'id' } } },
        404,
        132001,
      ],
      [
        {
          ...billSend('6281211112222'),
          template: { name: 'pengingat_tagihan', language: { code: 'en_US' } },
        },
        404,
        132001,
      ],
      [
        {
          ...billSend('6281211112222'),
          template: { name: 'info_pengiriman', language: { code: 'id' } },
        },
        404,
        132001,
      ],
      [
        {
          ...billSend('6281211112222'),
          template: { name: 'undian_berhadiah', language: { code: 'id' } },
        },
        404,
        132001,
      ],
      [
        {
          ...billSend('6281211112222'),
          template: { name: 'pengingat_tagihan', language: { code: 'id' } },
        },
        400,
        132000,
      ],
      [promoSend('6281211112222', { type: 'text', text: 'bukan gambar' }), 400, 132012],
    ];
    for (const [body, status, code] of cases) {
      const answer = await send(api, body);
      expect({ status: answer.status, code: answer.body.error.code }).toEqual({ status, code });
      expect(answer.body.error.error_data.messaging_product).toBe('whatsapp');
    }
    const missing = await send(api, { ...billSend('6281211112222'), messaging_product: undefined });
    expect(missing.body.error.message).toBe('(#100) The parameter messaging_product is required.');
    expect(api.sends).toHaveLength(0);
  });
});

describe('send parameters', () => {
  it('refuses a parameter with a new line, a tab or more than four spaces with 132018', async () => {
    const { api } = await start();
    const withText = (text: string) =>
      send(api, {
        ...billSend('6281211112222'),
        template: {
          name: 'pengingat_tagihan',
          language: { code: 'id' },
          components: [{ type: 'body', parameters: [{ type: 'text', text }] }],
        },
      });
    for (const text of ['baris\nbaru', 'tab\there', 'lima     spasi']) {
      const answer = await withText(text);
      expect(answer.body.error.code).toBe(132018);
      expect(answer.body.error.error_data.details).toContain('new-line/tab');
    }
    expect((await withText('empat    spasi')).status).toBe(200);
  });

  it('checks named parameters by name', async () => {
    const { api } = await start();
    const named = (parameter: unknown) =>
      send(api, {
        ...billSend('6281211112222'),
        template: {
          name: 'sapaan_pelanggan',
          language: { code: 'id' },
          components: [{ type: 'body', parameters: [parameter] }],
        },
      });
    expect((await named({ type: 'text', parameter_name: 'nama', text: 'Siti' })).status).toBe(200);
    const wrong = await named({ type: 'text', parameter_name: 'name', text: 'Siti' });
    expect(wrong.body.error.code).toBe(132000);
  });

  it('needs a text header’s value and a dynamic URL button’s end, as Meta does', async () => {
    const { api } = await start();
    const kilat = (components: unknown[]) =>
      send(api, {
        ...billSend('6281211112222'),
        template: { name: 'promo_kilat', language: { code: 'id' }, components },
      });
    const header = { type: 'header', parameters: [{ type: 'text', text: 'Kilat' }] };
    const body = {
      type: 'body',
      parameters: [
        { type: 'text', text: 'Budi' },
        { type: 'text', text: 'HEMAT50' },
      ],
    };
    const button = (index: string, sub_type = 'url') => ({
      type: 'button',
      sub_type,
      index,
      parameters: [{ type: 'text', text: 'kilat-123' }],
    });
    expect((await kilat([header, body, button('0')])).status).toBe(200);
    const noButton = await kilat([header, body]);
    expect(noButton.body.error).toMatchObject({
      code: 131008,
      error_data: { details: 'buttons: Button at index 0 of type Url requires a parameter' },
    });
    expect((await kilat([body, button('0')])).body.error.code).toBe(132000);
    // The quick reply at index 1 is not a URL button.
    expect((await kilat([header, body, button('1')])).body.error.code).toBe(131009);
  });
});

describe('templates', () => {
  it('pages through message_templates with limit and after cursors, with fields', async () => {
    const { api } = await start();
    const names: string[] = [];
    let path = `/v23.0/${api.options.businessAccountId}/message_templates?limit=4&fields=name,status`;
    for (let page = 0; page < 5 && path; page += 1) {
      const answer = await graph(api, 'GET', path);
      expect(answer.status).toBe(200);
      for (const template of answer.body.data) {
        expect(Object.keys(template).sort()).toEqual(['id', 'name', 'status']);
        names.push(template.name);
      }
      expect(answer.body.paging.cursors).toEqual({
        before: expect.any(String),
        after: expect.any(String),
      });
      path = answer.body.paging.next ? answer.body.paging.next.slice(api.url.length) : '';
    }
    expect(names).toHaveLength(DEFAULT_TEMPLATES.length);
    const full = await graph(
      api,
      'GET',
      `/v23.0/${api.options.businessAccountId}/message_templates`,
    );
    const promo = full.body.data.find((t: any) => t.name === 'promo_bulanan');
    expect(promo).toMatchObject({ status: 'APPROVED', category: 'MARKETING', language: 'id' });
    expect(promo.components[0]).toMatchObject({ type: 'HEADER', format: 'IMAGE' });
    expect(full.body.paging.next).toBeUndefined();
  });

  it('takes a replacement template set', async () => {
    const { api } = await start({
      templates: [
        {
          id: '1',
          name: 'satu',
          language: 'en_US',
          status: 'APPROVED',
          category: 'UTILITY',
          components: [{ type: 'BODY', text: 'Hi' }],
        },
      ],
    });
    const answer = await graph(
      api,
      'GET',
      `/v23.0/${api.options.businessAccountId}/message_templates`,
    );
    expect(answer.body.data.map((t: any) => t.name)).toEqual(['satu']);
  });
});

describe('media', () => {
  it('keeps an uploaded file and takes a send whose image header names it', async () => {
    const { api, receiver } = await start();
    const form = new FormData();
    form.set('messaging_product', 'whatsapp');
    form.set('type', 'image/jpeg');
    form.set('file', new Blob([Buffer.from('gambar-promo')], { type: 'image/jpeg' }), 'promo.jpg');
    const upload = await graph(api, 'POST', `/v23.0/${api.options.phoneNumberId}/media`, { form });
    expect(upload.status).toBe(200);
    const id = upload.body.id as string;
    expect(api.media.get(id)?.bytes.toString()).toBe('gambar-promo');
    const node = await graph(api, 'GET', `/v23.0/${id}`);
    expect(node.body).toMatchObject({ id, mime_type: 'image/jpeg', file_size: 12 });

    expect(
      (await send(api, promoSend('6281211112222', { type: 'image', image: { id } }))).status,
    ).toBe(200);
    const byLink = promoSend('6281233334444', {
      type: 'image',
      image: { link: 'https://contoh.id/a.jpg' },
    });
    expect((await send(api, byLink)).status).toBe(200);
    await send(api, promoSend('6281255556666', { type: 'image', image: { id: '999' } }));
    await api.settled();
    const failed = receiver.statuses().filter((s) => s.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ recipient_id: '6281255556666', errors: [{ code: 131053 }] });
  });

  it('refuses an upload without messaging_product or file', async () => {
    const { api } = await start();
    const form = new FormData();
    form.set('type', 'image/jpeg');
    const answer = await graph(api, 'POST', `/v23.0/${api.options.phoneNumberId}/media`, { form });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe(100);
  });
});

describe('webhooks', () => {
  it('posts sent, delivered, read, each signed over its raw body with the app secret', async () => {
    const { api, receiver } = await start({ appSecret: 'rahasia' });
    const answer = await send(api, billSend('6281211112222', { biz_opaque_callback_data: 'b-1' }));
    await api.settled();
    expect(receiver.statuses().map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
    for (const hook of receiver.received) {
      const expected = `sha256=${createHmac('sha256', 'rahasia').update(hook.raw).digest('hex')}`;
      const given = String(hook.headers['x-hub-signature-256']);
      expect(timingSafeEqual(Buffer.from(given), Buffer.from(expected))).toBe(true);
      expect(hook.headers['content-type']).toBe('application/json');
    }
    const first = receiver.received[0]?.json;
    expect(first.object).toBe('whatsapp_business_account');
    expect(first.entry[0].id).toBe(api.options.businessAccountId);
    expect(first.entry[0].changes[0].field).toBe('messages');
    expect(first.entry[0].changes[0].value.metadata.phone_number_id).toBe(
      api.options.phoneNumberId,
    );
    expect(receiver.statuses()[0]).toMatchObject({
      id: answer.body.messages[0].id,
      recipient_id: '6281211112222',
      timestamp: expect.stringMatching(/^\d{10}$/),
      biz_opaque_callback_data: 'b-1',
      pricing: { billable: true, category: 'utility' },
    });
  });

  it("posts a user's messages to the business as Meta does: text, button, interactive reply", async () => {
    const { api, receiver } = await start({ appSecret: 'rahasia' });
    api.receive('+62 812-1111-3333', { text: 'STOP' });
    api.receive('6281211113333', { button: { text: 'Berhenti', payload: 'OPT_OUT' } });
    api.receive('6281211113333', { buttonReply: { id: 'unsub', title: 'UNSUB' } });
    await api.settled();
    expect(receiver.received).toHaveLength(3);
    for (const hook of receiver.received) {
      const expected = `sha256=${createHmac('sha256', 'rahasia').update(hook.raw).digest('hex')}`;
      expect(String(hook.headers['x-hub-signature-256'])).toBe(expected);
      const value = hook.json.entry[0].changes[0].value;
      expect(hook.json.entry[0].changes[0].field).toBe('messages');
      expect(value.metadata.phone_number_id).toBe(api.options.phoneNumberId);
      expect(value.contacts).toEqual([{ profile: { name: 'Pelanggan' }, wa_id: '6281211113333' }]);
      expect(value.messages[0]).toMatchObject({
        from: '6281211113333',
        id: expect.stringMatching(/^wamid\./),
        timestamp: expect.stringMatching(/^\d{10}$/),
      });
    }
    const messages = receiver.received.map(
      (hook) => hook.json.entry[0].changes[0].value.messages[0],
    );
    expect(
      messages.map(({ type, text, button, interactive }) => ({ type, text, button, interactive })),
    ).toEqual([
      { type: 'text', text: { body: 'STOP' } },
      { type: 'button', button: { payload: 'OPT_OUT', text: 'Berhenti' } },
      {
        type: 'interactive',
        interactive: { type: 'button_reply', button_reply: { id: 'unsub', title: 'UNSUB' } },
      },
    ]);
  });

  it('changes a template as Meta does: its status webhook, the list, and sends refused', async () => {
    const { api, receiver } = await start({ templates: structuredClone(DEFAULT_TEMPLATES) });
    const tagihan = DEFAULT_TEMPLATES.find((t) => t.name === 'pengingat_tagihan')!;
    // The control a person uses from the command line.
    const control = (event: string) =>
      fetch(`${api.url}/_local/templates/${tagihan.id}/status`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event }),
      });
    expect((await control('HILANG')).status).toBe(400);
    expect((await control('PAUSED')).status).toBe(200);
    await api.settled();
    const hook = receiver.received[0]!;
    expect(String(hook.headers['x-hub-signature-256'])).toBe(
      `sha256=${createHmac('sha256', api.options.appSecret).update(hook.raw).digest('hex')}`,
    );
    expect(hook.json.entry[0]).toMatchObject({
      id: api.options.businessAccountId,
      time: expect.any(Number),
      changes: [
        {
          field: 'message_template_status_update',
          value: {
            event: 'PAUSED',
            message_template_id: Number(tagihan.id),
            message_template_name: 'pengingat_tagihan',
            message_template_language: 'id',
            reason: 'NONE',
            message_template_category: 'UTILITY',
          },
        },
      ],
    });
    const listed = await graph(
      api,
      'GET',
      `/v23.0/${api.options.businessAccountId}/message_templates?name=pengingat_tagihan`,
    );
    expect(listed.body.data[0].status).toBe('PAUSED');
    expect(DEFAULT_TEMPLATES.find((t) => t.id === tagihan.id)!.status).toBe('APPROVED');
    const send = () =>
      graph(api, 'POST', `/v23.0/${api.options.phoneNumberId}/messages`, {
        json: billSend('6281211112222'),
      });
    expect((await send()).body.error.code).toBe(132015);
    api.changeTemplate(tagihan.id, 'DISABLED');
    expect((await send()).body.error.code).toBe(132016);
    api.changeTemplate(tagihan.id, 'APPROVED');
    expect((await send()).status).toBe(200);
  });

  it('retries a receiver that fails, with the same bytes, until it takes the webhook', async () => {
    const { api, receiver } = await start(
      { webhookRetryMs: 10, outcomes: { '6281211112222': 'sent' } },
      (n) => (n <= 2 ? 500 : 200),
    );
    await send(api, billSend('6281211112222'));
    await api.settled();
    expect(api.webhooks.map((d) => [d.attempt, d.status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    expect(new Set(api.webhooks.map((d) => d.body)).size).toBe(1);
    expect(receiver.statuses().map((s) => s.status)).toEqual(['sent']);
  });

  it('verifies the webhook URL with the hub.challenge handshake', async () => {
    const { api, receiver } = await start();
    expect(await api.verifyWebhook()).toBe(true);
    const other = await startLocalCloudApi({ verifyToken: 'lain' });
    expect(await other.verifyWebhook(receiver.url)).toBe(false);
    await other.close();
  });
});

/** One send to a number scripted with `outcome`, and the statuses posted for it. */
async function statusesFor(outcome: string) {
  const { api, receiver } = await start({ outcomes: { '6281211112222': outcome } });
  const answer = await send(api, billSend('6281211112222'));
  await api.settled();
  return { answer, statuses: receiver.statuses(), api };
}

describe('scripted outcomes: statuses', () => {
  it('read, delivered, sent', async () => {
    const read = await statusesFor('read');
    expect(read.statuses.map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
    expect((await statusesFor('delivered')).statuses.map((s) => s.status)).toEqual([
      'sent',
      'delivered',
    ]);
    expect((await statusesFor('sent')).statuses.map((s) => s.status)).toEqual(['sent']);
  });

  it('undeliverable and failed:<code> are accepted, then one failed status with the code', async () => {
    const undeliverable = await statusesFor('undeliverable');
    expect(undeliverable.answer.status).toBe(200);
    expect(undeliverable.statuses).toEqual([
      expect.objectContaining({
        status: 'failed',
        errors: [
          expect.objectContaining({
            code: 131026,
            title: 'Message undeliverable',
            error_data: { details: expect.any(String) },
          }),
        ],
      }),
    ]);
    const ecosystem = await statusesFor('failed:131049');
    expect(ecosystem.statuses[0].errors[0].code).toBe(131049);
  });
});

describe('scripted outcomes: answers and deliveries', () => {
  it('reject:<code>xN answers the error N times, then accepts', async () => {
    const { api } = await start({ outcomes: { '6281211112222': 'reject:130429x2' } });
    const codes = [];
    for (let i = 0; i < 3; i += 1) {
      const answer = await send(api, billSend('6281211112222'));
      codes.push(answer.status === 200 ? 200 : answer.body.error.code);
    }
    expect(codes).toEqual([130429, 130429, 200]);
    expect(api.sentTo('6281211112222')).toBe(1);
  });

  it('reject:368, reject:190 and reject:131056 answer with their HTTP status', async () => {
    const { api } = await start({
      outcomes: {
        '6281200000368': 'reject:368',
        '6281200000190': 'reject:190',
        '6281200131056': 'reject:131056',
      },
    });
    const blocked = await send(api, billSend('6281200000368'));
    expect([blocked.status, blocked.body.error.code]).toEqual([403, 368]);
    const token = await send(api, billSend('6281200000190'));
    expect([token.status, token.body.error.code]).toEqual([401, 190]);
    const pair = await send(api, billSend('6281200131056'));
    expect([pair.status, pair.body.error.code]).toEqual([400, 131056]);
    expect(api.sends).toHaveLength(0);
  });

  it('timeout holds the answer; the send is recorded', async () => {
    const { api } = await start({ outcomes: { '6281211112222': 'timeout:400' } });
    const began = Date.now();
    const answer = await send(api, billSend('6281211112222'));
    expect(answer.status).toBe(200);
    expect(Date.now() - began).toBeGreaterThanOrEqual(380);
    const abandoned = send(api, billSend('6281211112222'), { signal: AbortSignal.timeout(50) });
    await expect(abandoned).rejects.toThrow();
  });

  it('lost_answer: the client sees a socket error, the send and its webhooks still happen', async () => {
    const { api, receiver } = await start({ outcomes: { '6281211112222': 'lost_answer' } });
    await expect(send(api, billSend('6281211112222'))).rejects.toThrow();
    expect(api.sentTo('6281211112222')).toBe(1);
    await api.settled();
    expect(receiver.statuses().map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
    expect(receiver.statuses()[0].id).toBe(api.sends[0]?.wamid);
  });

  it('bad_gateway: the send and its webhooks happen, and a proxy answers 502 with HTML', async () => {
    const { api, receiver } = await start({ outcomes: { '6281211112222': 'bad_gateway' } });
    const answer = await send(api, billSend('6281211112222'));
    expect(answer.status).toBe(502);
    expect(answer.headers.get('content-type')).toMatch(/text\/html/);
    expect(api.sentTo('6281211112222')).toBe(1);
    await api.settled();
    expect(receiver.statuses().map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
  });

  it('duplicate posts every status twice; out_of_order posts read before delivered, no sent', async () => {
    const dup = await statusesFor('duplicate');
    expect(dup.statuses.map((s) => s.status).sort()).toEqual([
      'delivered',
      'delivered',
      'read',
      'read',
      'sent',
      'sent',
    ]);
    const order = await statusesFor('out_of_order');
    expect(order.statuses.map((s) => s.status)).toEqual(['read', 'delivered']);
  });

  it('http_500 answers 500 and records nothing', async () => {
    const { answer, api } = await statusesFor('http_500');
    expect(answer.status).toBe(500);
    expect(answer.body.error.code).toBe(131000);
    expect(api.sends).toHaveLength(0);
  });

  it('a function can choose, and the CLI suffix convention is available', async () => {
    const { outcomeBySuffix } = await import('./outcomes.ts');
    const { api, receiver } = await start({ outcomes: outcomeBySuffix });
    await send(api, billSend('6281299990001'));
    await api.settled();
    expect(receiver.statuses()[0].errors[0].code).toBe(131026);
  });
});

describe('limits', () => {
  it('answers 130429 past the messages per second of the phone number', async () => {
    const { api } = await start({ messagesPerSecond: 3 });
    const codes = [];
    for (let i = 0; i < 4; i += 1) {
      const answer = await send(api, billSend(`628121111000${i}`));
      codes.push(answer.status === 200 ? 200 : answer.body.error.code);
    }
    expect(codes).toEqual([200, 200, 200, 130429]);
  });

  it('answers 131056 to a second send to the same recipient within the gap', async () => {
    const { api } = await start({ recipientGapMs: 60_000 });
    expect((await send(api, billSend('6281211112222'))).status).toBe(200);
    const again = await send(api, billSend('6281211112222'));
    expect([again.status, again.body.error.code]).toEqual([400, 131056]);
    expect((await send(api, billSend('6281233334444'))).status).toBe(200);
  });

  it('answers 131048 past the daily unique-recipient limit, still takes known recipients', async () => {
    const { api } = await start({ dailyRecipientLimit: 2 });
    await send(api, billSend('6281200000001'));
    await send(api, billSend('6281200000002'));
    const third = await send(api, billSend('6281200000003'));
    expect(third.body.error.code).toBe(131048);
    expect((await send(api, billSend('6281200000001'))).status).toBe(200);
  });
});
