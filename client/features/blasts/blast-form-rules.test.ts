// SPEC section 5's checks in order, each naming its field, and the settled spoken summary.
import { describe, expect, it } from 'vitest';
import { analyzeNumbers, splitNumbers } from '#common/phone.ts';
import { blastProblem, blastResolver, numbersSentence, problemTitle } from './blast-form-rules.ts';

const draft = (message: string, numbers: string, points = 10) => ({
  message,
  analysis: analyzeNumbers(splitNumbers(numbers)),
  points,
});

describe('blastProblem', () => {
  it('checks in SPEC order and names the field to fix', () => {
    expect(blastProblem(draft(' ', ''))).toEqual({
      field: 'message',
      rule: 'required',
      text: 'Pesan blast tidak boleh kosong',
    });
    expect(blastProblem(draft('Halo', ''))).toEqual({
      field: 'numbers',
      rule: 'required',
      text: 'Daftar nomor telepon tidak boleh kosong',
    });
    expect(blastProblem(draft('Halo', Array(501).fill('081234567890').join('\n')))).toEqual({
      field: 'numbers',
      rule: 'max',
      text: 'Maksimal 500 nomor kontak per blast. Anda memasukkan 501 nomor.',
    });
    expect(blastProblem(draft('Halo', '12, abc, 081234567890'))).toEqual({
      field: 'numbers',
      rule: 'pattern',
      text: '2 nomor tidak valid. Mohon perbaiki format nomor',
    });
    expect(blastProblem(draft('Halo', '081234567890, 081234567891', 1))).toEqual({
      field: 'numbers',
      rule: 'points',
      text: 'Anda membutuhkan 2 poin, tetapi hanya memiliki 1 poin',
    });
    expect(blastProblem(draft('Halo', '+62 812 3456 7891'))).toBeNull();
  });

  it('checks the spintax in gateway mode only, after the emptiness and before the numbers', () => {
    expect(blastProblem({ ...draft('Halo {nama}', ''), spintax: true })).toEqual({
      field: 'message',
      rule: 'pattern',
      text: 'Variabel {nama} tidak dikenal. Gunakan {nomor} atau pilihan seperti {Halo|Hai}',
    });
    expect(blastProblem({ ...draft('{Halo|Hai} {nomor}', '081234567890'), spintax: true })).toBe(
      null,
    );
    // Manual mode sends braces as typed.
    expect(blastProblem(draft('Halo {nama}', '081234567890'))).toBeNull();
  });
});

describe('blastResolver', () => {
  const image = new File(['x'], 'a.png', { type: 'image/png' });

  it('gives the first failed check to its field, with the title the toast shows', () => {
    const result = blastResolver(
      { numbers: '081234567890, 081234567891', message: 'Halo', image: null },
      { points: 1, allowImages: true },
    );
    expect(result).toEqual({
      values: {},
      errors: {
        numbers: {
          type: 'points',
          message: 'Anda membutuhkan 2 poin, tetapi hanya memiliki 1 poin',
        },
      },
    });
    expect(problemTitle('points')).toBe('Poin Tidak Cukup');
    expect(problemTitle('max')).toBe('Batas Maksimal Tercapai');
    expect(problemTitle('required')).toBe('Error');
  });

  it('sends the valid numbers once each, and the image only where images are allowed', () => {
    const values = { numbers: '081234567890\n+6281234567890', message: 'Halo', image };
    expect(blastResolver(values, { points: 5, allowImages: true })).toEqual({
      values: { message: 'Halo', numbers: ['6281234567890'], image },
      errors: {},
    });
    const withoutImages = blastResolver(values, { points: 5, allowImages: false });
    expect(withoutImages.values).toMatchObject({ image: null });
  });
});

describe('numbersSentence', () => {
  it('says the whole state in sentences, never a fragment', () => {
    expect(numbersSentence(draft('', '').analysis, 10)).toBe('');
    expect(numbersSentence(draft('', '081234567890\n12ab\n081234567890').analysis, 1234)).toBe(
      '1 nomor valid dari maksimal 500. 1 nomor tidak valid. 1 nomor duplikat dihapus. ' +
        'Dibutuhkan 1 poin, tersedia 1.234 poin.',
    );
    expect(numbersSentence(draft('', '081234567890, 081234567891').analysis, 1)).toBe(
      '2 nomor valid dari maksimal 500. Dibutuhkan 2 poin, tersedia 1 poin. Kekurangan 1 poin.',
    );
  });
});
