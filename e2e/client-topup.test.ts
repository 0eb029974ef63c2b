// The client's Top Up Poin and Riwayat Top Up screens in Chromium against the real server: tiers,
// the price, every message of the form, the payment instructions with the QR code and its
// fallbacks, and the paginated history with the server's counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientPage,
  type E2E,
  expectShellBalance,
  expectToast,
  goTo,
  type Page,
  patientPolls,
  shot,
  signIn,
  startE2E,
} from './helpers.ts';
import {
  addTiers,
  adminApi,
  type Client,
  clientApi,
  pngBytes,
  requestTopup,
  saveSettings,
} from './seed.ts';

let e2e: E2E;

beforeAll(async () => {
  patientPolls();
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

async function signedIn(path = '/topup'): Promise<{ page: Page; client: Client }> {
  const client = await e2e.server.createClient();
  const page = await clientPage(e2e, client, path);
  return { page, client };
}

const pointsField = (page: Page) => page.getByLabel('Jumlah Poin');
const amountField = (page: Page) => page.getByLabel('Total Harga');
const proofField = (page: Page) => page.getByLabel('URL Bukti Transfer (Opsional)');
const submitButton = (page: Page) => page.getByRole('button', { name: 'Buat Request Top-Up' });

describe('Top Up Poin', () => {
  it('before the admin set anything: no tiers, no account, the button disabled', async () => {
    const { page } = await signedIn();
    await page.getByText('Belum ada daftar harga tersedia').waitFor();
    await page.getByText('Informasi rekening belum tersedia').waitFor();
    expect(await page.locator('[data-payment-qr]').count()).toBe(0);
    expect(await page.locator('[data-topup-balance]').textContent()).toBe('0 poin');
    expect(await page.getByText('1 poin = 1 nomor WhatsApp').count()).toBe(1);
    expect(await amountField(page).getAttribute('placeholder')).toBe(
      'Harga akan dihitung otomatis',
    );
    expect(await amountField(page).getAttribute('readonly')).not.toBeNull();
    expect(await pointsField(page).getAttribute('min')).toBe('1');
    expect(await submitButton(page).isDisabled()).toBe(true);
    // Points but no tier: Rp0, and the server says why it refuses.
    await pointsField(page).fill('10');
    expect(await amountField(page).inputValue()).toBe('Rp0');
    await submitButton(page).click();
    await expectToast(page, 'Harga untuk jumlah poin ini belum tersedia. Hubungi admin.', {
      title: 'Error',
      variant: 'destructive',
    });
    await page.context().close();
  });

  describe('with tiers and payment settings', () => {
    beforeAll(async () => {
      await addTiers(e2e.server);
    });

    it('lists the tiers; a click fills the minimum; the price follows the shared rule', async () => {
      await saveSettings(e2e.server);
      const { page } = await signedIn();
      const tiers = page.getByRole('list', { name: 'Tier harga' });
      await tiers.waitFor();
      expect(await tiers.getByRole('button').allTextContents()).toEqual([
        'Basic1 - 100 poinRp600/poin',
        'Pro101 - 1.000 poinRp500/poin',
      ]);
      await tiers.getByRole('button', { name: /Pro/ }).click();
      expect(await pointsField(page).inputValue()).toBe('101');
      expect(await amountField(page).inputValue()).toBe('Rp50.500');
      expect(await page.locator('[data-tier-note]').textContent()).toBe(
        'Menggunakan tier: 101 - 1.000 poin',
      );
      expect(await tiers.getByRole('button', { name: /Pro/ }).getAttribute('aria-pressed')).toBe(
        'true',
      );
      await pointsField(page).fill('50');
      expect(await amountField(page).inputValue()).toBe('Rp30.000');
      expect(await page.locator('[data-tier-note]').textContent()).toBe(
        'Menggunakan tier: 1 - 100 poin',
      );
      // Above the highest tier: the last tier's rate, no tier note.
      await pointsField(page).fill('2000');
      expect(await amountField(page).inputValue()).toBe('Rp1.000.000');
      expect(await page.locator('[data-tier-note]').count()).toBe(0);

      const bank = page.locator('[data-bank-info]');
      expect(await bank.textContent()).toBe(
        'Transfer BankBankBCANomor Rekening1234567890Atas NamaPT Sebar Indonesia',
      );
      const steps = page.getByRole('list').filter({ hasText: 'Tunggu approval dari admin.' });
      expect(await steps.locator('li').count()).toBe(6);
      await page.context().close();
    });

    it('every message of the form, then a request that clears the form', async () => {
      const { page, client } = await signedIn();
      await page.getByRole('list', { name: 'Tier harga' }).waitFor();
      const posts: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'POST' && r.url().endsWith('/api/client/point-requests'))
          posts.push(r.url());
      });

      expect(await submitButton(page).isDisabled()).toBe(true);
      await pointsField(page).fill('0');
      expect(await amountField(page).inputValue()).toBe('Rp0');
      await submitButton(page).click();
      await expectToast(page, 'Jumlah poin harus lebih dari 0', {
        title: 'Error',
        variant: 'destructive',
      });
      await pointsField(page).fill('-5');
      await submitButton(page).click();
      await expectToast(page, 'Jumlah poin harus lebih dari 0', { title: 'Error' });
      // A fraction of a point has no price, and is named for what it is, as typed and on submit.
      await pointsField(page).fill('2.5');
      expect(await amountField(page).inputValue()).toBe('');
      expect(await page.locator('#topup-points-error').textContent()).toBe(
        'Jumlah poin harus bilangan bulat',
      );
      await shot(page, 'client-topup-fraction');
      await submitButton(page).click();
      await expectToast(page, 'Jumlah poin harus bilangan bulat', { title: 'Error' });
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('topup-points');
      await pointsField(page).fill('50');
      await proofField(page).fill('ftp://bukti.example/transfer.png');
      await submitButton(page).click();
      await expectToast(page, 'URL bukti transfer harus diawali http:// atau https://', {
        title: 'Error',
      });
      // Said under the field too, which takes the focus: it stays after the toast has gone.
      expect(await page.locator('#topup-proof-error').textContent()).toBe(
        'URL bukti transfer harus diawali http:// atau https://',
      );
      expect(await proofField(page).getAttribute('aria-invalid')).toBe('true');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('topup-proof');
      expect(posts).toHaveLength(0);

      // 'Memproses...' while the request is on its way.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/client/point-requests', async (route) => {
        await held;
        await route.continue();
      });
      await proofField(page).fill('  https://i.imgur.com/bukti.png  ');
      await submitButton(page).click();
      const busy = page.getByRole('button', { name: 'Memproses...' });
      await busy.waitFor();
      expect(await busy.isDisabled()).toBe(true);
      release();
      await expectToast(page, 'Request top-up 50 poin berhasil dibuat. Menunggu approval admin.', {
        title: 'Request Berhasil',
        variant: 'success',
      });
      expect(await pointsField(page).inputValue()).toBe('');
      expect(await amountField(page).inputValue()).toBe('');
      expect(await proofField(page).inputValue()).toBe('');
      expect(await page.locator('#topup-proof-error').count()).toBe(0);
      // The emptied form's button cannot be pressed: the keyboard goes on from the first field.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('topup-points');
      expect(await page.locator('[data-tier-note]').count()).toBe(0);
      expect(
        await page
          .getByRole('list', { name: 'Tier harga' })
          .locator('[aria-pressed="true"]')
          .count(),
      ).toBe(0);
      expect(posts).toHaveLength(1);

      const list = await clientApi(e2e.server, client, 'GET', '/api/client/point-requests');
      expect(list.items).toMatchObject([
        {
          points_requested: 50,
          amount_paid: 30000,
          status: 'pending',
          payment_proof_url: 'https://i.imgur.com/bukti.png',
        },
      ]);

      // Without proof the URL is sent as null.
      await pointsField(page).fill('10');
      await submitButton(page).click();
      await expectToast(page, 'Request top-up 10 poin berhasil dibuat.');
      const again = await clientApi(e2e.server, client, 'GET', '/api/client/point-requests');
      expect(again.items[0]).toMatchObject({ points_requested: 10, payment_proof_url: null });

      // Thousands are grouped as id-ID writes them.
      await pointsField(page).fill('1000');
      await submitButton(page).click();
      await expectToast(
        page,
        'Request top-up 1.000 poin berhasil dibuat. Menunggu approval admin.',
      );
      await page.context().close();
    });

    it('tier cards stay readable with a long name and a decimal price; the chosen tier shows its price', async () => {
      const enterprise = await adminApi(e2e.server, 'POST', '/api/admin/pricing', {
        tier_name: 'Enterprise Super Hemat Tahunan',
        min_points: 1001,
        max_points: 100_000,
        price_per_point: 350.5,
      });
      for (const viewport of ['desktop', 'phone'] as const) {
        const client = await e2e.server.createClient();
        const page = await clientPage(e2e, client, '/topup', viewport);
        const tiers = page.getByRole('list', { name: 'Tier harga' });
        await tiers.getByRole('button', { name: /Enterprise/ }).waitFor();
        // In every card the name, the range and the price each have their own space.
        const cards = await tiers.getByRole('button').evaluateAll((buttons) =>
          buttons.map((button) => {
            const box = (selector: string) =>
              button.querySelector(selector)!.getBoundingClientRect();
            const name = box('[data-tier-name]');
            const price = box('[data-tier-price]');
            const card = button.getBoundingClientRect();
            return {
              overlap: !(
                name.bottom <= price.top ||
                price.bottom <= name.top ||
                name.right <= price.left ||
                price.right <= name.left
              ),
              inside: price.right <= card.right + 0.5 && name.right <= card.right + 0.5,
              overflow: button.scrollWidth > button.clientWidth,
            };
          }),
        );
        expect(cards).toHaveLength(3);
        for (const card of cards)
          expect(card).toEqual({ overlap: false, inside: true, overflow: false });
        expect(await tiers.locator('[data-tier-price]').allTextContents()).toEqual([
          'Rp600/poin',
          'Rp500/poin',
          'Rp350,5/poin',
        ]);

        await tiers.getByRole('button', { name: /Enterprise/ }).click();
        expect(await pointsField(page).inputValue()).toBe('1001');
        expect(await amountField(page).inputValue()).toBe('Rp350.851');
        expect(await page.locator('[data-tier-note]').textContent()).toBe(
          'Menggunakan tier: 1.001 - 100.000 poin',
        );
        expect(await page.locator('[data-tier-note-price]').textContent()).toBe(
          'Enterprise Super Hemat Tahunan · Rp350,5/poin',
        );
        await tiers.getByRole('button', { name: /Pro/ }).click();
        expect(await page.locator('[data-tier-note-price]').textContent()).toBe('Pro · Rp500/poin');
        await page.context().close();
      }
      await adminApi(e2e.server, 'DELETE', `/api/admin/pricing/${enterprise.id}`);
    });

    it('on a phone, a refused field taking the focus shows below the toast', async () => {
      const client = await e2e.server.createClient();
      const page = await clientPage(e2e, client, '/topup', 'phone');
      await page.getByRole('list', { name: 'Tier harga' }).waitFor();
      await pointsField(page).fill('0');
      await submitButton(page).click();
      const toast = await expectToast(page, 'Jumlah poin harus lebih dari 0', { title: 'Error' });
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('topup-points');
      const toastBottom = (await toast.boundingBox())!;
      const label = (await page.getByText('Jumlah Poin', { exact: true }).boundingBox())!;
      expect(label.y).toBeGreaterThanOrEqual(toastBottom.y + toastBottom.height);
      await shot(page, 'client-topup-refused-phone');
      await page.context().close();
    });

    it("more than 1.000.000 points: 'Jumlah poin maksimal 1.000.000 per request', nothing sent", async () => {
      const { page } = await signedIn();
      await page.getByRole('list', { name: 'Tier harga' }).waitFor();
      const posts: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'POST' && r.url().endsWith('/api/client/point-requests'))
          posts.push(r.url());
      });
      const fieldError = page.locator('#topup-points-error');
      await pointsField(page).fill('1000000');
      expect(await fieldError.count()).toBe(0);
      await pointsField(page).fill('1000001');
      expect(await fieldError.textContent()).toBe('Jumlah poin maksimal 1.000.000 per request');
      expect(await pointsField(page).getAttribute('aria-invalid')).toBe('true');
      expect(await pointsField(page).getAttribute('max')).toBe('1000000');
      await submitButton(page).click();
      await expectToast(page, 'Jumlah poin maksimal 1.000.000 per request', {
        title: 'Error',
        variant: 'destructive',
      });
      expect(await pointsField(page).evaluate((el) => el === document.activeElement)).toBe(true);
      await pointsField(page).fill('25000000');
      await submitButton(page).click();
      await expectToast(page, 'Jumlah poin maksimal 1.000.000 per request', { title: 'Error' });
      expect(posts).toHaveLength(0);
      await pointsField(page).fill('100');
      expect(await fieldError.count()).toBe(0);
      await page.context().close();
    });

    it("shows the server's detail when the price changed behind the page", async () => {
      const { page } = await signedIn();
      await page.getByRole('list', { name: 'Tier harga' }).waitFor();
      const tiers = await adminApi(e2e.server, 'GET', '/api/admin/pricing');
      const basic = tiers.find((t: any) => t.tier_name === 'Basic');
      await adminApi(e2e.server, 'PUT', `/api/admin/pricing/${basic.id}`, {
        tier_name: 'Basic',
        min_points: 1,
        max_points: 100,
        price_per_point: 700,
      });
      await pointsField(page).fill('10');
      expect(await amountField(page).inputValue()).toBe('Rp6.000');
      await submitButton(page).click();
      await expectToast(page, 'Jumlah bayar tidak sesuai daftar harga (seharusnya Rp7.000)', {
        title: 'Error',
        variant: 'destructive',
      });
      await adminApi(e2e.server, 'PUT', `/api/admin/pricing/${basic.id}`, {
        tier_name: 'Basic',
        min_points: 1,
        max_points: 100,
        price_per_point: 600,
      });
      await page.context().close();
    });
  });

  describe('the payment QR code', () => {
    let fileUrl: string;
    let dataUrl: string;
    beforeAll(async () => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(await pngBytes('#111111', 120))]), 'qr.png');
      const uploaded = await e2e.server.api('POST', '/api/admin/upload-qr', {
        token: e2e.server.adminToken,
        raw: form,
      });
      expect(uploaded.status).toBe(200);
      fileUrl = uploaded.body.file_url;
      dataUrl = uploaded.body.data_url;
    });

    /**
     * The QR image once the browser has really decoded it (complete, 120 px wide): a condition
     * the page reaches, waited for with Playwright's own timeout, not a 1-second poll that a
     * busy machine can miss.
     */
    async function qrImage(page: Page) {
      const img = page.getByRole('img', { name: 'QR Code pembayaran' });
      await img.waitFor();
      await page.waitForFunction(
        (el) => el instanceof HTMLImageElement && el.complete && el.naturalWidth === 120,
        await img.elementHandle(),
      );
      return img;
    }

    it('shows qr_data_url first, with its caption', async () => {
      await saveSettings(e2e.server, { qr_code_file: fileUrl, qr_data_url: dataUrl });
      const { page } = await signedIn();
      const img = await qrImage(page);
      expect(await img.getAttribute('src')).toBe(dataUrl);
      expect(await page.locator('[data-payment-qr] figcaption').textContent()).toContain(
        'Scan QR Code di atas untuk pembayaran digital',
      );
      await page.context().close();
    });

    it('else the backend host plus qr_code_file', async () => {
      await saveSettings(e2e.server, { qr_code_file: fileUrl, qr_data_url: null });
      const { page } = await signedIn();
      expect(await (await qrImage(page)).evaluate((el: HTMLImageElement) => el.src)).toBe(
        `${e2e.url}${fileUrl}`,
      );
      await page.context().close();
    });

    it('else the backend host plus barcode_url', async () => {
      await saveSettings(e2e.server, { barcode_url: fileUrl, qr_data_url: null });
      const { page } = await signedIn();
      expect(await (await qrImage(page)).evaluate((el: HTMLImageElement) => el.src)).toBe(
        `${e2e.url}${fileUrl}`,
      );
      await page.context().close();
    });

    it('an image that fails to load falls back to GET /admin/qr-data/{filename}', async () => {
      // An http URL that cannot load: the fallback fetches the data of the file it names.
      const name = fileUrl.split('/').pop();
      await saveSettings(e2e.server, {
        qr_code_file: `http://127.0.0.1:9/uploads/${name}`,
        qr_data_url: null,
      });
      // Listen before the screen opens: the refused image and the fallback call can both be
      // over before the next line of the test runs.
      const { page } = await signedIn('/');
      const fallback = page.waitForResponse((r) => r.url().endsWith(`/api/admin/qr-data/${name}`));
      await goTo(page, '/topup');
      const img = await qrImage(page);
      expect((await fallback).status()).toBe(200);
      expect(await img.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
      await page.context().close();
    });

    it("says 'QR Code tidak dapat dimuat' when the fallback fails too", async () => {
      await saveSettings(e2e.server, { qr_code_file: '/uploads/hilang.png', qr_data_url: null });
      const { page } = await signedIn();
      const error = page.locator('[data-qr-error]');
      await error.waitFor();
      expect(await error.textContent()).toBe(
        `QR Code tidak dapat dimuat${e2e.url}/uploads/hilang.pngHubungi admin jika masalah ini berlanjut`,
      );
      await page.context().close();
    });
  });
});

describe('Riwayat Top Up', () => {
  it('a pending request turns Disetujui by itself within 30 seconds, and the balance follows', async () => {
    // Runs alone too (-t): the tiers come from an earlier describe otherwise.
    if ((await adminApi(e2e.server, 'GET', '/api/admin/pricing')).length === 0)
      await addTiers(e2e.server);
    const client = await e2e.server.createClient();
    const request = await requestTopup(e2e.server, client, 20);
    const page = await e2e.open('/login');
    await page.clock.install();
    await page.reload();
    await signIn(page, client.user.email, client.password);
    await goTo(page, '/topup-history');
    const status = page.locator('[data-request-status]').first();
    await status.waitFor();
    expect(await status.textContent()).toBe('Menunggu');
    await adminApi(e2e.server, 'POST', `/api/admin/point-requests/${request.id}/approve`);
    await page.clock.fastForward(29_000);
    expect(await status.textContent()).toBe('Menunggu');
    await page.clock.fastForward(1_500);
    await expect.poll(() => status.textContent()).toBe('Disetujui');
    await expectShellBalance(page, 20);
    await page.context().close();
  });

  it('shows the empty state and zero cards for a new client', async () => {
    const { page } = await signedIn('/topup-history');
    await page.getByText('Belum ada history top-up').waitFor();
    expect(await page.getByRole('region', { name: 'Ringkasan top-up' }).textContent()).toBe(
      'Menunggu0Disetujui0Ditolak0Total Poin Disetujui0',
    );
    await page.context().close();
  });

  it('lists 5 per page with labels, dates, proof links and the server counts', async () => {
    const client = await e2e.server.createClient();
    await requestTopup(e2e.server, client, 10, { decide: 'approve' });
    await requestTopup(e2e.server, client, 20, { decide: 'reject' });
    await requestTopup(e2e.server, client, 30, { decide: 'approve' });
    for (const points of [40, 50, 60])
      await requestTopup(e2e.server, client, points, {
        proof: points === 60 ? 'https://i.imgur.com/bukti60.png' : null,
      });

    const page = await clientPage(e2e, client, '/topup-history');
    const table = page.getByRole('table', { name: 'Riwayat request top-up' });
    await table.locator('tbody tr').nth(4).waitFor();
    expect(await page.getByRole('region', { name: 'Ringkasan top-up' }).textContent()).toBe(
      'Menunggu3Disetujui2Ditolak1Total Poin Disetujui40',
    );
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(5);
    const newest = rows.first();
    const cells = newest.locator('td');
    expect(await cells.nth(1).textContent()).toBe('60');
    expect(await cells.nth(2).textContent()).toBe('Rp36.000');
    expect(await cells.nth(3).textContent()).toBe('Menunggu');
    expect(await cells.nth(4).textContent()).toBe('-');
    const proof = cells.nth(5).getByRole('link', { name: /Lihat Bukti/ });
    expect(await proof.getAttribute('href')).toBe('https://i.imgur.com/bukti60.png');
    expect(await proof.getAttribute('target')).toBe('_blank');
    expect(await proof.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await rows.nth(1).locator('td').nth(5).textContent()).toBe('Tidak ada');
    expect(
      await rows.filter({ hasText: 'Rp18.000' }).locator('[data-request-status]').textContent(),
    ).toBe('Disetujui');
    expect(
      await rows.filter({ hasText: 'Rp12.000' }).locator('[data-request-status]').textContent(),
    ).toBe('Ditolak');
    expect(await rows.filter({ hasText: 'Rp18.000' }).locator('td').nth(4).textContent()).not.toBe(
      '-',
    );

    await page.getByRole('button', { name: 'Halaman berikutnya' }).click();
    await table.locator('tbody tr', { hasText: 'Rp6.000' }).waitFor();
    expect(await rows.count()).toBe(1);
    expect(
      await page.getByRole('navigation', { name: 'Navigasi halaman' }).textContent(),
    ).toContain('Menampilkan 6 sampai 6 dari 6 hasil');
    expect(await rows.first().locator('[data-request-status]').textContent()).toBe('Disetujui');
    await page.context().close();
  });
});
