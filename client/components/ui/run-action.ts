// What the user asked for, run and reported: one toast says it was done, or why it failed.
import type { ReactNode } from 'react';
import { failureText } from '#client/lib/api-client.ts';
import { toastError, toastSuccess } from './use-toast.ts';

/**
 * Runs `work`, then shows `done` (or the text it makes of the work's answer) in a success toast
 * when given, or an error toast: `failed` followed by the server's reason, or the text `failed`
 * makes of the error. Answers whether the work was done.
 */
export async function runAction<T>(
  work: () => Promise<T>,
  {
    done,
    failed,
  }: {
    done?: ReactNode | ((answer: T) => ReactNode);
    failed: string | ((error: unknown) => string);
  },
): Promise<boolean> {
  let answer: T;
  try {
    answer = await work();
  } catch (error) {
    toastError(typeof failed === 'string' ? failureText(error, failed) : failed(error));
    return false;
  }
  if (done !== undefined) toastSuccess(typeof done === 'function' ? done(answer) : done);
  return true;
}
