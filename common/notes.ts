// The administrator's notepad.
import { z } from './zod.ts';

export const NOTE_REQUIRED_MESSAGE = 'Judul dan konten catatan harus diisi';

export const NoteInputSchema = z.strictObject({
  title: z.string().trim().min(1, NOTE_REQUIRED_MESSAGE).max(200),
  content: z.string().trim().min(1, NOTE_REQUIRED_MESSAGE).max(20_000),
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
