// The keyword rule: the whole message is the keyword, in any case, punctuation around it allowed.
import { describe, expect, it } from 'vitest';
import { optOutKeyword, OPT_OUT_MESSAGES } from './opt-outs.ts';

describe('optOutKeyword', () => {
  it.each([
    ['STOP', 'STOP'],
    ['stop', 'STOP'],
    ['  Stop  ', 'STOP'],
    ['Stop!', 'STOP'],
    ['*STOP*', 'STOP'],
    ['stop.', 'STOP'],
    ['berhenti', 'BERHENTI'],
    ['Berhenti 🙏', 'BERHENTI'],
    ['UNSUB', 'UNSUB'],
    ['"unsub"', 'UNSUB'],
    ['\nUnSub\n', 'UNSUB'],
  ])('%j says %s', (text, keyword) => {
    expect(optOutKeyword(text)).toBe(keyword);
  });

  it.each([
    'stop please',
    'tolong stop',
    'jangan berhenti',
    'STOP2',
    'S T O P',
    'stopp',
    'unsubscribe',
    'berhentikan',
    'halo',
    '',
    '   ',
    '!!!',
  ])('%j is an ordinary message', (text) => {
    expect(optOutKeyword(text)).toBeNull();
  });
});

describe('the client notice', () => {
  it('counts the numbers in id-ID', () => {
    expect(OPT_OUT_MESSAGES.notice(3)).toBe('3 nomor telah berhenti berlangganan');
    expect(OPT_OUT_MESSAGES.notice(1200)).toBe('1.200 nomor telah berhenti berlangganan');
  });
});
