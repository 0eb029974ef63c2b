// Failures in Chromium: a server that cannot be reached is named as the cause, after what failed,
// and a dialog closes with one Escape while a toast is on screen.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  adminPage,
  dialogFocus,
  dismissToasts,
  type E2E,
  expectToast,
  goTo,
  type Page,
  startE2E,
} from './helpers.ts';
import { adminApi } from './seed.ts';

const UNREACHABLE = 'server tidak dapat dihubungi. Periksa koneksi Anda.';

let e2e: E2E;
let page: Page;

beforeAll(async () => {
  e2e = await startE2E();
  page = await adminPage(e2e, '/notes');
});
afterEach(async () => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});
afterAll(async () => {
  await e2e?.close();
});

/** A note made through the API, shown on a fresh /notes. */
async function seedNote(title: string) {
  const note = await adminApi(e2e.server, 'POST', '/api/admin/notes', { title, content: 'Isi' });
  await goTo(page, '/notes');
  await page.locator('tbody tr', { hasText: title }).waitFor();
  await dismissToasts(page);
  return note;
}

/** The first open dialog (or alert dialog) on the page. */
const dialog = () => page.locator('[role=dialog], [role=alertdialog]');

describe('a server that cannot be reached', () => {
  it('says so after the failed list load', async () => {
    await page.route('**/api/admin/notes', (route) => route.abort('connectionrefused'));
    await goTo(page, '/notes');
    await expectToast(page, `Gagal memuat catatan: ${UNREACHABLE}`, {
      title: 'Error',
      variant: 'destructive',
    });
  });

  it('says so after the failed save, and the dialog stays to try again', async () => {
    await goTo(page, '/notes');
    await dismissToasts(page);
    await page.getByRole('button', { name: 'Tambah Catatan', exact: true }).click();
    await page.getByLabel('Judul').fill('Jadwal');
    await page.getByLabel('Konten').fill('Cek transfer jam 9');
    await page.route('**/api/admin/notes', (route) => route.abort('internetdisconnected'));
    await page.getByRole('button', { name: 'Simpan Catatan' }).click();
    await expectToast(page, `Gagal membuat catatan: ${UNREACHABLE}`, { variant: 'destructive' });
    await page.unrouteAll();
    expect(await dialog().count()).toBe(1);
    await page.getByRole('button', { name: 'Simpan Catatan' }).click();
    await expectToast(page, 'Catatan berhasil dibuat', { title: 'Berhasil' });
  });

  it('says so when a proxy answers for the server (502 without its detail)', async () => {
    const note = await seedNote('Proxy');
    await page.route(`**/api/admin/notes/${note.id}`, (route) =>
      route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>' }),
    );
    await page.getByRole('button', { name: 'Hapus catatan Proxy' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Hapus' }).click();
    await expectToast(page, `Gagal hapus catatan: ${UNREACHABLE}`, { variant: 'destructive' });
  });

  it('says so at sign-in', async () => {
    const login = await e2e.open('/login');
    await login.route('**/api/auth/login', (route) => route.abort('connectionrefused'));
    await login.getByLabel('Email').fill('admin@contoh.test');
    await login.getByLabel('Password', { exact: true }).fill('rahasia123');
    await login.getByRole('button', { name: 'Sign In' }).click();
    await expectToast(login, `Login gagal: ${UNREACHABLE}`, { title: 'Login gagal' });
    await login.context().close();
  });
});

describe('Escape while a toast is on screen', () => {
  it('closes a dialog with one press', async () => {
    await seedNote('Dialog');
    await page.getByRole('button', { name: 'Tambah Catatan', exact: true }).click();
    await dialogFocus(page);
    // An empty save: the toast shows while the dialog is open, above it in Radix's layers.
    await page.getByRole('button', { name: 'Simpan Catatan' }).click();
    await expectToast(page, 'Judul dan konten catatan harus diisi');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached', timeout: 2000 });
  });

  it('closes a confirmation with one press', async () => {
    await seedNote('Konfirmasi');
    await page.route('**/api/admin/notes/*', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }),
    );
    await page.getByRole('button', { name: 'Hapus catatan Konfirmasi' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Hapus' }).click();
    // The delete failed: the toast says so and the confirmation stays open.
    await expectToast(page, 'Gagal hapus catatan', { variant: 'destructive' });
    await dialogFocus(page);
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached', timeout: 2000 });
    expect(await page.locator('tbody tr', { hasText: 'Konfirmasi' }).count()).toBe(1);
  });
});
