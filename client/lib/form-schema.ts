// Forms hold text (a number field is a string, a select may be empty); the shared schema then
// checks the converted values, so the messages are the ones the server would give.
import type { z } from '#common/zod.ts';

/** `form` reads and converts the raw fields; its output is checked by the shared `target`. */
export function viaForm<Form extends z.ZodType, Target extends z.ZodType>(
  form: Form,
  target: Target,
): z.ZodType<z.output<Target>, z.input<Form>> {
  // zod types a pipe by the target's input; here the form's output is that input by design.
  return form.pipe(target as never) as unknown as z.ZodType<z.output<Target>, z.input<Form>>;
}

/** A number field: blank stays blank (the shared schema names the missing field), else a number. */
export function toNumber(text: string): number | undefined {
  const trimmed = text.trim();
  return trimmed === '' ? undefined : Number(trimmed);
}
