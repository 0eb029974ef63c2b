// Keyboard users on Hasil Blast (admin and client), in Chromium: the focused control is never
// under the sticky header nor outside a dialog's visible area, focus stays in place through paging,
// saving and dialogs that lead to dialogs, the pagination status is spoken whole, and each row
// action names its row.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminPage,
  dialogFocus,
  dismissToasts,
  type E2E,
  expectToast,
  type Page,
  screenshot,
  SCREENSHOT_DIR,
  shot,
  signIn,
  startE2E,
} from './helpers.ts';
import { adminApi, type Client, createBlast, numbers, setPoints } from './seed.ts';

let e2e: E2E;
let budi: Client;
/** budi's blasts, oldest first: 30 of them, 6 pages of 5. */
const blasts: any[] = [];

/** What a row action is named: the action, then the row's client, time and message start. */
const rowName = (action: string, username: string, message: string) =>
  new RegExp(`^${action} blast ${username} \\d{1,2} \\S+ \\d{4},? \\d{2}[.:]\\d{2}: ${message}$`);

async function complete(blast: any, counts = { successful_count: 1, failed_count: 1 }) {
  await adminApi(e2e.server, 'POST', `/api/admin/blast-requests/${blast.id}/result`, {
    no_wa_count: 0,
    ...counts,
    admin_notes: null,
  });
}

beforeAll(async () => {
  e2e = await startE2E();
  budi = await e2e.server.createClient({ username: 'budi' });
  await setPoints(e2e.server, budi, 1000);
  for (let i = 1; i <= 30; i++) {
    const targets = i === 29 ? numbers(12, 500) : numbers(2, i * 10);
    blasts.push(await createBlast(e2e.server, budi, `Promo ${i}`, targets));
  }
  // Page 1, newest first: Promo 30 pending, 29 completed, 28 pending, 27 completed, 26 pending.
  await complete(blasts[28], { successful_count: 10, failed_count: 2 });
  await complete(blasts[26]);
});
afterAll(async () => {
  await e2e?.close();
});

interface FocusBox {
  text: string;
  top: number;
  bottom: number;
  /** The header's bottom edge, or the top of the dialog's visible area. */
  limitTop: number;
  /** The viewport's bottom, or the bottom of the dialog's visible area. */
  limitBottom: number;
}

/** Where the focused element is, against what may hide it (the sticky header, a dialog's edges). */
function focusBox(page: Page): Promise<FocusBox> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const box = el.getBoundingClientRect();
    const dialog = el.closest('[role=dialog], [role=alertdialog]');
    const limits = dialog?.getBoundingClientRect() ?? {
      top: document.querySelector('header')!.getBoundingClientRect().bottom,
      bottom: window.innerHeight,
    };
    return {
      text: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim(),
      top: box.top,
      bottom: box.bottom,
      limitTop: limits.top,
      limitBottom: limits.bottom,
    };
  });
}

const hidden = (box: FocusBox) =>
  box.top < box.limitTop - 0.5 || box.bottom > box.limitBottom + 0.5;

/**
 * From the page's last control, Shift+Tab up through every control of the page area; answers those
 * that were (partly) under the header or below the screen when focused.
 */
async function hiddenWhileTabbingBack(page: Page): Promise<FocusBox[]> {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.getByRole('button', { name: 'Halaman berikutnya' }).focus();
  const seen: FocusBox[] = [];
  for (let step = 0; step < 60; step++) {
    await page.keyboard.press('Shift+Tab');
    const inMain = await page.evaluate(() => !!document.activeElement?.closest('main'));
    if (!inMain) break;
    const box = await focusBox(page);
    if (hidden(box)) seen.push(box);
  }
  return seen;
}

/** The screen as the user sees it now (not the whole page): is the focus in view? */
async function viewShot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

const focusedText = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim();
  });

describe('Hasil Blast at 375 px, admin', () => {
  let phone: Page;
  beforeAll(async () => {
    phone = await adminPage(e2e, '/blast-results', 'phone');
    await phone.locator('tbody tr', { hasText: 'Promo 30' }).waitFor();
  });
  afterAll(async () => {
    await phone.context().close();
  });

  it('never hides a control focused with Shift+Tab under the sticky header', async () => {
    const seen = await hiddenWhileTabbingBack(phone);
    expect(seen).toEqual([]);
  });

  it("does not put 'Edit Hasil' under the header when Shift+Tab reaches it from below", async () => {
    const edit = phone
      .locator('tbody tr', { hasText: 'Promo 29' })
      .getByRole('button', { name: /^Edit Hasil/ });
    // The page scrolled so that 'Edit Hasil' is on screen but behind the header, as when reading
    // down and coming back; the focus on the next row's first control, in full view.
    await edit.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - 16));
    await phone
      .locator('tbody tr', { hasText: 'Promo 28' })
      .getByRole('button', { name: /^Detail/ })
      .evaluate((el) => (el as HTMLElement).focus({ preventScroll: true }));
    await phone.keyboard.press('Shift+Tab');
    const box = await focusBox(phone);
    expect(box.text).toMatch(/^Edit Hasil/);
    expect(hidden(box), JSON.stringify(box)).toBe(false);
    await viewShot(phone, 'keyboard-edit-hasil-phone');
  });

  it('opens the Detail dialog with the focus in its visible area, also on Edit Status', async () => {
    const row = phone.locator('tbody tr', { hasText: 'Promo 29' });
    await row.getByRole('button', { name: /^Detail/ }).focus();
    await phone.keyboard.press('Enter');
    await dialogFocus(phone);
    const opened = await focusBox(phone);
    expect(hidden(opened), JSON.stringify(opened)).toBe(false);
    await shot(phone, 'keyboard-detail-open-phone');

    // Tab to 'Edit Status' and press it: it turns into 'Batal Edit', and back, always in view.
    for (let step = 0; step < 10 && (await focusedText(phone)) !== 'Edit Status'; step++) {
      await phone.keyboard.press('Tab');
    }
    expect(await focusedText(phone)).toBe('Edit Status');
    for (const label of ['Batal Edit', 'Edit Status']) {
      // Scrolled by the user so that the toggle sits at the bottom of the dialog's visible area.
      await phone.evaluate(() => {
        const toggle = document.activeElement!;
        const dialog = toggle.closest('[role=dialog]')!;
        const below = toggle.getBoundingClientRect().bottom - dialog.getBoundingClientRect().bottom;
        dialog.scrollTop += below + 2;
      });
      await phone.keyboard.press('Enter');
      await expect.poll(() => focusedText(phone)).toBe(label);
      const box = await focusBox(phone);
      expect(hidden(box), JSON.stringify(box)).toBe(false);
      await shot(phone, `keyboard-detail-${label === 'Batal Edit' ? 'editing' : 'toggle'}-phone`);
    }
    await phone.keyboard.press('Escape');
    await phone.getByRole('dialog').waitFor({ state: 'hidden' });
  });

  it('keeps the focus in view when Tab goes round the Detail dialog and back to its top', async () => {
    const row = phone.locator('tbody tr', { hasText: 'Promo 29' });
    await row.getByRole('button', { name: /^Detail/ }).focus();
    await phone.keyboard.press('Enter');
    await dialogFocus(phone);
    const seen: FocusBox[] = [];
    const texts = new Set<string>();
    for (let step = 0; step < 40; step++) {
      await phone.keyboard.press('Tab');
      const box = await focusBox(phone);
      texts.add(box.text);
      if (hidden(box)) seen.push(box);
    }
    // Round more than once: the dialog's controls, each seen again after the wrap.
    expect(texts.size).toBeLessThan(20);
    expect(seen).toEqual([]);
    await phone.keyboard.press('Escape');
    await phone.getByRole('dialog').waitFor({ state: 'hidden' });
  });
});

describe('Hasil Blast with the keyboard, admin', () => {
  let page: Page;
  const row = (message: string) => page.locator('tbody tr', { hasText: message });
  const dialog = () => page.getByRole('dialog');
  beforeAll(async () => {
    page = await adminPage(e2e, '/blast-results');
    await row('Promo 30').waitFor();
  });

  it('names each row action after its row', async () => {
    const pending = row('Promo 30');
    for (const action of ['Detail', 'Input Hasil', 'Tolak']) {
      expect(
        await pending.getByRole('button', { name: rowName(action, 'budi', 'Promo 30') }).count(),
      ).toBe(1);
    }
    const completed = row('Promo 29');
    for (const action of ['Detail', 'Edit Hasil']) {
      expect(
        await completed.getByRole('button', { name: rowName(action, 'budi', 'Promo 29') }).count(),
      ).toBe(1);
    }
    // The visible words stay SPEC's.
    expect(
      (await pending.getByRole('button', { name: /^Input Hasil/ }).textContent())?.trim(),
    ).toBe('Input Hasil');
  });

  it('speaks the whole pagination status, and keeps the focus when paging', async () => {
    const nav = page.getByRole('navigation', { name: 'Navigasi halaman' });
    const status = nav.getByRole('status');
    expect(await status.textContent()).toBe('Menampilkan 1 sampai 5 dari 30 hasil');
    expect(await status.getAttribute('aria-atomic')).toBe('true');

    // The last-page shortcut moves into the window of page numbers: it keeps the focus.
    await nav.getByRole('button', { name: 'Halaman 6' }).focus();
    await page.keyboard.press('Enter');
    await status.getByText('Menampilkan 26 sampai 30 dari 30 hasil').waitFor();
    await row('Promo 1').waitFor();
    expect(await focusedText(page)).toBe('Halaman 6');

    // Next, pressed on the page before the last, must not drop the focus to the page's body.
    await nav.getByRole('button', { name: 'Halaman 5' }).click();
    await row('Promo 6').waitFor();
    await nav.getByRole('button', { name: 'Halaman berikutnya' }).focus();
    await page.keyboard.press('Enter');
    await status.getByText('Menampilkan 26 sampai 30 dari 30 hasil').waitFor();
    await row('Promo 1').waitFor();
    expect(await focusedText(page)).toBe('Halaman berikutnya');
    // It cannot go further, and says so.
    const next = nav.getByRole('button', { name: 'Halaman berikutnya' });
    expect(await next.getAttribute('aria-disabled')).toBe('true');
    await screenshot(page, 'keyboard-last-page-desktop');
    await page.keyboard.press('Enter');
    expect(await status.textContent()).toBe('Menampilkan 26 sampai 30 dari 30 hasil');
    await nav.getByRole('button', { name: 'Halaman 1' }).click();
    await row('Promo 30').waitFor();
  });

  it('focuses Edit Status again after Simpan Perubahan', async () => {
    await row('Promo 29')
      .getByRole('button', { name: /^Detail/ })
      .click();
    await dialogFocus(page);
    await dialog().getByRole('button', { name: 'Edit Status' }).click();
    await dialog()
      .getByLabel(/^Status nomor 1 /)
      .selectOption('failed');
    await dialog().getByRole('button', { name: 'Simpan Perubahan' }).focus();
    await page.keyboard.press('Enter');
    await expectToast(page, 'Status per nomor berhasil disimpan. 1 nomor diperbarui.');
    await expect.poll(() => focusedText(page)).toBe('Edit Status');
    await dismissToasts(page);
    await dialogFocus(page);
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
    // The focus goes back to the row's Detail (after the dialog has gone: not to be raced).
    await expect.poll(() => focusedText(page)).toMatch(rowName('Detail', 'budi', 'Promo 29'));
  });

  it('returns to Edit Hasil after its confirmation and the result dialog', async () => {
    await row('Promo 27')
      .getByRole('button', { name: /^Edit Hasil/ })
      .focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog');
    // The confirmation focuses its own first button once open; then the test moves to Ya.
    await dialogFocus(page);
    await confirm.getByRole('button', { name: 'Ya, Edit Hasil' }).focus();
    await page.keyboard.press('Enter');
    await dialog().getByRole('heading', { name: 'Edit Hasil Blast' }).waitFor();
    await dialogFocus(page);
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
    await expect.poll(() => focusedText(page)).toMatch(rowName('Edit Hasil', 'budi', 'Promo 27'));
  });

  it('keeps the place in the table after Input Hasil and after Tolak', async () => {
    const inRow = (message: string) =>
      page.evaluate(
        (text) => !!document.activeElement?.closest('tr')?.textContent?.includes(text),
        message,
      );
    await row('Promo 30')
      .getByRole('button', { name: /^Input Hasil/ })
      .focus();
    await page.keyboard.press('Enter');
    await dialog().getByRole('heading', { name: 'Input Hasil Blast' }).waitFor();
    await dialog().getByRole('button', { name: 'Submit Hasil' }).click();
    await expectToast(page, 'Hasil blast berhasil disubmit');
    await dialog().waitFor({ state: 'hidden' });
    await row('Promo 30')
      .getByRole('button', { name: /^Edit Hasil/ })
      .waitFor();
    await expect.poll(() => inRow('Promo 30')).toBe(true);

    await row('Promo 28')
      .getByRole('button', { name: /^Tolak/ })
      .focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Tolak' }).click();
    await expectToast(page, 'Blast request berhasil ditolak');
    await confirm.waitFor({ state: 'hidden' });
    await row('Promo 28').getByText('Ditolak', { exact: true }).waitFor();
    await expect.poll(() => inRow('Promo 28')).toBe(true);
  });
});

describe('Hasil Blast at 375 px, client', () => {
  it('never hides a control focused with Shift+Tab under the sticky header', async () => {
    const phone = await e2e.open('/login', 'phone');
    await signIn(phone, budi.user.email, budi.password);
    await phone.goto(`${e2e.url}/blast-results`);
    await phone.locator('tbody tr', { hasText: 'Promo 30' }).waitFor();
    const seen = await hiddenWhileTabbingBack(phone);
    expect(seen).toEqual([]);
    await viewShot(phone, 'keyboard-client-detail-phone');
    await phone.context().close();
  });

  it('keeps the pressed page button in view when the new page is longer', async () => {
    const tuti = await e2e.server.createClient({ username: 'tuti' });
    await setPoints(e2e.server, tuti, 20);
    for (let i = 1; i <= 6; i++) await createBlast(e2e.server, tuti, `Kabar ${i}`, numbers(1, i));
    const phone = await e2e.open('/login', 'phone');
    await signIn(phone, tuti.user.email, tuti.password);
    await phone.goto(`${e2e.url}/blast-results`);
    const row = (text: string) => phone.locator('tbody tr', { hasText: text });
    await row('Kabar 6').waitFor();
    await phone.getByRole('button', { name: 'Halaman berikutnya' }).focus();
    await phone.keyboard.press('Enter');
    await row('Kabar 1').waitFor();
    // Page 2 holds one blast; page 1's five push the pager far down.
    await phone.getByRole('button', { name: 'Halaman 1' }).focus();
    await phone.keyboard.press('Enter');
    await row('Kabar 6').waitFor();
    expect(await focusedText(phone)).toBe('Halaman 1');
    await expect.poll(async () => hidden(await focusBox(phone))).toBe(false);
    await phone.context().close();
  });
});
