// The client's action link for each admin contact: one a person can open.
import { describe, expect, it } from 'vitest';
import { contactLink } from './contacts.ts';

describe('contactLink', () => {
  it('opens WhatsApp at the international number, whichever way the admin wrote it', () => {
    expect(contactLink('whatsapp', '+62 812-3456-7890')).toBe('https://wa.me/6281234567890');
    expect(contactLink('whatsapp', '0812-3456-7890')).toBe('https://wa.me/6281234567890');
    expect(contactLink('whatsapp', '6281234567890')).toBe('https://wa.me/6281234567890');
  });

  it('takes a Telegram or Instagram value written as a link as it is', () => {
    expect(contactLink('telegram', '@sebar_admin')).toBe('https://t.me/sebar_admin');
    expect(contactLink('telegram', 'https://t.me/sebar_admin')).toBe('https://t.me/sebar_admin');
    expect(contactLink('instagram', '@sebar.id')).toBe('https://instagram.com/sebar.id');
    expect(contactLink('instagram', 'https://instagram.com/sebar.id')).toBe(
      'https://instagram.com/sebar.id',
    );
  });

  it('links Facebook only as a link, and email as mailto', () => {
    expect(contactLink('facebook', 'Sebar Official')).toBeNull();
    expect(contactLink('facebook', 'https://facebook.com/sebar')).toBe(
      'https://facebook.com/sebar',
    );
    expect(contactLink('email', 'admin@sebar.id')).toBe('mailto:admin@sebar.id');
  });
});
