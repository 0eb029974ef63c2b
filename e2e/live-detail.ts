// What the delivery journeys check in a blast's detail, opened while its numbers are being sent
// and never reloaded: the states each number showed on the way, where they end, the refund.
import { expect } from 'vitest';
import { expectShellBalance, type Locator, type Page } from './helpers.ts';

/** Opens the newest blast's detail from Hasil Blast, once its numbers show. */
export async function openNewestDetail(page: Page): Promise<Locator> {
  const results = page.getByRole('table', { name: 'Daftar blast request' });
  await results
    .getByRole('button', { name: /^Detail/ })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: 'Detail Blast Request' });
  await dialog.locator('[data-number-row]').first().waitFor();
  return dialog;
}

/**
 * Opens the newest blast's detail and records, from then on, every state each number shows
 * (`expectStatesMovedForward`); the page is marked, so a reload would show (`stillMarked`).
 */
export async function openLiveDetail(page: Page): Promise<Locator> {
  const dialog = await openNewestDetail(page);
  await page.evaluate(() => {
    const seen: Record<string, string[]> = {};
    (window as any).__states = seen;
    (window as any).__marked = true;
    const collect = () => {
      for (const row of document.querySelectorAll('[data-number-row]')) {
        const state = row
          .querySelector('[data-delivery-state]')
          ?.getAttribute('data-delivery-state');
        const index = row.getAttribute('data-number-row')!;
        const states = (seen[index] ??= []);
        if (state && states.at(-1) !== state) states.push(state);
      }
    };
    collect();
    new MutationObserver(collect).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-delivery-state'],
    });
  });
  return dialog;
}

/** The row of a number (as the detail shows it, 62…). */
export const numberRow = (dialog: Locator, number: string) =>
  dialog.locator('[data-number-row]').filter({ hasText: number });

/**
 * Waits until each number shows its final state label, then checks the reasons: `reasons` for
 * the numbers it names, none for the others.
 */
export async function expectFinalStates(
  dialog: Locator,
  labels: Record<string, string>,
  reasons: Record<string, string>,
) {
  for (const [number, label] of Object.entries(labels)) {
    await expect
      .poll(() => numberRow(dialog, number).locator('[data-delivery-state]').textContent(), {
        timeout: 30_000,
      })
      .toBe(label);
  }
  for (const number of Object.keys(labels)) {
    const reason = numberRow(dialog, number).locator('[data-delivery-reason]');
    if (number in reasons) expect(await reason.textContent()).toBe(reasons[number]);
    else expect(await reason.count()).toBe(0);
  }
}

/**
 * Waits until the blast is completed with these counts, checks its refund and progress line,
 * and the shell's balance once the refund is in; the page was never reloaded.
 */
export async function expectCompleted(
  page: Page,
  dialog: Locator,
  counts: { success: number; failed: number; noWa: number; balance: number },
) {
  const { success, failed, noWa, balance } = counts;
  const total = success + failed + noWa;
  await expect
    .poll(() => dialog.locator('[data-progress-summary]').textContent(), { timeout: 30_000 })
    .toBe(`${success}Berhasil${failed}Gagal${noWa}No WA0Pending`);
  await expect
    .poll(() => dialog.locator('[data-blast-status]').getAttribute('data-blast-status'))
    .toBe('completed');
  await dialog.getByText(`+${failed + noWa} poin dikembalikan`).waitFor();
  expect(await dialog.locator('[data-sending-progress]').textContent()).toBe(
    `${total} dari ${total} nomor selesai diproses (100%)`,
  );
  // The refund reaches the balance in the header while the dialog is still open.
  await expectShellBalance(page, balance);
  expect(await stillMarked(page)).toBe(true);
}

/** Whether the page is the one `openLiveDetail` marked (not reloaded since). */
export function stillMarked(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as any).__marked === true);
}

/**
 * Checks what the page showed on the way: each number's states only moved forward, at least
 * three numbers changed under its eyes, and `states` were all seen.
 */
export async function expectStatesMovedForward(page: Page, states: string[]) {
  const seen: Record<string, string[]> = await page.evaluate(() => (window as any).__states);
  const order = ['queued', 'sending', 'sent', 'delivered', 'read'];
  for (const shown of Object.values(seen)) {
    const ranks = shown.filter((s) => s !== 'failed').map((s) => order.indexOf(s));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  }
  const changed = Object.values(seen).filter((shown) => shown.length > 1);
  expect(changed.length, JSON.stringify(seen)).toBeGreaterThanOrEqual(3);
  expect(Object.values(seen).flat()).toEqual(expect.arrayContaining(states));
}

/** The entries History Poin lists: type, signed points and description. */
export async function ledgerEntries(page: Page) {
  const ledger = page.getByRole('table', { name: 'Riwayat transaksi poin' });
  await ledger.locator('[data-transaction-type="usage"]').waitFor();
  return ledger.locator('tbody tr').evaluateAll((rows) =>
    rows.map((tr) => ({
      type: tr.querySelector('[data-transaction-type]')?.getAttribute('data-transaction-type'),
      delta: Number(
        (tr.querySelector('[data-transaction-delta]')?.textContent ?? '').replace(/[^0-9-]/g, ''),
      ),
      description: tr.querySelector('[data-transaction-description]')?.textContent ?? '',
    })),
  );
}
