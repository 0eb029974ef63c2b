// Where the keyboard's focus can go when the control that had it goes away: the rules shared by
// the dialogs (focus back after closing) and the admin lists' inline editor (after a deletion).

/** The controls that take the focus first (links are left out, as Radix leaves them out). */
export const CONTROL =
  'button:not(:disabled), input:not(:disabled):not([type=hidden]), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';

/** The element that has the focus, if any. */
export const focusedElement = () =>
  document.activeElement instanceof HTMLElement ? document.activeElement : null;

/** The first control of the next table row that has one, else of the nearest row before. */
export function controlNear(row: Element): HTMLElement | null {
  for (const step of ['nextElementSibling', 'previousElementSibling'] as const) {
    for (let at = row[step]; at; at = at[step]) {
      const control = at.querySelector<HTMLElement>(CONTROL);
      if (control) return control;
    }
  }
  return null;
}
