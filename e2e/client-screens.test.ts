// The client's Dashboard, Kontak Admin and History Poin screens in Chromium against the real
// server; the theme toggle; keyboard-only use; every screen at phone width; and screenshots of
// all seven screens at desktop and phone width in light and dark theme for review.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ROUTES } from '#client/app/routes.ts';
import {
  clientPage,
  dialogFocus,
  type E2E,
  expectNoSidewaysScroll,
  expectShellBalance,
  expectToast,
  goTo,
  type Page,
  patientPolls,
  screenshot,
  signIn,
  startE2E,
} from './helpers.ts';
import {
  addTiers,
  adminApi,
  type Client,
  clientApi,
  createBlast,
  numbers,
  pngBytes,
  requestTopup,
  saveSettings,
  setPoints,
  submitResult,
} from './seed.ts';

let e2e: E2E;

beforeAll(async () => {
  patientPolls();
  e2e = await startE2E();
  await addTiers(e2e.server);
});
afterAll(async () => {
  await e2e?.close();
});

async function signedIn(client: Client, path: string, viewport: 'desktop' | 'phone' = 'desktop') {
  const page = await clientPage(e2e, client, path, viewport);
  return page;
}

const cardsText = (page: Page, name: string) => page.getByRole('region', { name }).textContent();

describe('the header balance', () => {
  it('is read again on every screen change, so a change made elsewhere shows at once', async () => {
    const client = await e2e.server.createClient();
    const page = await signedIn(client, '/');
    await expectShellBalance(page, 0);
    const nav = page.getByRole('navigation', { name: 'Menu klien' });
    // Screens that read no balance themselves: only the shell can bring the new figure in.
    for (const [label, points] of [
      ['Kontak Admin', 40],
      ['Hasil Blast', 55],
      ['Riwayat Top Up', 70],
    ] as const) {
      await setPoints(e2e.server, client, points);
      const me = page.waitForResponse((r) => r.url().endsWith('/api/auth/me'));
      await nav.getByRole('link', { name: label }).click();
      await me;
      await expectShellBalance(page, points);
      expect(await page.locator('header').textContent()).toContain(`${points} poin tersedia`);
    }
    // A blast sent from the form brings the spent balance into the header.
    await nav.getByRole('link', { name: 'Form Blast' }).click();
    await page.getByLabel('Nomor WhatsApp Tujuan').fill(numbers(4).join('\n'));
    await page.getByLabel('Pesan').fill('Halo');
    await page.getByRole('button', { name: 'KIRIM BLAST REQUEST' }).click();
    await page.waitForURL('**/blast-results');
    await expectShellBalance(page, 66);
    // Coming back to the tab reads it again too (an approval while the client was away).
    await setPoints(e2e.server, client, 90);
    const me = page.waitForResponse((r) => r.url().endsWith('/api/auth/me'));
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await me;
    await expectShellBalance(page, 90);
    await page.context().close();
  });
});

describe('the header balance, on a phone', () => {
  it('shows a balance in the millions whole beside a whole title on every screen; a long name gives way', async () => {
    const client = await e2e.server.createClient({ username: 'toko-sembako-sumber-rejeki' });
    await setPoints(e2e.server, client, 9_876_543);
    const page = await signedIn(client, '/', 'phone');
    for (const { path } of CLIENT_ROUTES) {
      await goTo(page, path);
      await expectShellBalance(page, 9_876_543);
      const line = page.locator('header p', { hasText: /\d poin/ });
      expect(await line.textContent()).toBe('9.876.543 poin tersedia');
      // Nothing of it is cut off (the line is as wide as its text); the long name is.
      expect(await line.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      const name = page.locator('header p', { hasText: 'toko-sembako' });
      expect(await name.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      expect(
        await page.locator('[data-shell-title]').evaluate((el) => el.scrollWidth <= el.clientWidth),
      ).toBe(true);
    }
    await page.context().close();
  });
});

describe('the header balance, with a read under way', () => {
  it('is read again when the tab comes back while an older read is still out', async () => {
    const client = await e2e.server.createClient();
    await setPoints(e2e.server, client, 10);
    const page = await signedIn(client, '/contacts');
    await expectShellBalance(page, 10);
    // The next read of the balance leaves now and answers 10, but only after the change below.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let sent = () => {};
    const oldSent = new Promise<void>((resolve) => (sent = resolve));
    let first = true;
    await page.route('**/api/auth/me', async (route) => {
      if (!first) return route.continue();
      first = false;
      const old = await route.fetch();
      sent();
      await held;
      await route.fulfill({ response: old }).catch(() => {}); // the page may have given up on it
    });
    await page
      .getByRole('navigation', { name: 'Menu klien' })
      .getByRole('link', { name: 'Hasil Blast' })
      .click();
    await oldSent;
    await setPoints(e2e.server, client, 80);
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    release();
    await expectShellBalance(page, 80);
    await page.context().close();
  });
});

describe('the header balance, on a screen left open', () => {
  it('is read again every 30 seconds while the tab is shown', async () => {
    const client = await e2e.server.createClient();
    const page = await e2e.open('/login');
    await page.clock.install();
    await page.reload();
    await signIn(page, client.user.email, client.password);
    await goTo(page, '/contacts');
    await expectShellBalance(page, 0);
    await setPoints(e2e.server, client, 33);
    await page.clock.fastForward(29_000);
    expect(await page.locator('[data-balance]').textContent()).toBe('0');
    await page.clock.fastForward(1_500);
    await expectShellBalance(page, 33);
    await page.context().close();
  });
});

describe('Dashboard', () => {
  it("shows today's figures, the balance, today's activity and the quick links", async () => {
    const client = await e2e.server.createClient();
    await setPoints(e2e.server, client, 20);
    const first = await createBlast(e2e.server, client, 'Pagi', numbers(3));
    await createBlast(e2e.server, client, 'Siang', numbers(2, 10));
    await submitResult(e2e.server, first.id, {
      successful_count: 2,
      failed_count: 1,
      no_wa_count: 0,
    });
    const page = await signedIn(client, '/');
    await page.getByRole('heading', { name: `Selamat datang, ${client.user.username}!` }).waitFor();
    await expect
      .poll(() => cardsText(page, 'Ringkasan'))
      .toBe('Blast Hari Ini2Poin Terpakai Hari Ini5Poin Refund Hari Ini1Total Blast2');
    expect(await page.locator('[data-dashboard-points]').textContent()).toBe('16');
    expect(await page.getByText('1 poin = 1 nomor WhatsApp').count()).toBe(1);
    expect(await page.locator('[data-today-activity]').textContent()).toBe(
      'Aktivitas Hari IniPoin terpakai-5Poin refund+1Blast dibuat2',
    );
    await expectShellBalance(page, 16);

    for (const [name, path] of [
      ['Kirim Blast Baru', '/blast-form'],
      ['Top Up Poin', '/topup'],
      ['Lihat Hasil Blast', '/blast-results'],
    ]) {
      await page
        .locator('main')
        .getByRole('link', { name: new RegExp(`^${name}`) })
        .click();
      await page.waitForURL(`**${path}`);
      await page.goBack();
      await page.getByRole('heading', { name: /Selamat datang/ }).waitFor();
    }
    await page.context().close();
  });

  it('shows no refund line when nothing was refunded today, and Refresh reloads', async () => {
    const client = await e2e.server.createClient();
    const page = await signedIn(client, '/');
    await page.locator('[data-today-activity]').waitFor();
    expect(await page.locator('[data-today-activity]').textContent()).toBe(
      'Aktivitas Hari IniPoin terpakai-0Blast dibuat0',
    );
    await requestTopup(e2e.server, client, 40, { decide: 'approve' });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => page.locator('[data-dashboard-points]').textContent()).toBe('40');
    await expectShellBalance(page, 40);
    await page.context().close();
  });

  it('refreshes by itself every 30 seconds', async () => {
    const client = await e2e.server.createClient();
    const page = await e2e.open('/login');
    await page.clock.install();
    await page.reload();
    await signIn(page, client.user.email, client.password);
    await page.locator('[data-dashboard-points]').waitFor();
    expect(await page.locator('[data-dashboard-points]').textContent()).toBe('0');
    await setPoints(e2e.server, client, 7);
    await createBlast(e2e.server, client, 'Otomatis', numbers(2));
    await page.clock.fastForward(29_000);
    expect(await page.locator('[data-dashboard-points]').textContent()).toBe('0');
    await page.clock.fastForward(1_500);
    await expect.poll(() => page.locator('[data-dashboard-points]').textContent()).toBe('5');
    expect(await cardsText(page, 'Ringkasan')).toContain('Blast Hari Ini1');
    await expectShellBalance(page, 5);
    await page.context().close();
  });
});

describe('Kontak Admin', () => {
  it("says 'Kontak Sedang Disiapkan' before there are contacts, with the help text", async () => {
    const client = await e2e.server.createClient();
    const page = await signedIn(client, '/contacts');
    await page.getByText('Kontak Sedang Disiapkan').waitFor();
    const main = (await page.locator('main').textContent()) ?? '';
    for (const text of [
      'Admin siap membantu 24/7',
      'kurang dari 1 jam',
      'Username akun Anda',
      'Screenshot (jika ada)',
      'Waktu kejadian',
      'Normal< 2 jam',
      'Urgent< 30 menit',
    ])
      expect(main).toContain(text);
    await page.context().close();
  });

  it('shows one card per active contact with the link SPEC gives each platform', async () => {
    const contacts = [
      { platform: 'telegram', value: '@sebar_admin' },
      { platform: 'whatsapp', value: '+62 812-3456-7890' },
      { platform: 'instagram', value: '@sebar.id' },
      { platform: 'facebook', value: 'https://facebook.com/sebar' },
      { platform: 'facebook', value: 'Sebar Official' },
      { platform: 'email', value: 'admin@sebar.id' },
      { platform: 'telegram', value: '@lama', is_active: false },
    ];
    for (const contact of contacts)
      await adminApi(e2e.server, 'POST', '/api/admin/contacts', { is_active: true, ...contact });
    const client = await e2e.server.createClient();
    const page = await signedIn(client, '/contacts');
    const list = page.getByRole('list', { name: 'Daftar kontak admin' });
    await list.waitFor();
    expect(await list.locator(':scope > li').count()).toBe(6);
    expect(await list.textContent()).not.toContain('@lama');
    const linkOf = async (value: string) => {
      const card = list.locator('li').filter({ has: page.getByText(value, { exact: true }) });
      const link = card.getByRole('link');
      if ((await link.count()) === 0) return null;
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
      return link.getAttribute('href');
    };
    expect(await linkOf('@sebar_admin')).toBe('https://t.me/sebar_admin');
    expect(await linkOf('+62 812-3456-7890')).toBe('https://wa.me/6281234567890');
    expect(await linkOf('@sebar.id')).toBe('https://instagram.com/sebar.id');
    expect(await linkOf('https://facebook.com/sebar')).toBe('https://facebook.com/sebar');
    expect(await linkOf('Sebar Official')).toBeNull();
    expect(await linkOf('admin@sebar.id')).toBe('mailto:admin@sebar.id');
    expect(
      await list
        .locator('li')
        .filter({ has: page.getByText('@sebar_admin', { exact: true }) })
        .getByRole('heading')
        .textContent(),
    ).toBe('Telegram');
    await page.context().close();
  });
});

describe('History Poin', () => {
  it('shows the empty state for a client without transactions', async () => {
    const client = await e2e.server.createClient();
    const page = await signedIn(client, '/point-history');
    await page.getByText('Belum ada transaksi poin').waitFor();
    expect(await cardsText(page, 'Ringkasan poin')).toBe(
      'Total Top Up0Total Terpakai0Total Refund0Jumlah Transaksi0',
    );
    await page.context().close();
  });

  it('lists the ledger newest first with signed amounts and the balance each entry left', async () => {
    const client = await e2e.server.createClient();
    await requestTopup(e2e.server, client, 100, { decide: 'approve' }); // 100
    const blast = await createBlast(e2e.server, client, 'Satu', numbers(3)); // 97
    await submitResult(e2e.server, blast.id, {
      successful_count: 1,
      failed_count: 1,
      no_wa_count: 1,
    }); // 99
    await setPoints(e2e.server, client, 150); // +51
    const second = await createBlast(e2e.server, client, 'Dua', numbers(2, 20)); // 148
    await clientApi(e2e.server, client, 'POST', `/api/client/blast-requests/${second.id}/cancel`); // 150

    const page = await signedIn(client, '/point-history');
    const table = page.getByRole('table', { name: 'Riwayat transaksi poin' });
    await table.locator('tbody tr').nth(4).waitFor();
    expect(await page.locator('[data-history-balance]').textContent()).toBe('150 poin');
    expect(await cardsText(page, 'Ringkasan poin')).toBe(
      'Total Top Up100Total Terpakai5Total Refund4Jumlah Transaksi6',
    );
    const read = async () =>
      table.locator('tbody tr').evaluateAll((rows) =>
        rows.map((row) => {
          const cells = row.querySelectorAll('td');
          return [cells[1]!.textContent, cells[3]!.textContent, cells[4]!.textContent].join(' | ');
        }),
      );
    expect(await read()).toEqual([
      'Refund | +2 | 150',
      'Penggunaan | -2 | 148',
      'Penyesuaian Admin | +51 | 150',
      'Refund | +2 | 99',
      'Penggunaan | -3 | 97',
    ]);
    expect(
      await table
        .locator('tbody tr')
        .nth(1)
        .locator('[data-transaction-description]')
        .textContent(),
    ).toBe('Blast WhatsApp ke 2 nomor');
    await page.getByRole('button', { name: 'Halaman 2' }).click();
    await table.locator('tbody tr', { hasText: 'Top Up' }).waitFor();
    expect(await read()).toEqual(['Top Up | +100 | 100']);
    await page.context().close();
  });
});

describe('figures not read yet', () => {
  it('History Poin and Hasil Blast show a placeholder while loading, never a false zero', async () => {
    const client = await e2e.server.createClient();
    await setPoints(e2e.server, client, 7);
    const page = await signedIn(client, '/');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/(client\/(transactions|blast-requests)|auth\/me)/, async (route) => {
      await held;
      await route.continue();
    });
    const nav = page.getByRole('navigation', { name: 'Menu klien' });
    for (const [link, region, cards] of [
      ['History Poin', 'Ringkasan poin', 4],
      ['Hasil Blast', 'Ringkasan blast', 3],
    ] as const) {
      await nav.getByRole('link', { name: link }).click();
      await page.getByRole('heading', { level: 1, name: link }).waitFor();
      const summary = page.getByRole('region', { name: region });
      expect(await summary.locator('[data-loading-figure]').count()).toBe(cards);
      expect(await summary.textContent()).not.toMatch(/\d/);
      if (link === 'History Poin')
        expect(await page.locator('[data-history-balance]').textContent()).not.toContain('0 poin');
    }
    release();
    await expect
      .poll(() => cardsText(page, 'Ringkasan blast'))
      .toBe('Menunggu0Selesai0Total Blast0');
    await page.context().close();
  });
});

describe('a screen opened from the phone menu', () => {
  it('starts at its top, its title below the sticky header', async () => {
    const client = await e2e.server.createClient();
    const page = await signedIn(client, '/', 'phone');
    for (const label of ['History Poin', 'Top Up Poin', 'Form Blast']) {
      await page.getByRole('button', { name: 'Buka menu' }).click();
      await dialogFocus(page);
      await page.getByRole('dialog').getByRole('link', { name: label }).click();
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      const heading = page.getByRole('heading', { level: 1 });
      await heading.waitFor();
      // Focus reached the page (Radix gives it after the close); then nothing may have scrolled.
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');
      expect(await page.evaluate(() => window.scrollY), label).toBe(0);
      const headerBottom = await page
        .locator('header')
        .evaluate((el) => el.getBoundingClientRect().bottom);
      const titleTop = await heading.evaluate((el) => el.getBoundingClientRect().top);
      expect(titleTop, label).toBeGreaterThanOrEqual(headerBottom);
    }
    await page.context().close();
  });
});

describe('theme, keyboard and phone width', () => {
  it('on a phone each empty list says so in full, not cut off by the sideways scroll', async () => {
    const client = await e2e.server.createClient();
    const page = await signedIn(client, '/blast-results', 'phone');
    for (const [path, text] of [
      ['/blast-results', 'Belum ada blast request'],
      ['/topup-history', 'Belum ada history top-up'],
      ['/point-history', 'Belum ada transaksi poin'],
    ] as const) {
      await goTo(page, path);
      const message = page.getByText(text, { exact: true });
      await message.waitFor();
      const box = await message.evaluate((el) => {
        const rect = el.getBoundingClientRect();
        return { left: rect.left, right: rect.right, width: window.innerWidth };
      });
      expect(box.left, path).toBeGreaterThanOrEqual(0);
      expect(box.right, path).toBeLessThanOrEqual(box.width);
    }
    await page.context().close();
  });

  it('the theme toggle persists across pages and reloads', async () => {
    const client = await e2e.server.createClient();
    const page = await signedIn(client, '/');
    const dark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));
    expect(await dark()).toBe(false);
    await page.getByRole('button', { name: 'Aktifkan mode gelap' }).click();
    expect(await dark()).toBe(true);
    await page
      .getByRole('navigation', { name: 'Menu klien' })
      .getByRole('link', { name: 'History Poin' })
      .click();
    await page.waitForURL('**/point-history');
    expect(await dark()).toBe(true);
    await page.reload();
    await page.getByRole('button', { name: 'Aktifkan mode terang' }).waitFor();
    expect(await dark()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    await page.getByRole('button', { name: 'Aktifkan mode terang' }).click();
    await page.reload();
    await page.getByRole('button', { name: 'Aktifkan mode gelap' }).waitFor();
    expect(await dark()).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
    await page.context().close();
  });

  /** Presses Tab until the element matching `selector` has focus. */
  async function tabTo(page: Page, selector: string) {
    for (let i = 0; i < 60; i++) {
      if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
      await page.keyboard.press('Tab');
    }
    throw new Error(`Tab never reached ${selector}`);
  }

  it('sends a blast and requests a top-up with the keyboard alone', async () => {
    const client = await e2e.server.createClient();
    await setPoints(e2e.server, client, 5);
    const page = await signedIn(client, '/blast-form');
    await expectShellBalance(page, 5);
    await tabTo(page, '#blast-numbers');
    await page.keyboard.type('081234567890\n081234567891');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('blast-message');
    await page.keyboard.type('Dikirim dengan keyboard');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/blast-results');
    await expectToast(page, 'Blast request berhasil dibuat untuk 2 nomor');
    await expectShellBalance(page, 3);

    // The detail dialog opens and closes from the keyboard.
    await tabTo(page, 'main tbody button');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Detail Blast Request' });
    await dialog.locator('[data-number-list]').waitFor();
    await dialogFocus(page);
    await page.keyboard.press('Escape'); // the toast is the top layer
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await goTo(page, '/topup');
    await page.getByRole('list', { name: 'Tier harga' }).waitFor();
    await tabTo(page, 'button[aria-pressed]');
    await page.keyboard.press('Enter');
    expect(await page.getByLabel('Jumlah Poin').inputValue()).toBe('1');
    await tabTo(page, '#topup-points');
    await page.keyboard.press('Enter'); // submits the form
    await expectToast(page, 'Request top-up 1 poin berhasil dibuat. Menunggu approval admin.');
    await page.context().close();
  });
});

const SCREENS = [
  ['dashboard', '/'],
  ['blast-form', '/blast-form'],
  ['contacts', '/contacts'],
  ['topup', '/topup'],
  ['blast-results', '/blast-results'],
  ['topup-history', '/topup-history'],
  ['point-history', '/point-history'],
] as const;

describe('every screen at desktop and phone width, light and dark', () => {
  let client: Client;
  beforeAll(async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await pngBytes('#111111', 160))]), 'qr.png');
    const qr = await e2e.server.api('POST', '/api/admin/upload-qr', {
      token: e2e.server.adminToken,
      raw: form,
    });
    await saveSettings(e2e.server, {
      qr_code_file: qr.body.file_url,
      qr_data_url: qr.body.data_url,
      allow_images: true,
    });
    client = await e2e.server.createClient({ username: 'budi' });
    await requestTopup(e2e.server, client, 150, {
      decide: 'approve',
      proof: 'https://i.imgur.com/bukti.png',
    });
    await requestTopup(e2e.server, client, 20, { decide: 'reject' });
    await requestTopup(e2e.server, client, 60);
    const done = await createBlast(
      e2e.server,
      client,
      'Halo Kak! Ada promo spesial akhir tahun untuk semua produk kami, diskon hingga 50%. Balas pesan ini untuk info lebih lanjut.',
      numbers(12),
    );
    await submitResult(e2e.server, done.id, {
      successful_count: 8,
      failed_count: 3,
      no_wa_count: 1,
    });
    const rejected = await createBlast(e2e.server, client, 'Info jadwal buka toko', numbers(4, 40));
    await adminApi(e2e.server, 'POST', `/api/admin/blast-requests/${rejected.id}/reject`);
    await createBlast(e2e.server, client, 'Pengingat pembayaran tagihan bulan ini', numbers(6, 60));
  });

  for (const viewport of ['desktop', 'phone'] as const) {
    it(`${viewport}: no sideways scroll, screenshots in both themes`, async () => {
      const page = await signedIn(client, '/', viewport);
      for (const theme of ['light', 'dark'] as const) {
        await page.evaluate((t) => localStorage.setItem('theme', t), theme);
        for (const [name, path] of SCREENS) {
          await goTo(page, path);
          // Wait for the screen's data, not just the frame.
          await page.waitForLoadState('networkidle');
          await page
            .locator('[role="status"] .animate-spin')
            .first()
            .waitFor({ state: 'detached', timeout: 5000 });
          if (name === 'blast-form') {
            await page
              .getByLabel('Nomor WhatsApp Tujuan')
              .fill('081234567890\n0812-3456-7890\n12345');
            await page.getByLabel('Pesan').fill('Halo, ini contoh pesan blast.');
          }
          if (name === 'topup')
            await page.getByRole('img', { name: 'QR Code pembayaran' }).waitFor();
          await expectNoSidewaysScroll(page);
          await page.evaluate(() => window.scrollTo(0, 0));
          await screenshot(page, `client-${name}-${viewport}-${theme}`);
        }
        await goTo(page, '/blast-results');
        await page
          .getByRole('button', { name: /^Detail/ })
          .last()
          .click();
        await page.locator('[data-number-list]').waitFor();
        await screenshot(page, `client-blast-detail-${viewport}-${theme}`);
      }
      await page.context().close();
    });
  }
});
