// The admin notepad over HTTP: CRUD with SPEC fields and the trim rule on create and edit.
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

const REQUIRED = 'Judul dan konten catatan harus diisi';
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

describe('notes', () => {
  let note: any;

  it('creates a note trimmed, with SPEC fields', async () => {
    const answer = await server.api('POST', '/api/admin/notes', {
      token: admin,
      body: { title: '  Rekening baru  ', content: '\n BCA 123 \n' },
    });
    expect(answer.status).toBe(201);
    expectSpecFields(answer.body, 'note');
    expect(answer.body).toMatchObject({ title: 'Rekening baru', content: 'BCA 123' });
    expect(answer.body.updated_at).toBe(answer.body.created_at);
    note = answer.body;
    const list = await server.api('GET', '/api/admin/notes', { token: admin });
    expect(list.body).toEqual([note]);
  });

  it('refuses a blank title or content on create and edit with the SPEC message', async () => {
    await expectUnchanged(server.database.db, async () => {
      for (const body of [
        { title: '', content: 'isi' },
        { title: '   ', content: 'isi' },
        { title: 'judul', content: '' },
        { title: 'judul', content: ' \n\t ' },
        { title: ' ', content: ' ' },
      ]) {
        for (const [method, url] of [
          ['POST', '/api/admin/notes'],
          ['PUT', `/api/admin/notes/${note.id}`],
        ] as const) {
          const answer = await server.api(method, url, { token: admin, body });
          expectCleanError(answer, 422);
          expect(answer.body.detail).toBe(REQUIRED);
        }
      }
    });
  });

  it('edits (updated_at moves, created_at stays) and deletes with its title in the message', async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    const edited = await server.api('PUT', `/api/admin/notes/${note.id}`, {
      token: admin,
      body: { title: 'Rekening lama', content: 'BNI 456' },
    });
    expect(edited.status).toBe(200);
    expectSpecFields(edited.body, 'note');
    expect(edited.body.created_at).toBe(note.created_at);
    expect(edited.body.updated_at > note.updated_at).toBe(true);
    const removed = await server.api('DELETE', `/api/admin/notes/${note.id}`, { token: admin });
    expect(removed.body.detail).toBe('Catatan "Rekening lama" berhasil dihapus');
    expect((await server.api('GET', '/api/admin/notes', { token: admin })).body).toEqual([]);
    for (const id of [note.id, MISSING_ID]) {
      for (const method of ['PUT', 'DELETE']) {
        const answer = await server.api(method, `/api/admin/notes/${id}`, {
          token: admin,
          body: method === 'PUT' ? { title: 'a', content: 'b' } : undefined,
        });
        expectCleanError(answer, 404);
        expect(answer.body.detail).toBe('Catatan tidak ditemukan');
      }
    }
  });

  it('is for the admin only', async () => {
    expectCleanError(await server.api('GET', '/api/admin/notes', { token: client }), 403);
    expectCleanError(
      await server.api('POST', '/api/admin/notes', {
        token: client,
        body: { title: 'a', content: 'b' },
      }),
      403,
    );
    expectCleanError(await server.api('GET', '/api/admin/notes'), 401);
  });
});
