// The administrator's notepad.
import { requiredText } from './text.ts';
import { z } from './zod.ts';

export const NOTE_REQUIRED_MESSAGE = 'Judul dan konten catatan harus diisi';

export const NoteInputSchema = z.strictObject({
  title: requiredText(200, NOTE_REQUIRED_MESSAGE),
  content: requiredText(20_000, NOTE_REQUIRED_MESSAGE),
});
export type NoteInput = z.infer<typeof NoteInputSchema>;

export const NoteSchema = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Note = z.infer<typeof NoteSchema>;
