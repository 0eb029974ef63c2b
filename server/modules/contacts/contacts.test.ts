// Admin contacts over HTTP: CRUD with SPEC fields, and clients see only the active ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '#server/test/helpers.ts';
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

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

describe('contacts', () => {
  it('creates, lists, edits and deletes; clients see only active contacts', async () => {
    expect((await server.api('GET', '/api/admin/contacts', { token: admin })).body).toEqual([]);
    expect((await server.api('GET', '/api/client/contacts', { token: client })).body).toEqual([]);
    const created: any[] = [];
    for (const body of [
      { platform: 'telegram', value: ' @sebar_admin ' },
      { platform: 'whatsapp', value: '+62 812-3456-7890', is_active: true },
      { platform: 'email', value: 'cs@sebar.test', is_active: false },
    ]) {
      const answer = await server.api('POST', '/api/admin/contacts', { token: admin, body });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expectSpecFields(answer.body, 'contact');
      created.push(answer.body);
    }
    expect(created.map((c) => [c.platform, c.value, c.is_active])).toEqual([
      ['telegram', '@sebar_admin', true],
      ['whatsapp', '+62 812-3456-7890', true],
      ['email', 'cs@sebar.test', false],
    ]);
    const all = await server.api('GET', '/api/admin/contacts', { token: admin });
    expect(all.body).toHaveLength(3);
    for (const c of all.body) expectSpecFields(c, 'contact');
    const visible = await server.api('GET', '/api/client/contacts', { token: client });
    expect(visible.body.map((c: any) => c.platform).sort()).toEqual(['telegram', 'whatsapp']);

    const edited = await server.api('PUT', `/api/admin/contacts/${created[0].id}`, {
      token: admin,
      body: { platform: 'instagram', value: '@sebar.id', is_active: false },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toEqual({
      ...created[0],
      platform: 'instagram',
      value: '@sebar.id',
      is_active: false,
    });
    const after = await server.api('GET', '/api/client/contacts', { token: client });
    expect(after.body.map((c: any) => c.platform)).toEqual(['whatsapp']);

    const removed = await server.api('DELETE', `/api/admin/contacts/${created[1].id}`, {
      token: admin,
    });
    expect(removed.status).toBe(200);
    expect(removed.body.detail).toBe('Kontak berhasil dihapus');
    expect((await server.api('GET', '/api/client/contacts', { token: client })).body).toEqual([]);
  });

  it('refuses an unknown platform, an empty value and unknown ids', async () => {
    await expectUnchanged(server.database.db, async () => {
      const platform = await server.api('POST', '/api/admin/contacts', {
        token: admin,
        body: { platform: 'myspace', value: 'x' },
      });
      expectCleanError(platform, 422);
      expect(platform.body.detail).toBe('Platform harus dipilih');
      const value = await server.api('POST', '/api/admin/contacts', {
        token: admin,
        body: { platform: 'email', value: '   ' },
      });
      expectCleanError(value, 422);
      expect(value.body.detail).toBe('Kontak harus diisi');
      for (const method of ['PUT', 'DELETE']) {
        const answer = await server.api(method, `/api/admin/contacts/${MISSING_ID}`, {
          token: admin,
          body: method === 'PUT' ? { platform: 'email', value: 'cs@sebar.test' } : undefined,
        });
        expectCleanError(answer, 404);
        expect(answer.body.detail).toBe('Kontak tidak ditemukan');
      }
      expectCleanError(await server.api('GET', '/api/admin/contacts', { token: client }), 403);
      expectCleanError(await server.api('GET', '/api/client/contacts', { token: admin }), 403);
    });
  });

  it("refuses a value the client's link cannot open: an email or a WhatsApp number", async () => {
    const kept = await server.api('POST', '/api/admin/contacts', {
      token: admin,
      body: { platform: 'email', value: 'cs@sebar.test' },
    });
    expect(kept.status).toBe(201);
    await expectUnchanged(server.database.db, async () => {
      for (const [platform, value, message] of [
        ['email', 'bukan email', 'Format email tidak valid'],
        ['email', 'cs@', 'Format email tidak valid'],
        ['whatsapp', 'admin', 'Nomor WhatsApp harus berisi 8 sampai 15 angka'],
        ['whatsapp', '0812', 'Nomor WhatsApp harus berisi 8 sampai 15 angka'],
      ]) {
        for (const [method, url] of [
          ['POST', '/api/admin/contacts'],
          ['PUT', `/api/admin/contacts/${kept.body.id}`],
        ]) {
          const answer = await server.api(method!, url!, {
            token: admin,
            body: { platform, value },
          });
          expectCleanError(answer, 422);
          expect(answer.body.detail, `${platform} ${value}`).toBe(message);
        }
      }
    });
  });
});
