// The list of codes: which are retried, final, or stop the engine.
import { describe, expect, it } from 'vitest';
import { errorMeaning, failedStatus, GIVEN_UP, numberReason } from './whatsapp-errors.ts';

describe('WhatsApp error codes', () => {
  it('count 131026 as no WhatsApp, and the other 13xxxx codes as failed', () => {
    expect(failedStatus(131026)).toBe('no_wa');
    for (const code of [131047, 131049, 132000, 132001, 135000]) {
      expect(errorMeaning(code).handling, String(code)).toBe('failed');
      expect(failedStatus(code)).toBe('failed');
    }
  });

  it('retry rate limits, WhatsApp’s own trouble and no answer at all', () => {
    for (const code of [130429, 131056, 131000, null]) {
      expect(errorMeaning(code).handling, String(code)).toBe('retry');
    }
  });

  it('pause on a restricted sender and stop on an invalid token', () => {
    expect(errorMeaning(368).handling).toBe('pause');
    expect(errorMeaning(131048).handling).toBe('pause');
    expect(errorMeaning(190).handling).toBe('stop');
  });

  it('stop on what only the admin can put right: the account, its token, its permissions', () => {
    for (const code of [0, 3, 10, 200, 299, 131005, 131031, 131042, 131045, 133010]) {
      expect(errorMeaning(code).handling, String(code)).toBe('stop');
      expect(errorMeaning(code).reason).toBe(errorMeaning(190).reason);
    }
    expect(errorMeaning(131057).handling).toBe('pause');
  });

  it('fail an invalid parameter at once, and retry Meta’s other passing limits', () => {
    expect(errorMeaning(100).handling).toBe('failed');
    for (const code of [4, 80007, 133004, 1, 2]) {
      expect(errorMeaning(code).handling, String(code)).toBe('retry');
    }
  });

  it('tell the client a retried error’s number was given up once it has failed, not retried', () => {
    expect(numberReason(131000, false)).toBe(errorMeaning(131000).reason);
    expect(numberReason(131000, true)).toBe(GIVEN_UP);
    expect(numberReason(131056, true)).toBe(GIVEN_UP);
    expect(numberReason(131049, true)).toBe(errorMeaning(131049).reason);
    expect(numberReason(131026, true)).toBe(errorMeaning(131026).reason);
  });

  it('name the two refusals WhatsApp gives a gateway device', () => {
    for (const code of [463, 475]) {
      expect(errorMeaning(code).handling, String(code)).toBe('retry');
      expect(errorMeaning(code).reason).toBe('Menunggu perangkat pengirim lain; akan dicoba lagi');
    }
  });

  it('say each in Indonesian, to the admin and to the client', () => {
    expect(errorMeaning(131026).reason).toBe(
      'Nomor tidak terdaftar di WhatsApp atau tidak dapat menerima pesan',
    );
    expect(errorMeaning(135000).meaning).toBe('Ditolak WhatsApp (kode 135000)');
  });
});
