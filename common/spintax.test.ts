// Spintax rules (decision 213): what is refused and why, the longest rendering's limit, and
// renderings decided by their seed.
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_LENGTH } from './blast-rules.ts';
import {
  longestRendering,
  MAX_NUMBER_LENGTH,
  parseSpintax,
  renderMessage,
  SPINTAX_MESSAGES,
  spintaxProblem,
  spintaxSeed,
  spintaxVariations,
} from './spintax.ts';

const NUMBER = '6281234567890';

describe('spintaxProblem', () => {
  it('takes plain text, choices and {nomor}', () => {
    for (const message of [
      'Halo, promo hari ini!',
      '{Halo|Hai|Selamat pagi} kak, nomor Anda {nomor}.',
      '{ Nomor } dan {NOMOR}',
      '{Halo |Hai } a|b di luar kurung tetap teks',
      '{baris\nsatu|baris dua}',
    ])
      expect(spintaxProblem(message), message).toBeNull();
  });

  it('refuses broken braces, nesting, blank options and unknown variables, in Indonesian', () => {
    const cases: [string, string][] = [
      ['Halo {Budi|Siti', SPINTAX_MESSAGES.unclosed],
      ['Halo Budi|Siti}', SPINTAX_MESSAGES.unopened],
      ['Halo } {a|b}', SPINTAX_MESSAGES.unopened],
      ['{Halo {nomor}|Hai}', SPINTAX_MESSAGES.nested],
      ['{a|{b|c}}', SPINTAX_MESSAGES.nested],
      ['Halo {}', SPINTAX_MESSAGES.empty],
      ['Halo {  }', SPINTAX_MESSAGES.empty],
      ['{Halo|}', SPINTAX_MESSAGES.blankOption('{Halo|}')],
      ['{|Halo}', SPINTAX_MESSAGES.blankOption('{|Halo}')],
      ['{Halo| |Hai}', SPINTAX_MESSAGES.blankOption('{Halo| |Hai}')],
      ['Halo {nama}', SPINTAX_MESSAGES.unknownVariable('{nama}')],
    ];
    for (const [message, problem] of cases) expect(spintaxProblem(message), message).toBe(problem);
  });

  it('refuses a message whose longest rendering exceeds the limit, {nomor} as 15 digits', () => {
    const room = MAX_MESSAGE_LENGTH - MAX_NUMBER_LENGTH;
    expect(spintaxProblem(`${'x'.repeat(room)}{nomor}`)).toBeNull();
    expect(spintaxProblem(`${'x'.repeat(room + 1)}{nomor}`)).toBe(
      SPINTAX_MESSAGES.tooLong(MAX_MESSAGE_LENGTH + 1),
    );
    // The longest option counts, not the raw text with its braces and bars.
    const choice = `{${'a'.repeat(10)}|${'b'.repeat(20)}}`;
    expect(longestRendering(parseSpintax(choice).parts!)).toBe(20);
    expect(spintaxProblem(`${'x'.repeat(MAX_MESSAGE_LENGTH - 20)}${choice}`)).toBeNull();
    expect(spintaxProblem(`${'x'.repeat(MAX_MESSAGE_LENGTH - 19)}${choice}`)).toBe(
      SPINTAX_MESSAGES.tooLong(MAX_MESSAGE_LENGTH + 1),
    );
  });
});

describe('renderMessage', () => {
  const message = '{Halo|Hai|Selamat pagi} kak {nomor}, {promo|diskon} {hari ini|minggu ini}!';

  it('picks one option per choice and puts the number in', () => {
    const text = renderMessage(message, NUMBER, 'seed');
    expect(text).toMatch(
      /^(Halo|Hai|Selamat pagi) kak 6281234567890, (promo|diskon) (hari ini|minggu ini)!$/,
    );
    expect(renderMessage('Tanpa spintax', NUMBER, 1)).toBe('Tanpa spintax');
  });

  it('gives the same text for the same seed, and varies across seeds', () => {
    const seed = spintaxSeed('blast-1', 7);
    expect(seed).toBe('blast-1:7');
    expect(renderMessage(message, NUMBER, seed)).toBe(renderMessage(message, NUMBER, seed));
    const texts = new Set(
      Array.from({ length: 200 }, (_, i) => renderMessage(message, NUMBER, spintaxSeed('b', i))),
    );
    // 3 × 2 × 2 renderings, all reached over 200 seeds.
    expect(texts.size).toBe(spintaxVariations(message));
    expect(texts.size).toBe(12);
  });

  it('draws each option about as often as the others', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 3000; i += 1) {
      const text = renderMessage('{a|b|c}', NUMBER, spintaxSeed('blast', i));
      counts.set(text, (counts.get(text) ?? 0) + 1);
    }
    for (const option of ['a', 'b', 'c']) {
      expect(counts.get(option)).toBeGreaterThan(850);
      expect(counts.get(option)).toBeLessThan(1150);
    }
  });

  it('refuses to render a message with a problem', () => {
    expect(() => renderMessage('{a|', NUMBER, 1)).toThrow(SPINTAX_MESSAGES.unclosed);
  });
});
