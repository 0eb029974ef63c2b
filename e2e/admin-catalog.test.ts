// The admin's dashboard, Kontak, Notepad and Daftar Harga in Chromium: every create, edit,
// delete and validation, checked on screen and on the server; the load-failure toasts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminPage,
  dismissToasts,
  type E2E,
  expectNoSidewaysScroll,
  expectToast,
  goTo,
  type Page,
  shot,
  startE2E,
  statValue,
} from './helpers.ts';
import { adminApi, clientApi, createBlast, numbers, requestTopup, setPoints } from './seed.ts';

let e2e: E2E;
let page: Page;

beforeAll(async () => {
  e2e = await startE2E();
  page = await adminPage(e2e, '/');
});
afterAll(async () => {
  await e2e?.close();
});

const row = (text: string) => page.locator('tbody tr', { hasText: text });

describe('Dashboard', () => {
  it('shows zeros and no pending activity on a fresh system', async () => {
    await page.getByRole('heading', { level: 1, name: 'Selamat datang, admin!' }).waitFor();
    for (const title of ['Total Klien', 'Total Blast', 'Blast Pending', 'Poin Pending'])
      expect(await statValue(page, title)).toBe('0');
    await page.getByText('Tidak ada aktivitas pending').waitFor();
    await page.getByText('Semua request sudah diproses').waitFor();
    const menu = page.getByRole('navigation', { name: 'Menu cepat' });
    const hrefs = await menu
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(['/point-requests', '/blast-results', '/pricing', '/users']);
    await shot(page, 'admin-dashboard-empty');
  });
});

describe('Kontak', () => {
  it('adds contacts through the inline form, with its checks', async () => {
    await goTo(page, '/contacts');
    await page.getByRole('heading', { level: 1, name: 'Manajemen Kontak' }).waitFor();
    await page.getByText('Belum ada kontak yang ditambahkan').waitFor();
    await page.getByRole('button', { name: 'Tambah Kontak' }).click();
    const form = page.getByRole('form', { name: 'Tambah kontak' });
    await form.waitFor();
    expect(await form.getByLabel('Kontak').getAttribute('placeholder')).toBe(
      '@username atau nomor/email',
    );
    expect(await form.getByRole('switch', { name: 'Aktif' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    // The first field has the focus.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('contact-platform');
    await form.getByRole('button', { name: 'Simpan' }).click();
    await form.getByText('Platform harus dipilih').waitFor();
    await form.getByText('Kontak harus diisi').waitFor();
    await shot(page, 'admin-contacts-form-errors');

    await form.getByLabel('Platform').click();
    const options = await page.getByRole('option').allTextContents();
    expect(options).toEqual(['Telegram', 'WhatsApp', 'Instagram', 'Facebook', 'Email']);
    await page.getByRole('option', { name: 'Telegram' }).click();
    await form.getByLabel('Kontak').fill('@sebar_admin');
    await form.getByRole('button', { name: 'Simpan' }).click();
    await expectToast(page, 'Kontak berhasil ditambahkan', { title: 'Berhasil' });
    await form.waitFor({ state: 'hidden' });
    const telegram = row('@sebar_admin');
    await telegram.waitFor();
    expect(await telegram.textContent()).toContain('Telegram');
    expect(await telegram.textContent()).toContain('Aktif');

    // A second one, switched off, by keyboard: the select opens with Enter.
    await dismissToasts(page);
    await page.getByRole('button', { name: 'Tambah Kontak' }).click();
    await form.waitFor();
    // The form puts focus on Platform once it has rendered (an effect, a frame after it shows):
    // Enter pressed before that went to the add button, and the select never opened (CI, once).
    const platform = form.getByLabel('Platform');
    await expect.poll(() => platform.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('option', { name: 'WhatsApp' }).click();
    await form.getByLabel('Kontak').fill('081234567890');
    await form.getByRole('switch', { name: 'Aktif' }).click();
    await form.getByRole('button', { name: 'Simpan' }).click();
    await expectToast(page, 'Kontak berhasil ditambahkan');
    expect(await row('081234567890').textContent()).toContain('Nonaktif');

    const saved = await adminApi(e2e.server, 'GET', '/api/admin/contacts');
    expect(saved.map((c: any) => [c.platform, c.value, c.is_active]).sort()).toEqual([
      ['telegram', '@sebar_admin', true],
      ['whatsapp', '081234567890', false],
    ]);
    await shot(page, 'admin-contacts-desktop');
  });

  it('edits a contact (prefilled), and Batal closes and resets the form', async () => {
    await dismissToasts(page);
    await page.getByRole('button', { name: 'Edit kontak WhatsApp 081234567890' }).click();
    const form = page.getByRole('form', { name: 'Edit kontak' });
    await page.getByRole('heading', { name: 'Edit Kontak' }).waitFor();
    expect(await form.getByLabel('Kontak').inputValue()).toBe('081234567890');
    expect(await form.getByLabel('Platform').textContent()).toContain('WhatsApp');
    expect(await form.getByRole('switch', { name: 'Aktif' }).getAttribute('aria-checked')).toBe(
      'false',
    );
    // A value its wa.me link cannot open is refused under the field.
    await form.getByLabel('Kontak').fill('admin');
    await form.getByRole('button', { name: 'Perbarui' }).click();
    await form.getByText('Nomor WhatsApp harus berisi 8 sampai 15 angka').waitFor();
    await shot(page, 'admin-contacts-whatsapp-invalid');
    await form.getByLabel('Kontak').fill('6281234567890');
    await form.getByRole('switch', { name: 'Aktif' }).click();
    await form.getByRole('button', { name: 'Perbarui' }).click();
    await expectToast(page, 'Kontak berhasil diperbarui', { title: 'Berhasil' });
    await form.waitFor({ state: 'hidden' });
    expect(await row('6281234567890').textContent()).toContain('Aktif');
    // The keyboard is back on the row's Edit, not at the top of the page.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Edit kontak WhatsApp 6281234567890');
    const saved = await adminApi(e2e.server, 'GET', '/api/admin/contacts');
    expect(saved.find((c: any) => c.platform === 'whatsapp')).toMatchObject({
      value: '6281234567890',
      is_active: true,
    });

    await page.getByRole('button', { name: 'Edit kontak Telegram @sebar_admin' }).click();
    await page.getByRole('form', { name: 'Edit kontak' }).getByLabel('Kontak').fill('berubah');
    await page.getByRole('button', { name: 'Batal' }).click();
    await page.getByRole('form').waitFor({ state: 'hidden' });
    // Focus goes back to the row's Edit; opening the add form shows it empty.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Edit kontak Telegram @sebar_admin');
    await page.getByRole('button', { name: 'Tambah Kontak' }).click();
    const fresh = page.getByRole('form', { name: 'Tambah kontak' });
    expect(await fresh.getByLabel('Kontak').inputValue()).toBe('');
    expect(await fresh.getByLabel('Platform').textContent()).toContain('Pilih platform');
    expect(await fresh.getByRole('switch', { name: 'Aktif' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    await fresh.getByRole('button', { name: 'Batal' }).click();
    expect(await row('@sebar_admin').count()).toBe(1);
  });

  it('deletes a contact after the browser confirmation', async () => {
    await dismissToasts(page);
    const messages: string[] = [];
    page.once('dialog', (d) => {
      messages.push(d.message());
      void d.dismiss();
    });
    await page.getByRole('button', { name: 'Hapus kontak Telegram @sebar_admin' }).click();
    await expect.poll(() => messages).toEqual(['Apakah Anda yakin ingin menghapus kontak ini?']);
    expect(await row('@sebar_admin').count()).toBe(1);

    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Hapus kontak Telegram @sebar_admin' }).click();
    await expectToast(page, 'Kontak berhasil dihapus', { title: 'Berhasil' });
    await row('@sebar_admin').waitFor({ state: 'detached' });
    const saved = await adminApi(e2e.server, 'GET', '/api/admin/contacts');
    expect(saved.map((c: any) => c.value)).toEqual(['6281234567890']);
    // The focus moved to the row that is left, not to the page's body.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Edit kontak WhatsApp 6281234567890',
    );
  });
});

describe('Notepad', () => {
  const LONG = `${'Catatan panjang tentang jadwal blast bulanan. '.repeat(4)}Akhir.`;

  it('creates a note from the empty state, refusing blank fields without a call', async () => {
    await dismissToasts(page);
    await goTo(page, '/notes');
    await page.getByRole('heading', { level: 1, name: 'Notepad Admin' }).waitFor();
    await page.getByText('Belum ada catatan').waitFor();
    await page.getByRole('button', { name: 'Tambah Catatan Pertama' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Tambah Catatan Baru' }).waitFor();
    await dialog.getByLabel('Judul').fill('   ');
    await dialog.getByLabel('Konten').fill('Isi tanpa judul');
    await dialog.getByRole('button', { name: 'Simpan Catatan' }).click();
    await expectToast(page, 'Judul dan konten catatan harus diisi', {
      title: 'Error',
      variant: 'destructive',
    });
    expect(await adminApi(e2e.server, 'GET', '/api/admin/notes')).toEqual([]);
    await shot(page, 'admin-notes-create-error');

    await dialog.getByLabel('Judul').fill('Jadwal blast');
    await dialog.getByLabel('Konten').fill(LONG);
    await dialog.getByRole('button', { name: 'Simpan Catatan' }).click();
    await expectToast(page, 'Catatan berhasil dibuat', { title: 'Berhasil' });
    await dialog.waitFor({ state: 'hidden' });
    const note = row('Jadwal blast');
    await note.waitFor();
    expect(await note.locator('td').nth(1).textContent()).toBe(`${LONG.slice(0, 100)}...`);
    const saved = await adminApi(e2e.server, 'GET', '/api/admin/notes');
    expect(saved).toMatchObject([{ title: 'Jadwal blast', content: LONG }]);

    // The header button opens the same create dialog.
    await dismissToasts(page);
    await page.getByRole('button', { name: 'Tambah Catatan', exact: true }).click();
    await dialog.getByLabel('Judul').fill('Pendek');
    await dialog.getByLabel('Konten').fill('Isi singkat');
    await dialog.getByRole('button', { name: 'Simpan Catatan' }).click();
    await expectToast(page, 'Catatan berhasil dibuat');
    expect(await row('Pendek').locator('td').nth(1).textContent()).toBe('Isi singkat');
    await shot(page, 'admin-notes-desktop');
  });

  it('edits a note in its own dialog, with the same check', async () => {
    await dismissToasts(page);
    await page.getByRole('button', { name: 'Edit catatan Pendek' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Edit Catatan' }).waitFor();
    expect(await dialog.getByLabel('Judul').inputValue()).toBe('Pendek');
    expect(await dialog.getByLabel('Konten').inputValue()).toBe('Isi singkat');
    await dialog.getByLabel('Konten').fill('  ');
    await dialog.getByRole('button', { name: 'Simpan Perubahan' }).click();
    await expectToast(page, 'Judul dan konten catatan harus diisi');
    await shot(page, 'admin-notes-edit-dialog');
    await dialog.getByLabel('Judul').fill('Pendek (revisi)');
    await dialog.getByLabel('Konten').fill('Isi yang sudah diperbaiki');
    await dialog.getByRole('button', { name: 'Simpan Perubahan' }).click();
    await expectToast(page, 'Catatan berhasil diperbarui', { title: 'Berhasil' });
    await dialog.waitFor({ state: 'hidden' });
    await row('Pendek (revisi)').getByText('Isi yang sudah diperbaiki').waitFor();
    const saved = await adminApi(e2e.server, 'GET', '/api/admin/notes');
    expect(saved.find((n: any) => n.title === 'Pendek (revisi)').content).toBe(
      'Isi yang sudah diperbaiki',
    );
  });

  it('deletes a note after its confirmation dialog', async () => {
    await dismissToasts(page);
    await page.getByRole('button', { name: 'Hapus catatan Jadwal blast' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('heading', { name: 'Hapus Catatan' }).waitFor();
    await confirm
      .getByText(
        'Apakah Anda yakin ingin menghapus catatan "Jadwal blast"? Tindakan ini tidak dapat dibatalkan.',
      )
      .waitFor();
    await shot(page, 'admin-notes-delete-confirm');
    await confirm.getByRole('button', { name: 'Batal' }).click();
    expect(await row('Jadwal blast').count()).toBe(1);
    await page.getByRole('button', { name: 'Hapus catatan Jadwal blast' }).click();
    await confirm.getByRole('button', { name: 'Hapus' }).click();
    await expectToast(page, 'Catatan "Jadwal blast" berhasil dihapus', { title: 'Berhasil' });
    await row('Jadwal blast').waitFor({ state: 'detached' });
    const saved = await adminApi(e2e.server, 'GET', '/api/admin/notes');
    expect(saved.map((n: any) => n.title)).toEqual(['Pendek (revisi)']);
  });
});

describe('Daftar Harga', () => {
  it('adds tiers through the inline form with the example and every check', async () => {
    await dismissToasts(page);
    await goTo(page, '/pricing');
    await page.getByRole('heading', { level: 1, name: 'Daftar Harga Poin' }).waitFor();
    await page.getByText('Belum ada tier harga yang ditambahkan').waitFor();
    await page.getByRole('button', { name: 'Tambah Tier Harga' }).click();
    const form = page.getByRole('form', { name: 'Tambah tier harga' });
    const example = (await form.locator('[data-pricing-example]').textContent()) ?? '';
    expect(example).toContain('1-100 poin');
    expect(example).toContain('Rp600');
    expect(example).toContain('50 poin = Rp30.000');
    expect(example).toContain('100 poin = Rp60.000');

    await form.getByRole('button', { name: 'Simpan' }).click();
    for (const message of [
      'Nama tier harus diisi',
      'Minimum poin harus diisi',
      'Maksimum poin harus diisi',
      'Harga per poin harus diisi',
    ])
      await form.getByText(message).waitFor();
    await form.getByLabel('Nama Tier').fill('Basic');
    await form.getByLabel('Minimum Poin').fill('100');
    await form.getByLabel('Maksimum Poin').fill('1');
    await form.getByLabel('Harga Per Poin (Rp)').fill('0');
    await form.getByRole('button', { name: 'Simpan' }).click();
    await form.getByText('Minimum poin tidak boleh lebih besar dari maksimum poin').waitFor();
    await form.getByText('Harga per poin harus lebih dari 0').waitFor();
    await shot(page, 'admin-pricing-form-errors');

    await form.getByLabel('Minimum Poin').fill('1');
    await form.getByLabel('Maksimum Poin').fill('100');
    await form.getByLabel('Harga Per Poin (Rp)').fill('600');
    await form.getByRole('button', { name: 'Simpan' }).click();
    await expectToast(page, 'Tier harga berhasil ditambahkan', { title: 'Berhasil' });
    await form.waitFor({ state: 'hidden' });
    const basic = row('Basic');
    const text = (await basic.textContent()) ?? '';
    expect(text).toContain('1 - 100 poin');
    expect(text).toContain('Rp600');
    expect(text).toContain('Rp60.000');

    // An overlapping range: the server's reason is shown.
    await dismissToasts(page);
    await page.getByRole('button', { name: 'Tambah Tier Harga' }).click();
    await form.getByLabel('Nama Tier').fill('Pro');
    await form.getByLabel('Minimum Poin').fill('50');
    await form.getByLabel('Maksimum Poin').fill('500');
    await form.getByLabel('Harga Per Poin (Rp)').fill('550.5');
    await form.getByRole('button', { name: 'Simpan' }).click();
    await expectToast(
      page,
      'Gagal menambahkan tier harga: Rentang poin bertabrakan dengan tier "Basic"',
      { title: 'Error', variant: 'destructive' },
    );
    await form.getByLabel('Minimum Poin').fill('101');
    await form.getByRole('button', { name: 'Simpan' }).click();
    await expectToast(page, 'Tier harga berhasil ditambahkan');
    const pro = row('Pro');
    expect(await pro.textContent()).toContain('101 - 500 poin');
    expect(await pro.textContent()).toContain('Rp550,5');
    expect(await pro.textContent()).toContain('Rp275.250');
    const saved = await adminApi(e2e.server, 'GET', '/api/admin/pricing');
    expect(
      saved.map((t: any) => [t.tier_name, t.min_points, t.max_points, t.price_per_point]),
    ).toEqual([
      ['Basic', 1, 100, 600],
      ['Pro', 101, 500, 550.5],
    ]);
    await shot(page, 'admin-pricing-desktop');
  });

  it('edits a tier (prefilled) and deletes one after the browser confirmation', async () => {
    await dismissToasts(page);
    await page.getByRole('button', { name: 'Edit tier Basic' }).click();
    const form = page.getByRole('form', { name: 'Edit tier harga' });
    await page.getByRole('heading', { name: 'Edit Tier Harga' }).waitFor();
    expect(await form.getByLabel('Nama Tier').inputValue()).toBe('Basic');
    expect(await form.getByLabel('Maksimum Poin').inputValue()).toBe('100');
    await form.getByLabel('Harga Per Poin (Rp)').fill('650');
    await form.getByRole('button', { name: 'Perbarui' }).click();
    await expectToast(page, 'Tier harga berhasil diperbarui', { title: 'Berhasil' });
    await row('Basic').getByText('Rp65.000').waitFor();

    await dismissToasts(page);
    const messages: string[] = [];
    page.once('dialog', (d) => {
      messages.push(d.message());
      void d.dismiss();
    });
    await page.getByRole('button', { name: 'Hapus tier Pro' }).click();
    await expect
      .poll(() => messages)
      .toEqual(['Apakah Anda yakin ingin menghapus tier harga ini?']);
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Hapus tier Pro' }).click();
    await expectToast(page, 'Tier harga berhasil dihapus', { title: 'Berhasil' });
    await row('Pro').waitFor({ state: 'detached' });
    const saved = await adminApi(e2e.server, 'GET', '/api/admin/pricing');
    expect(saved).toMatchObject([{ tier_name: 'Basic', price_per_point: 650 }]);
  });
});

describe('Dashboard with activity', () => {
  it('counts clients, blasts and pending requests and links to them', async () => {
    await dismissToasts(page);
    await adminApi(
      e2e.server,
      'PUT',
      '/api/admin/pricing/' + (await adminApi(e2e.server, 'GET', '/api/admin/pricing'))[0].id,
      {
        tier_name: 'Basic',
        min_points: 1,
        max_points: 10_000,
        price_per_point: 600,
      },
    );
    const client = await e2e.server.createClient({ username: 'dina' });
    await e2e.server.createClient({ username: 'eko' });
    await setPoints(e2e.server, client, 20);
    await requestTopup(e2e.server, client, 10);
    const done = await createBlast(e2e.server, client, 'Selesai', numbers(2));
    await adminApi(e2e.server, 'POST', `/api/admin/blast-requests/${done.id}/result`, {
      successful_count: 2,
      failed_count: 0,
      no_wa_count: 0,
      admin_notes: null,
    });
    await createBlast(e2e.server, client, 'Menunggu', numbers(3, 10));
    await createBlast(e2e.server, client, 'Menunggu juga', numbers(3, 20));
    expect((await clientApi(e2e.server, client, 'GET', '/api/auth/me')).points).toBe(12);

    await goTo(page, '/');
    await page.getByText('2 blast request menunggu diproses').waitFor();
    expect(await statValue(page, 'Total Klien')).toBe('2');
    expect(await statValue(page, 'Total Blast')).toBe('1');
    expect(await statValue(page, 'Blast Pending')).toBe('2');
    expect(await statValue(page, 'Poin Pending')).toBe('1');
    await page.getByText('1 request poin menunggu approval').waitFor();
    expect(await page.getByText('Tidak ada aktivitas pending').count()).toBe(0);
    await shot(page, 'admin-dashboard-desktop');

    await page
      .getByRole('navigation', { name: 'Menu cepat' })
      .getByRole('link', { name: /Form Poin/ })
      .click();
    await page.waitForURL('**/point-requests');
    await page.getByRole('heading', { level: 1, name: 'Form Poin - Request Top-Up' }).waitFor();
  });
});

describe('Phone width and load failures', () => {
  it('lays out every catalog screen at 375 px', async () => {
    const phone = await adminPage(e2e, '/', 'phone');
    await phone.getByText('Menu Cepat').waitFor();
    await expectNoSidewaysScroll(phone);
    await shot(phone, 'admin-dashboard-phone');
    for (const [path, name, ready] of [
      ['/contacts', 'contacts', 'tbody tr'],
      ['/notes', 'notes', 'tbody tr'],
      ['/pricing', 'pricing', 'tbody tr'],
    ] as const) {
      await goTo(phone, path);
      await phone.locator(ready).first().waitFor();
      await expectNoSidewaysScroll(phone);
      await shot(phone, `admin-${name}-phone`);
    }
    await phone.getByRole('button', { name: 'Tambah Tier Harga' }).click();
    await phone.getByRole('form', { name: 'Tambah tier harga' }).waitFor();
    await expectNoSidewaysScroll(phone);
    await shot(phone, 'admin-pricing-form-phone');
    await phone.context().close();
  });

  it('shows SPEC load-failure toasts when the server refuses a list', async () => {
    const failing = await adminPage(e2e, '/', 'desktop');
    for (const [path, api, message] of [
      ['/contacts', '/api/admin/contacts', 'Gagal memuat data kontak'],
      ['/notes', '/api/admin/notes', 'Gagal memuat catatan'],
      ['/settings', '/api/admin/settings', 'Gagal memuat pengaturan'],
      ['/pricing', '/api/admin/pricing', 'Gagal memuat daftar harga'],
      ['/point-requests', '/api/admin/point-requests', 'Gagal memuat request poin'],
      ['/blast-results', '/api/admin/blast-requests', 'Gagal memuat blast requests'],
      ['/users', '/api/admin/users', 'Gagal memuat data users'],
    ] as const) {
      const pattern = new RegExp(`${api}(\\?.*)?$`);
      await failing.route(pattern, (route) =>
        route.fulfill({ status: 400, contentType: 'application/json', body: '{"detail":"x"}' }),
      );
      await goTo(failing, path);
      await expectToast(failing, message, { title: 'Error', variant: 'destructive' });
      await failing.unroute(pattern);
    }
    await failing.context().close();
  });
});
