// How a pasted list becomes numbers: the form and the server parse it with the same rules.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeNumbers, splitNumbers, withoutInvalidNumbers } from './phone.ts';

describe('splitNumbers', () => {
  it('keeps a number copied from WhatsApp, spaces and all, as one number', () => {
    expect(splitNumbers('+62 812 3456 7891')).toEqual(['+62 812 3456 7891']);
    expect(splitNumbers('+62 812-3456-7891, 0812 3456 7892\n0813 1111 2222')).toEqual([
      '+62 812-3456-7891',
      '0812 3456 7892',
      '0813 1111 2222',
    ]);
    expect(analyzeNumbers(splitNumbers('+62 812 3456 7891'))).toEqual({
      entered: 1,
      invalid: [],
      unique: ['6281234567891'],
      duplicates: 0,
    });
  });

  it('still splits on newlines, commas, semicolons and whitespace otherwise (SPEC)', () => {
    expect(splitNumbers('081234567801\n12345, abc;0812  +6281234567802')).toEqual([
      '081234567801',
      '12345',
      'abc',
      '0812',
      '+6281234567802',
    ]);
    expect(splitNumbers('081234567801 081234567802\t081234567803')).toEqual([
      '081234567801',
      '081234567802',
      '081234567803',
    ]);
    expect(splitNumbers(' \n,, ;\r\n ')).toEqual([]);
  });
});

describe('withoutInvalidNumbers', () => {
  it('leaves the valid parts, one a line, duplicates included', () => {
    expect(withoutInvalidNumbers('081234567801, 12\nabc 081234567801\n+62 812 3456 7891')).toBe(
      '081234567801\n081234567801\n+62 812 3456 7891',
    );
  });
});

describe('the form and the server agree', () => {
  it("refuse '8' with 12 digits, whose international form (62 and 13 digits) is too long", () => {
    expect(analyzeNumbers(['8123456789012']).invalid).toEqual(['8123456789012']);
    expect(analyzeNumbers(['812345678901']).unique).toEqual(['62812345678901']);
    expect(analyzeNumbers(['62812345678901']).unique).toEqual(['62812345678901']);
  });

  // The form sends analyzeNumbers(splitNumbers(text)).unique; the server runs analyzeNumbers on it.
  const part = fc.oneof(
    fc.stringMatching(/^(\+62|62|0|8)?[0-9]{6,14}$/),
    fc.stringMatching(/^\+62 8[0-9]{2} [0-9]{4} [0-9]{3,4}$/),
    fc.stringMatching(/^08[0-9]{2}-[0-9]{4}-[0-9]{4}$/),
    fc.string({ maxLength: 6 }),
  );
  const text = fc
    .array(fc.tuple(part, fc.constantFrom('\n', ', ', ';', ' ', '\r\n')), { maxLength: 20 })
    .map((pairs) => pairs.map(([p, sep]) => p + sep).join(''));

  it('every number the form sends is valid to the server, and stays the same number', () => {
    fc.assert(
      fc.property(text, (input) => {
        const sent = analyzeNumbers(splitNumbers(input)).unique;
        expect(analyzeNumbers(sent)).toEqual({
          entered: sent.length,
          invalid: [],
          unique: sent,
          duplicates: 0,
        });
      }),
      { numRuns: 1000 },
    );
  });

  it('removing the invalid parts leaves the same numbers and none invalid', () => {
    fc.assert(
      fc.property(text, (input) => {
        const before = analyzeNumbers(splitNumbers(input));
        const after = analyzeNumbers(splitNumbers(withoutInvalidNumbers(input)));
        expect(after.invalid).toEqual([]);
        expect(after.unique).toEqual(before.unique);
      }),
      { numRuns: 1000 },
    );
  });
});
