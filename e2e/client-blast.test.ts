// The client's Form Blast and Hasil Blast screens in Chromium against the real server: every
// message of the form in SPEC's order, one blast per double click, the image-upload failure, the
// results list and the detail dialog with real per-number statuses and the cancel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, tinyPng } from '#server/test/routes.ts';
import {
  adminPage,
  clientPage,
  dismissToasts,
  type E2E,
  expectShellBalance,
  expectToast,
  goTo,
  type Page,
  patientPolls,
  recordedToasts,
  recordToasts,
  shot,
  signIn,
  startE2E,
} from './helpers.ts';
import {
  adminApi,
  balanceOf,
  type Client,
  clientApi,
  createBlast,
  numbers,
  pngBytes,
  saveSettings,
  setPoints,
  submitResult,
} from './seed.ts';

let e2e: E2E;

beforeAll(async () => {
  patientPolls();
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

async function signedIn(
  points: number,
  path = '/blast-form',
): Promise<{ page: Page; client: Client }> {
  const client = await e2e.server.createClient();
  if (points) await setPoints(e2e.server, client, points);
  const page = await clientPage(e2e, client, path);
  await expectShellBalance(page, points);
  return { page, client };
}

/** The accessible name Chromium itself gives the element at `selector` (what a screen reader says). */
async function chromiumName(page: Page, selector: string): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  const { root } = await cdp.send('DOM.getDocument');
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  const { nodes } = await cdp.send('Accessibility.getPartialAXTree', {
    nodeId,
    fetchRelatives: false,
  });
  await cdp.detach();
  return String(nodes[0]?.name?.value ?? '');
}

/** Signs the tab in as `account` (its saved session), as a sign-in there would. */
const actAs = (page: Page, account: { token: string; user: object }) =>
  page.evaluate(
    ({ token, user }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('user', user);
    },
    { token: account.token, user: JSON.stringify(account.user) },
  );
const submitButton = (page: Page) => page.getByRole('button', { name: 'KIRIM BLAST REQUEST' });
const numbersField = (page: Page) => page.getByLabel('Nomor WhatsApp Tujuan');
const messageField = (page: Page) => page.getByLabel('Pesan');

describe('Form Blast', () => {
  it('shows the tiles, counts numbers live and says how many duplicates it dropped', async () => {
    const { page } = await signedIn(2);
    const tiles = page.getByRole('region', { name: 'Ringkasan poin' });
    await expect.poll(() => tiles.textContent()).toContain('Poin Tersedia2 poin');
    expect(await tiles.textContent()).toContain('Max Target500 nomor');
    expect(await tiles.textContent()).toContain('Biaya per Nomor1 poin');

    await numbersField(page).fill('081234567890\n+6281234567890, 81234567890; 0812-3456-7891');
    const summary = page.locator('[data-numbers-summary]');
    await expect.poll(() => summary.textContent()).toContain('Total Nomor2 / 500');
    expect(await summary.textContent()).toContain('Poin Dibutuhkan2');
    expect(await summary.textContent()).toContain('Poin Tersedia2');
    expect(await summary.textContent()).not.toContain('Kekurangan');
    expect(await page.locator('[data-numbers-notes]').textContent()).toContain(
      '2 nomor duplikat dihapus',
    );

    await numbersField(page).fill('081234567890 081234567891 081234567892 12 abc');
    await expect.poll(() => summary.textContent()).toContain('Kekurangan Poin1');
    expect(await page.locator('[data-numbers-notes]').textContent()).toContain(
      '2 nomor tidak valid: 12, abc',
    );
    expect(await numbersField(page).getAttribute('aria-invalid')).toBe('true');

    // The message is capped at 1000 characters and counted.
    await messageField(page).fill('Halo');
    expect(await page.locator('#blast-message-counter').textContent()).toBe('4/1.000 karakter');
    await messageField(page).fill('x'.repeat(1200));
    expect((await messageField(page).inputValue()).length).toBe(1000);
    expect(await page.locator('#blast-message-counter').textContent()).toBe('1.000/1.000 karakter');
    // No image field while the admin does not allow images.
    expect(await page.getByText('PNG, JPG, GIF hingga 5MB').count()).toBe(0);
    await page.context().close();
  });

  it('checks in SPEC order with its exact messages and sends nothing until they pass', async () => {
    const { page, client } = await signedIn(3);
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/client/blast-requests'))
        posts.push(r.url());
    });

    // 1. empty message (even with numbers present)
    await numbersField(page).fill('081234567890');
    await submitButton(page).click();
    await expectToast(page, 'Pesan blast tidak boleh kosong', { variant: 'destructive' });
    await messageField(page).fill('   ');
    await submitButton(page).click();
    await expectToast(page, 'Pesan blast tidak boleh kosong', { title: 'Error' });

    // 2. empty list
    await messageField(page).fill('Promo akhir tahun');
    await numbersField(page).fill(' \n , ; ');
    await submitButton(page).click();
    await expectToast(page, 'Daftar nomor telepon tidak boleh kosong', { title: 'Error' });

    // 3. more than 500 entered (checked before validity: one is invalid here)
    await numbersField(page).fill([...numbers(500), 'abc'].join('\n'));
    await submitButton(page).click();
    const tooMany = await expectToast(page, 'Maksimal 500 nomor kontak per blast', {
      title: 'Batas Maksimal Tercapai',
      variant: 'destructive',
    });
    expect(await tooMany.textContent()).toContain('501');

    // 4. invalid numbers
    await numbersField(page).fill('081234567890\n12345\n0812abc\n081234567891');
    await submitButton(page).click();
    await expectToast(page, '2 nomor tidak valid. Mohon perbaiki format nomor', { title: 'Error' });

    // 5. more valid numbers than points (duplicates do not count)
    await numbersField(page).fill([...numbers(4), numbers(1)[0]].join('\n'));
    await submitButton(page).click();
    await expectToast(page, 'Anda membutuhkan 4 poin, tetapi hanya memiliki 3 poin', {
      title: 'Poin Tidak Cukup',
      variant: 'destructive',
    });

    expect(posts).toHaveLength(0);
    expect(await balanceOf(e2e.server, client)).toBe(3);
    await page.context().close();
  });

  it('shows the server detail when the server refuses (balance spent elsewhere)', async () => {
    const { page, client } = await signedIn(3);
    await setPoints(e2e.server, client, 1); // the page still believes 3
    await messageField(page).fill('Halo');
    await numbersField(page).fill(numbers(2).join('\n'));
    await submitButton(page).click();
    await expectToast(page, 'Anda membutuhkan 2 poin, tetapi hanya memiliki 1 poin', {
      title: 'Error',
      variant: 'destructive',
    });
    expect(new URL(page.url()).pathname).toBe('/blast-form');
    await page.context().close();
  });

  it('a double click sends one blast, charged once, then clears and opens Hasil Blast', async () => {
    const { page, client } = await signedIn(10);
    const posts: { key: string | undefined }[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/client/blast-requests'))
        posts.push({ key: r.headers()['idempotency-key'] });
    });
    await messageField(page).fill('Diskon 50% hari ini saja');
    await numbersField(page).fill([...numbers(3), '0812-0000-0001'].join('\n'));
    await submitButton(page).dblclick();
    await page.waitForURL('**/blast-results');
    await expectToast(page, 'Blast request berhasil dibuat untuk 3 nomor', {
      title: 'Berhasil',
      variant: 'success',
    });
    await expectShellBalance(page, 7);

    const list = await clientApi(e2e.server, client, 'GET', '/api/client/blast-requests');
    expect(list.total).toBe(1);
    expect(list.items[0].target_numbers).toEqual([
      '6281200000001',
      '6281200000002',
      '6281200000003',
    ]);
    expect(await balanceOf(e2e.server, client)).toBe(7);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.key).toMatch(/^[0-9a-f-]{36}$/);

    // The form is empty when the user comes back.
    await page
      .getByRole('navigation', { name: 'Menu klien' })
      .getByRole('link', { name: 'Form Blast' })
      .click();
    expect(await numbersField(page).inputValue()).toBe('');
    expect(await messageField(page).inputValue()).toBe('');
    await page.context().close();
  });

  it('gives back what was typed after a reload, and not once the blast is sent', async () => {
    const { page, client } = await signedIn(10);
    await messageField(page).fill('Promo akhir tahun');
    await numbersField(page).fill(numbers(2).join('\n'));
    await page.reload();
    await expect.poll(() => messageField(page).inputValue()).toBe('Promo akhir tahun');
    expect(await numbersField(page).inputValue()).toBe(numbers(2).join('\n'));
    // Another account signing in on the same tab does not see it.
    const other = await e2e.server.createClient();
    await actAs(page, other);
    await page.reload();
    await numbersField(page).waitFor();
    expect(await messageField(page).inputValue()).toBe('');
    await actAs(page, client);
    await page.reload();
    await expect.poll(() => messageField(page).inputValue()).toBe('Promo akhir tahun');
    await submitButton(page).click();
    await page.waitForURL('**/blast-results');
    await page.goto(`${e2e.url}/blast-form`);
    await numbersField(page).waitFor();
    expect(await messageField(page).inputValue()).toBe('');
    expect(await numbersField(page).inputValue()).toBe('');
    await page.context().close();
  });

  it("reads 'Memproses Blast...' and refuses a second submit while sending", async () => {
    const { page, client } = await signedIn(5);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/client/blast-requests', async (route) => {
      await held;
      await route.continue();
    });
    await messageField(page).fill('Halo');
    await numbersField(page).fill(numbers(2).join('\n'));
    await submitButton(page).click();
    const busy = page.getByRole('button', { name: 'Memproses Blast...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    await page
      .locator('form[aria-label="Form blast"]')
      .evaluate((form: HTMLFormElement) => form.requestSubmit());
    release();
    await page.waitForURL('**/blast-results');
    expect((await clientApi(e2e.server, client, 'GET', '/api/client/blast-requests')).total).toBe(
      1,
    );
    expect(await balanceOf(e2e.server, client)).toBe(3);
    await page.context().close();
  });

  describe('with images allowed', () => {
    beforeAll(async () => {
      await saveSettings(e2e.server, { allow_images: true });
    });
    afterAll(async () => {
      await saveSettings(e2e.server, { allow_images: false });
    });

    it('uploads the chosen image first and attaches it', async () => {
      const { page, client } = await signedIn(5);
      await page.getByText('PNG, JPG, GIF hingga 5MB').waitFor();
      const bytes = await pngBytes();
      await page.getByLabel('Gambar (Opsional)').setInputFiles({
        name: 'promo.png',
        mimeType: 'image/png',
        buffer: bytes,
      });
      const preview = page.locator('[data-image-preview]');
      await preview.waitFor();
      expect(await preview.textContent()).toContain('promo.png');
      // The size in MB; a PNG this small is not shown as empty ('0,00 MB').
      expect(bytes.length).toBeLessThan(5_000);
      expect(await preview.textContent()).toContain('< 0,01 MB');
      // Shown once decoded (a placeholder until then).
      await page.locator('[data-image-preview][data-preview-status="ready"]').waitFor();
      const img = preview.getByRole('img', { name: 'Pratinjau gambar blast' });
      expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(64);
      expect(await preview.getByText('Memuat pratinjau...').count()).toBe(0);

      // Remove: the picker is back, empty and focused, with nothing of the old image left.
      await page.getByRole('button', { name: 'Hapus gambar' }).click();
      expect(await preview.count()).toBe(0);
      expect(await page.getByRole('img', { name: 'Pratinjau gambar blast' }).count()).toBe(0);
      expect(await page.getByText('promo.png').count()).toBe(0);
      const picker = page.getByLabel('Gambar (Opsional)');
      await expect.poll(() => picker.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await picker.evaluate((el: HTMLInputElement) => el.files?.length ?? 0)).toBe(0);
      await picker.setInputFiles({ name: 'promo.png', mimeType: 'image/png', buffer: bytes });
      await page.locator('[data-image-preview][data-preview-status="ready"]').waitFor();

      // While the image is on its way the preview says so.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/upload/image', async (route) => {
        await held;
        await route.continue();
      });
      await messageField(page).fill('Lihat gambar promo kami');
      await numbersField(page).fill(numbers(2).join('\n'));
      await submitButton(page).click();
      await preview.getByRole('status').filter({ hasText: 'Mengupload gambar...' }).waitFor();
      expect(await preview.getAttribute('data-preview-status')).toBe('uploading');
      expect(await page.getByRole('button', { name: 'Hapus gambar' }).isDisabled()).toBe(true);
      release();
      await page.waitForURL('**/blast-results');
      const list = await clientApi(e2e.server, client, 'GET', '/api/client/blast-requests');
      expect(list.items[0].image_url).toMatch(/^\/uploads\//);
      await page.context().close();
    });

    it('refuses a file that is not a PNG, JPG or GIF as soon as it is chosen', async () => {
      const { page } = await signedIn(5);
      // Not an image, then an image of a type the server does not take.
      for (const [name, mimeType] of [
        ['daftar.txt', 'text/plain'],
        ['foto.webp', 'image/webp'],
      ] as const) {
        await page
          .getByLabel('Gambar (Opsional)')
          .setInputFiles({ name, mimeType, buffer: Buffer.from('081234567890') });
        await expectToast(page, 'File harus berupa gambar (PNG, JPG, GIF)', {
          title: 'Error Upload Gambar',
          variant: 'destructive',
        });
        expect(await page.locator('[data-image-preview]').count()).toBe(0);
        expect(
          await page
            .getByLabel('Gambar (Opsional)')
            .evaluate((el: HTMLInputElement) => el.files?.length ?? 0),
        ).toBe(0);
        await dismissToasts(page);
      }
      await page.context().close();
    });

    it('refuses a file named as an image whose bytes are none, once its preview fails', async () => {
      const { page } = await signedIn(5);
      await page.getByLabel('Gambar (Opsional)').setInputFiles({
        name: 'foto.png',
        mimeType: 'image/png',
        buffer: Buffer.from('ini bukan gambar, hanya teks biasa'),
      });
      await expectToast(page, 'File harus berupa gambar (PNG, JPG, GIF)', {
        title: 'Error Upload Gambar',
        variant: 'destructive',
      });
      expect(await page.locator('[data-image-preview]').count()).toBe(0);
      expect(await page.locator('#blast-image-error').textContent()).toBe(
        'File harus berupa gambar (PNG, JPG, GIF)',
      );
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('blast-image');
      await shot(page, 'client-blast-undecodable-image');
      await page.context().close();
    });

    it('sends the blast without the image when the upload fails', async () => {
      const { page, client } = await signedIn(5);
      await recordToasts(page);
      // The server cannot take the image just now.
      await page.route('**/api/upload/image', (route) =>
        route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({ detail: 'Penyimpanan gambar sedang tidak tersedia' }),
        }),
      );
      await page.getByLabel('Gambar (Opsional)').setInputFiles({
        name: 'foto.png',
        mimeType: 'image/png',
        buffer: await pngBytes(),
      });
      await page.locator('[data-image-preview][data-preview-status="ready"]').waitFor();
      await messageField(page).fill('Pesan tanpa gambar');
      await numbersField(page).fill(numbers(2).join('\n'));
      await submitButton(page).click();
      await page.waitForURL('**/blast-results');
      const success = await expectToast(page, 'Blast request berhasil dibuat untuk 2 nomor', {
        variant: 'success',
      });
      // The server's own reason says why.
      expect(await success.textContent()).toContain(
        'Gambar tidak ikut terkirim. Penyimpanan gambar sedang tidak tersedia',
      );
      expect(await recordedToasts(page)).toContainEqual(
        expect.stringContaining(
          'Error Upload GambarGagal mengupload gambar. Blast akan dikirim tanpa gambar.',
        ),
      );
      const list = await clientApi(e2e.server, client, 'GET', '/api/client/blast-requests');
      expect(list.total).toBe(1);
      expect(list.items[0].image_url).toBeNull();
      expect(await balanceOf(e2e.server, client)).toBe(3);
      await page.context().close();
    });
  });
});

describe('a blast whose image file is gone', () => {
  it('says so in both details instead of drawing a broken image', async () => {
    const client = await e2e.server.createClient();
    await setPoints(e2e.server, client, 5);
    await saveSettings(e2e.server, { allow_images: true });
    const uploaded = await e2e.server.api('POST', '/api/upload/image', {
      token: client.token,
      raw: form('image', await tinyPng(), 'promo.png'),
    });
    const imageUrl: string = uploaded.body.url;
    await createBlast(e2e.server, client, 'Promo bergambar', numbers(2), imageUrl);
    await e2e.server.context.files.remove(imageUrl.slice(imageUrl.lastIndexOf('/') + 1));
    const missing = 'Gambar tidak dapat dimuat: file tidak ditemukan di server Sebar.';

    const page = await clientPage(e2e, client, '/blast-results');
    await page.getByRole('button', { name: /^Detail/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Detail Blast Request' });
    await dialog.locator('[data-blast-image-missing]').waitFor();
    expect(await dialog.locator('[data-blast-image-missing]').textContent()).toBe(missing);
    expect(await dialog.getByRole('img').count()).toBe(0);
    await page.context().close();

    const admin = await adminPage(e2e, '/blast-results');
    await admin
      .locator('tbody tr', { hasText: 'Promo bergambar' })
      .getByRole('button', { name: /^Detail/ })
      .click();
    const detail = admin.getByRole('dialog');
    await detail.locator('[data-blast-image-missing]').waitFor();
    expect(await detail.locator('[data-blast-image-missing]').textContent()).toBe(missing);
    expect(await detail.getByRole('link', { name: 'Buka gambar di tab baru' }).count()).toBe(0);
    await admin.context().close();
    await saveSettings(e2e.server);
  });
});

describe('Form Blast: numbers pasted from WhatsApp, inline errors, what is spoken, focus', () => {
  it("takes '+62 812 3456 7891' as one number, lists every invalid part and drops them on request", async () => {
    const { page } = await signedIn(20);
    await numbersField(page).fill('+62 812 3456 7891');
    const summary = page.locator('[data-numbers-summary]');
    await expect.poll(() => summary.textContent()).toContain('Total Nomor1 / 500');
    expect(await page.locator('[data-numbers-notes]').count()).toBe(0);

    const wrong = ['12', 'abc', '0812', 'x1', 'y2', 'z3', '999'];
    await numbersField(page).fill(['+62 812 3456 7891', ...wrong, '0812-3456-7892'].join('\n'));
    const notes = page.locator('[data-numbers-notes]');
    await expect
      .poll(() => notes.textContent())
      .toContain(`7 nomor tidak valid: ${wrong.join(', ')}`);
    expect(await summary.textContent()).toContain('Total Nomor2 / 500');

    await page.getByRole('button', { name: 'Hapus nomor tidak valid' }).click();
    expect(await numbersField(page).inputValue()).toBe('+62 812 3456 7891\n0812-3456-7892');
    expect(await notes.count()).toBe(0);
    // The button went away with the invalid parts: the keyboard is back in the list.
    expect(await numbersField(page).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.context().close();
  });

  it('says a failed check under its field, marks it invalid and moves focus there', async () => {
    const { page } = await signedIn(3);
    // Required text areas, named without the asterisk.
    const message = messageField(page);
    const list = numbersField(page);
    expect(await chromiumName(page, '#blast-message')).toBe('Pesan');
    expect(await chromiumName(page, '#blast-numbers')).toBe('Nomor WhatsApp Tujuan');
    expect(await message.evaluate((el: HTMLTextAreaElement) => el.required)).toBe(true);
    expect(await list.evaluate((el: HTMLTextAreaElement) => el.required)).toBe(true);

    await list.fill('081234567890');
    await submitButton(page).click();
    await expectToast(page, 'Pesan blast tidak boleh kosong', { title: 'Error' });
    expect(await message.getAttribute('aria-invalid')).toBe('true');
    expect(await message.evaluate((el) => el === document.activeElement)).toBe(true);
    const messageError = page.locator('#blast-message-error');
    expect(await messageError.textContent()).toBe('Pesan blast tidak boleh kosong');
    expect(await message.getAttribute('aria-describedby')).toContain('blast-message-error');
    // Typing clears it.
    await message.fill('Halo');
    expect(await messageError.count()).toBe(0);
    expect(await message.getAttribute('aria-invalid')).toBeNull();

    await list.fill('081234567890, 081234567891, 081234567892, 081234567893');
    await submitButton(page).click();
    expect(await page.locator('#blast-numbers-error').textContent()).toBe(
      'Anda membutuhkan 4 poin, tetapi hanya memiliki 3 poin',
    );
    expect(await list.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.context().close();
  });

  it('speaks the numbers summary once typing settles, in whole sentences', async () => {
    const { page } = await signedIn(100);
    // Whatever is a live region in the form: only the settled sentence may be there.
    const spoken = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('form [aria-live], form [role=status]')].map((el) =>
          (el.textContent ?? '').trim(),
        ),
      );
    const list = numbersField(page);
    await list.pressSequentially('081234567890\n12ab', { delay: 30 });
    // Just typed: nothing is said yet.
    expect((await spoken()).join('')).toBe('');
    await expect
      .poll(spoken)
      .toEqual([
        '1 nomor valid dari maksimal 500. 1 nomor tidak valid. Dibutuhkan 1 poin, tersedia 100 poin.',
      ]);
    await list.press('Backspace');
    // A keystroke does not speak at once; the new state is said when typing pauses again.
    expect(await spoken()).toEqual([
      '1 nomor valid dari maksimal 500. 1 nomor tidak valid. Dibutuhkan 1 poin, tersedia 100 poin.',
    ]);
    await page.context().close();
  });

  it('after a blast is sent, focus is on the new page, not lost to the body', async () => {
    const { page } = await signedIn(3);
    await numbersField(page).fill('081234567890');
    await messageField(page).fill('Halo');
    await submitButton(page).click();
    await page.waitForURL('**/blast-results');
    await expect
      .poll(() =>
        page.evaluate(() => document.activeElement?.id ?? document.activeElement?.tagName),
      )
      .toBe('main');
    await page.context().close();
  });

  describe('with images allowed', () => {
    beforeAll(async () => {
      await saveSettings(e2e.server, { allow_images: true });
    });
    afterAll(async () => {
      await saveSettings(e2e.server, { allow_images: false });
    });

    it("refuses an image over 5 MB when chosen with 'Ukuran file maksimal 5MB', uploads nothing", async () => {
      const { page } = await signedIn(5);
      const uploads: string[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/api/upload/image')) uploads.push(r.url());
      });
      const picker = page.getByLabel('Gambar (Opsional)');
      await picker.setInputFiles({
        name: 'besar.png',
        mimeType: 'image/png',
        buffer: Buffer.concat([await pngBytes(), Buffer.alloc(5_242_881)]),
      });
      await expectToast(page, 'Ukuran file maksimal 5MB', { title: 'Error Upload Gambar' });
      expect(await page.locator('#blast-image-error').textContent()).toBe(
        'Ukuran file maksimal 5MB',
      );
      expect(await picker.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('[data-image-preview]').count()).toBe(0);
      expect(await picker.evaluate((el: HTMLInputElement) => el.files?.length ?? 0)).toBe(0);

      // A good image after it: shown with its size in id-ID, focus on its remove button.
      const bytes = Buffer.concat([await pngBytes(), Buffer.alloc(1_500_000)]);
      await picker.setInputFiles({ name: 'promo.png', mimeType: 'image/png', buffer: bytes });
      const preview = page.locator('[data-image-preview]');
      await preview.waitFor();
      const megabytes = (bytes.length / 1024 / 1024).toFixed(2).replace('.', ',');
      expect(await preview.textContent()).toContain(`${megabytes} MB`);
      expect(await page.locator('#blast-image-error').count()).toBe(0);
      const remove = page.getByRole('button', { name: 'Hapus gambar' });
      await expect.poll(() => remove.evaluate((el) => el === document.activeElement)).toBe(true);

      await numbersField(page).fill('081234567890');
      await messageField(page).fill('Halo');
      await submitButton(page).click();
      await page.waitForURL('**/blast-results');
      expect(uploads).toHaveLength(1);
      await page.context().close();
    });
  });
});

describe('Hasil Blast', () => {
  it('a pending blast shows its result by itself within 30 seconds, and the refund in the header', async () => {
    const client = await e2e.server.createClient();
    await setPoints(e2e.server, client, 5);
    const blast = await createBlast(e2e.server, client, 'Menunggu hasil', numbers(2));
    const page = await e2e.open('/login');
    await page.clock.install();
    await page.reload();
    await signIn(page, client.user.email, client.password);
    await goTo(page, '/blast-results');
    await page.getByText('Sedang diproses').waitFor();
    await expectShellBalance(page, 3);
    await submitResult(e2e.server, blast.id, {
      successful_count: 1,
      failed_count: 1,
      no_wa_count: 0,
    });
    await page.clock.fastForward(29_000);
    expect(await page.locator('[data-blast-result]').count()).toBe(0);
    await page.clock.fastForward(1_500);
    await expect
      .poll(() => page.locator('[data-blast-result]').first().textContent())
      .toBe('1 berhasil1 gagal0 no WA');
    await expectShellBalance(page, 4);
    await page.context().close();
  });

  it('shows the empty state for a client without blasts', async () => {
    const { page } = await signedIn(0, '/blast-results');
    await page.getByText('Belum ada blast request').waitFor();
    const cards = page.getByRole('region', { name: 'Ringkasan blast' });
    expect(await cards.textContent()).toBe('Menunggu0Selesai0Total Blast0');
    await page.context().close();
  });

  it('lists 5 per page with the server counts, results, points and statuses', async () => {
    const client = await e2e.server.createClient();
    await setPoints(e2e.server, client, 100);
    const long = 'Promo spesial akhir tahun untuk semua pelanggan setia kami di seluruh Indonesia';
    const created = [];
    for (let i = 0; i < 7; i++)
      created.push(
        await createBlast(
          e2e.server,
          client,
          i === 6 ? long : `Pesan ${i + 1}`,
          numbers(3, i * 10),
        ),
      );
    // oldest first: 0 completed, 1 rejected, 2 cancelled, the rest pending
    await submitResult(e2e.server, created[0].id, {
      successful_count: 1,
      failed_count: 1,
      no_wa_count: 1,
    });
    await adminApi(e2e.server, 'POST', `/api/admin/blast-requests/${created[1].id}/reject`);
    await clientApi(
      e2e.server,
      client,
      'POST',
      `/api/client/blast-requests/${created[2].id}/cancel`,
    );

    const page = await clientPage(e2e, client, '/blast-results');
    const table = page.getByRole('table', { name: 'Daftar blast request' });
    await table.locator('tbody tr').nth(4).waitFor();
    expect(await table.locator('tbody tr').count()).toBe(5);
    const cards = page.getByRole('region', { name: 'Ringkasan blast' });
    expect(await cards.textContent()).toBe('Menunggu4Selesai1Total Blast7');
    expect(
      await page.getByRole('navigation', { name: 'Navigasi halaman' }).textContent(),
    ).toContain('Menampilkan 1 sampai 5 dari 7 hasil');

    // Newest first: the long message, cut at 50 characters, whole on hover.
    const first = table.locator('tbody tr').first();
    const preview = first.locator('td').nth(1).locator('[title]');
    expect(await preview.textContent()).toBe(`${long.slice(0, 50)}...`);
    expect(await preview.getAttribute('title')).toBe(long);
    expect(await first.textContent()).toContain('Menunggu');
    expect(await first.textContent()).toContain('Sedang diproses');

    await page.getByRole('button', { name: 'Halaman 2' }).click();
    await table.locator('tbody tr', { hasText: 'Pesan 1' }).waitFor();
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(2);
    const cancelled = rows.filter({ hasText: 'Pesan 3' });
    const rejected = rows.filter({ hasText: 'Pesan 2' });
    const completed = rows.filter({ hasText: 'Pesan 1' });
    // Page 2 holds the two oldest; the cancelled one is on page 1.
    expect(await cancelled.count()).toBe(0);
    expect(await rejected.locator('[data-blast-status]').textContent()).toBe('Ditolak');
    expect(await rejected.textContent()).toContain('Ditolak admin');
    expect(await completed.locator('[data-blast-status]').textContent()).toBe('Selesai');
    expect(await completed.locator('[data-blast-result]').textContent()).toBe(
      '1 berhasil1 gagal1 no WA',
    );
    expect(await completed.textContent()).toContain('+2 refund');

    await page.getByRole('button', { name: 'Halaman 1' }).click();
    const cancelledRow = table.locator('tbody tr', { hasText: 'Pesan 3' });
    await cancelledRow.waitFor();
    expect(await cancelledRow.locator('[data-blast-status]').textContent()).toBe('Dibatalkan');
    expect(await cancelledRow.textContent()).toContain('+3 refund');
    await page.context().close();
  });

  it("the detail shows each number's real status, the progress boxes, and cancels with a refund", async () => {
    const client = await e2e.server.createClient();
    await setPoints(e2e.server, client, 10);
    const blast = await createBlast(e2e.server, client, 'Halo\nBaris kedua', numbers(4));
    // Not by position: the statuses the admin set number by number.
    await adminApi(e2e.server, 'POST', `/api/admin/blast-requests/${blast.id}/number-statuses`, {
      number_statuses: { '0': 'failed', '2': 'success', '3': 'no_wa' },
    });
    const page = await clientPage(e2e, client, '/blast-results');
    await expectShellBalance(page, 6);
    await page.getByRole('button', { name: /^Detail/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Detail Blast Request' });
    await dialog.locator('[data-number-list]').waitFor();
    const items = dialog.locator('[data-number-list] li');
    expect(await items.count()).toBe(4);
    expect(await items.allTextContents()).toEqual([
      '1.6281200000001Gagal',
      '2.6281200000002Menunggu',
      '3.6281200000003Berhasil',
      '4.6281200000004No WA',
    ]);
    expect(await dialog.locator('[data-progress-summary]').textContent()).toBe(
      '1Berhasil1Gagal1No WA1Pending',
    );
    expect(await dialog.textContent()).toContain('Halo\nBaris kedua');
    expect(await dialog.textContent()).toContain('Poin Terpakai4 poin');
    // The dialog scrolls inside 80% of the viewport; the list has its own max height.
    const box = await dialog.evaluate((el) => getComputedStyle(el).maxHeight);
    expect(box).toBe(`${800 * 0.8}px`);

    await dialog.getByRole('button', { name: 'Batalkan Blast' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Batalkan Blast?' });
    expect(await confirm.textContent()).toContain('4 poin dikembalikan');
    await confirm.getByRole('button', { name: 'Ya, Batalkan Blast' }).click();
    await expectToast(page, 'Blast berhasil dibatalkan. 4 poin dikembalikan.', {
      variant: 'success',
    });
    // 'Batalkan Blast' is gone: the focus stays in the Detail dialog, not behind its overlay.
    await confirm.waitFor({ state: 'hidden' });
    await expect
      .poll(() => page.evaluate(() => !!document.activeElement?.closest('[role=dialog]')))
      .toBe(true);
    await expectShellBalance(page, 10);
    await expect
      .poll(() => dialog.locator('[data-blast-status]').first().textContent())
      .toBe('Dibatalkan');
    expect(await dialog.getByRole('button', { name: 'Batalkan Blast' }).count()).toBe(0);
    // The number left pending was never sent, and says so; the others keep their status.
    expect(await items.allTextContents()).toEqual([
      '1.6281200000001Gagal',
      '2.6281200000002Tidak dikirim',
      '3.6281200000003Berhasil',
      '4.6281200000004No WA',
    ]);
    // (Escape would first dismiss the toast, the top layer.)
    await dialog.getByRole('button', { name: 'Tutup', exact: true }).last().click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page
      .getByRole('table', { name: 'Daftar blast request' })
      .locator('tbody tr')
      .first();
    expect(await row.locator('[data-blast-status]').textContent()).toBe('Dibatalkan');
    expect(await balanceOf(e2e.server, client)).toBe(10);
    await page.context().close();
  });
});
