// A form's draft, kept in this tab's session storage while it is typed: a reload, a visit to
// another page or a sign-in after the session ended gives it back; a send (the form emptied)
// clears it. Keyed by the signed-in user, so another account on the tab never sees it. Files are
// not kept: an image is chosen again.
import { useEffect } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { getSession } from './session.ts';

const keyOf = (form: string) => {
  const user = getSession()?.user.id;
  return user ? `sebar.draft.${form}.${user}` : null;
};

/** The kept text fields of `form`'s draft over `empty`; `empty` when there is none. */
export function readDraft<T extends FieldValues>(form: string, empty: T): T {
  const key = keyOf(form);
  try {
    const saved = key ? sessionStorage.getItem(key) : null;
    return saved ? { ...empty, ...(JSON.parse(saved) as Partial<T>) } : empty;
  } catch {
    return empty;
  }
}

/** Keeps the form's `fields` as they change; an emptied form leaves no draft. */
export function useFormDraft<T extends FieldValues>(
  name: string,
  form: UseFormReturn<T, unknown, unknown>,
  fields: readonly (keyof T & string)[],
): void {
  useEffect(() => {
    const key = keyOf(name);
    if (!key) return;
    const { unsubscribe } = form.watch((values) => {
      const kept = Object.fromEntries(fields.map((field) => [field, values[field]]));
      const empty = Object.values(kept).every(
        (value) => !value || (typeof value === 'object' && Object.keys(value).length === 0),
      );
      try {
        if (empty) sessionStorage.removeItem(key);
        else sessionStorage.setItem(key, JSON.stringify(kept));
      } catch {
        // Storage full or refused: the form works on without a draft.
      }
    });
    return unsubscribe;
  }, [name, form, fields]);
}
