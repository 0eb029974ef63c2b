// The messages zod writes for us are Indonesian throughout and name the field.
import { describe, expect, it } from 'vitest';
import { z } from './zod.ts';

const messages = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe('zod messages', () => {
  const query = z.strictObject({
    page: z.coerce.number().int().min(1).max(1000),
    size: z.number().gt(0).lt(10).optional(),
    name: z.string().optional(),
  });

  it('name a missing field and the type a field should have', () => {
    expect(messages(z.object({ name: z.string() }), {})).toEqual(['name harus diisi']);
    expect(messages(query, { page: 'abc' })).toEqual(['page harus berupa angka']);
    expect(messages(query, { page: '1.5' })).toEqual(['page harus berupa bilangan bulat']);
    expect(messages(query, { page: 1, name: 5 })).toEqual(['name harus berupa teks']);
    expect(messages(z.boolean(), 'ya')).toEqual(['Data harus berupa true atau false']);
  });

  it('give the bounds of a number', () => {
    expect(messages(query, { page: '0' })).toEqual(['page minimal 1']);
    expect(messages(query, { page: '1001' })).toEqual(['page maksimal 1000']);
    expect(messages(query, { page: 1, size: 0 })).toEqual(['size harus lebih dari 0']);
    expect(messages(query, { page: 1, size: 10 })).toEqual(['size harus kurang dari 10']);
  });

  it('list unknown keys without a stray letter', () => {
    expect(messages(query, { page: 1, points: 5 })).toEqual(['Kunci tidak dikenali: "points"']);
    expect(messages(query, { page: 1, a: 1, b: 2 })).toEqual(['Kunci tidak dikenali: "a", "b"']);
  });

  it('leave a message the schema sets alone', () => {
    expect(messages(z.string().min(3, 'Nama minimal 3 karakter'), 'ab')).toEqual([
      'Nama minimal 3 karakter',
    ]);
  });

  it('give the bounds of a text or a list, naming the field', () => {
    const note = z.object({ note: z.string().max(5), tags: z.array(z.string()).min(1).max(2) });
    expect(messages(note, { note: 'panjang sekali', tags: ['a'] })).toEqual([
      'note maksimal 5 karakter',
    ]);
    expect(messages(note, { note: '', tags: [] })).toEqual(['tags minimal 1 item']);
    expect(messages(note, { note: '', tags: ['a', 'b', 'c'] })).toEqual(['tags maksimal 2 item']);
    expect(messages(z.string().min(3), 'ab')).toEqual(['Data minimal 3 karakter']);
  });
});
