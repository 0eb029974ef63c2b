// What the user asked for, run and reported: one toast says it was done, or why it failed.
import type { ReactNode } from 'react';
import { failureText } from '#client/lib/api-client.ts';
import { toastError, toastSuccess } from './use-toast.ts';

/**
 * Runs `work`, then shows `done` in a success toast (when given), or an error toast: `failed`
 * followed by the server's reason, or the text `failed` makes of the error.
 * Answers whether the work was done.
 */
export async function runAction(
  work: () => Promise<unknown>,
  { done, failed }: { done?: ReactNode; failed: string | ((error: unknown) => string) },
): Promise<boolean> {
  try {
    await work();
  } catch (error) {
    toastError(typeof failed === 'string' ? failureText(error, failed) : failed(error));
    return false;
  }
  if (done !== undefined) toastSuccess(done);
  return true;
}
