// Admin contacts shown to clients.
import { EMAIL_FORMAT_MESSAGE, isEmail, requiredText } from './text.ts';
import { z } from './zod.ts';

export const CONTACT_PLATFORMS = [
  'telegram',
  'whatsapp',
  'instagram',
  'facebook',
  'email',
] as const;

export const CONTACT_WHATSAPP_MESSAGE = 'Nomor WhatsApp harus berisi 8 sampai 15 angka';

/**
 * The contact's value where the client's link needs a form (decision 257): an email address for
 * mailto, a number of 8 to 15 digits (any spaces, dashes or '+') for wa.me.
 */
export const ContactInputSchema = z
  .strictObject({
    platform: z.enum(CONTACT_PLATFORMS, 'Platform harus dipilih'),
    value: requiredText(200, 'Kontak harus diisi'),
    is_active: z.boolean().default(true),
  })
  .superRefine(({ platform, value }, ctx) => {
    if (platform === 'email' && !isEmail(value))
      ctx.addIssue({ code: 'custom', path: ['value'], message: EMAIL_FORMAT_MESSAGE });
    if (platform === 'whatsapp' && !/^\d{8,15}$/.test(value.replace(/[\s+-]/g, '')))
      ctx.addIssue({ code: 'custom', path: ['value'], message: CONTACT_WHATSAPP_MESSAGE });
  });
export type ContactInput = z.infer<typeof ContactInputSchema>;

export const ContactSchema = z.object({
  id: z.string(),
  platform: z.string(),
  value: z.string(),
  is_active: z.boolean(),
  created_at: z.string(),
});
export type Contact = z.infer<typeof ContactSchema>;

const isLink = (value: string) => /^https?:\/\//i.test(value);

/**
 * SPEC section 9: the client's action link per platform, or null. wa.me takes the number in
 * international form, so a leading 0 (Indonesia's trunk prefix) becomes 62; a Telegram or
 * Instagram value the admin wrote as a link already is the link.
 */
export function contactLink(platform: string, value: string): string | null {
  const v = value.trim();
  switch (platform) {
    case 'telegram':
      return isLink(v) ? v : `https://t.me/${v.replace(/^@/, '')}`;
    case 'whatsapp':
      return `https://wa.me/${v.replace(/\D/g, '').replace(/^0/, '62')}`;
    case 'instagram':
      return isLink(v) ? v : `https://instagram.com/${v.replace(/^@/, '')}`;
    case 'facebook':
      return isLink(v) ? v : null;
    case 'email':
      return `mailto:${v}`;
    default:
      return null;
  }
}
