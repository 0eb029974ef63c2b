// Akun Klien with a balance past 32 bits: the edit dialog keeps working for such a client (edit,
// deactivate), and a balance past the one limit is refused in the form with the limit named. A
// client whose refunds took it past the limit (decision 255) is asked for a balance within it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BALANCE, MAX_BALANCE_MESSAGE } from '#common/points.ts';
import {
  adminPage,
  dismissToasts,
  type E2E,
  expectToast,
  type Page,
  shot,
  startE2E,
} from './helpers.ts';
import { adminApi, type Client, createBlast, numbers, setPoints } from './seed.ts';

let e2e: E2E;
let page: Page;
let dewi: Client;
let eko: Client;

beforeAll(async () => {
  e2e = await startE2E();
  dewi = await e2e.server.createClient({ username: 'dewi' });
  await setPoints(e2e.server, dewi, 3_000_000_000);
  // Eko's blast is rejected after the admin set his balance to the limit again: refunded past it.
  eko = await e2e.server.createClient({ username: 'eko' });
  await setPoints(e2e.server, eko, MAX_BALANCE);
  const blast = await createBlast(e2e.server, eko, 'Halo', numbers(2));
  await setPoints(e2e.server, eko, MAX_BALANCE);
  await adminApi(e2e.server, 'POST', `/api/admin/blast-requests/${blast.id}/reject`);
  page = await adminPage(e2e, '/users');
});
afterAll(async () => {
  await e2e?.close();
});

const dialog = () => page.getByRole('dialog');
const row = (text: string) => page.locator('tbody tr', { hasText: text });

describe('Akun Klien with a large balance', () => {
  it('edits and deactivates a client holding 3.000.000.000 points', async () => {
    await row('dewi').getByText('3.000.000.000 poin').waitFor();
    await page.getByRole('button', { name: 'Edit klien dewi' }).click();
    expect(await dialog().getByLabel('Poin').inputValue()).toBe('3000000000');

    // One point past the limit: the form names the limit and sends nothing.
    await dialog().getByLabel('Poin').fill('1000000000000001');
    await dialog().getByRole('button', { name: 'Simpan Perubahan' }).click();
    await dialog().getByText(MAX_BALANCE_MESSAGE).waitFor();
    await shot(page, 'admin-users-edit-over-limit');

    await dialog().getByLabel('Poin').fill('5000000000');
    await dialog().getByRole('switch', { name: 'Akun Aktif' }).click();
    await dialog().getByRole('button', { name: 'Simpan Perubahan' }).click();
    await expectToast(page, 'Data klien berhasil diperbarui', { title: 'Berhasil' });
    await dialog().waitFor({ state: 'hidden' });
    await row('dewi').getByText('5.000.000.000 poin').waitFor();
    expect(await row('dewi').textContent()).toContain('Nonaktif');
    const list = await adminApi(e2e.server, 'GET', '/api/admin/users?page=1&page_size=100');
    expect(list.items.find((u: any) => u.username === 'dewi')).toMatchObject({
      points: 5_000_000_000,
      is_active: false,
    });
    await dismissToasts(page);
  });

  it('asks for a balance within the limit from a client refunded past it', async () => {
    await row('eko').getByText('1.000.000.000.000.002 poin').waitFor();
    await page.getByRole('button', { name: 'Edit klien eko' }).click();
    expect(await dialog().getByLabel('Poin').inputValue()).toBe('1000000000000002');
    await dialog().getByRole('button', { name: 'Simpan Perubahan' }).click();
    await dialog().getByText(MAX_BALANCE_MESSAGE).waitFor();
    await shot(page, 'admin-users-edit-refunded-past-limit');

    await dialog().getByLabel('Poin').fill(String(MAX_BALANCE));
    await dialog().getByRole('button', { name: 'Simpan Perubahan' }).click();
    await expectToast(page, 'Data klien berhasil diperbarui', { title: 'Berhasil' });
    await dialog().waitFor({ state: 'hidden' });
    await row('eko').getByText('1.000.000.000.000.000 poin').waitFor();
    await dismissToasts(page);
  });
});
