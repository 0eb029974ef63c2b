// SPEC section 5's checks in order, each naming its field, and the settled spoken summary.
import { describe, expect, it } from 'vitest';
import { analyzeNumbers, splitNumbers } from '#common/phone.ts';
import { blastProblem, numbersSentence } from './blast-form-rules.ts';

const draft = (message: string, numbers: string, points = 10) => ({
  message,
  analysis: analyzeNumbers(splitNumbers(numbers)),
  points,
});

describe('blastProblem', () => {
  it('checks in SPEC order and names the field to fix', () => {
    expect(blastProblem(draft(' ', ''))).toEqual({
      field: 'message',
      text: 'Pesan blast tidak boleh kosong',
    });
    expect(blastProblem(draft('Halo', ''))).toEqual({
      field: 'numbers',
      text: 'Daftar nomor telepon tidak boleh kosong',
    });
    expect(blastProblem(draft('Halo', Array(501).fill('081234567890').join('\n')))).toEqual({
      field: 'numbers',
      title: 'Batas Maksimal Tercapai',
      text: 'Maksimal 500 nomor kontak per blast. Anda memasukkan 501 nomor.',
    });
    expect(blastProblem(draft('Halo', '12, abc, 081234567890'))).toEqual({
      field: 'numbers',
      text: '2 nomor tidak valid. Mohon perbaiki format nomor',
    });
    expect(blastProblem(draft('Halo', '081234567890, 081234567891', 1))).toEqual({
      field: 'numbers',
      title: 'Poin Tidak Cukup',
      text: 'Anda membutuhkan 2 poin, tetapi hanya memiliki 1 poin',
    });
    expect(blastProblem(draft('Halo', '+62 812 3456 7891'))).toBeNull();
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
