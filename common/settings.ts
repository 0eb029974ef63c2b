// Payment settings (single record), what clients read of the settings, and the upload rules.
import { DELIVERY_MODES } from './delivery.ts';
import { requiredText, text } from './text.ts';
import { z } from './zod.ts';

export * from './upload-rules.ts';

// An empty QR field (what a form without a QR sends) means no QR: it is stored as null.
const emptyIsNull = (value: string | null) => value || null;
const optionalText = text(500).nullable().default(null).transform(emptyIsNull);

export const SettingsInputSchema = z.strictObject({
  account_number: requiredText(50, 'Nomor rekening harus diisi'),
  account_name: requiredText(100, 'Nama pemilik rekening harus diisi'),
  bank_name: requiredText(100, 'Nama bank harus diisi'),
  barcode_url: optionalText,
  qr_code_file: optionalText,
  qr_data_url: z
    .string()
    .max(8_000_000)
    .regex(
      /^(data:image\/(png|jpeg|gif);base64,[A-Za-z0-9+/=]+)?$/,
      'QR Code harus berupa data gambar',
    )
    .nullable()
    .default(null)
    .transform(emptyIsNull),
  allow_images: z.boolean().default(false),
});
export type SettingsInput = z.infer<typeof SettingsInputSchema>;

export const SettingsSchema = z.object({
  account_number: z.string(),
  account_name: z.string(),
  bank_name: z.string(),
  barcode_url: z.string().nullable(),
  qr_code_file: z.string().nullable(),
  qr_data_url: z.string().nullable(),
  allow_images: z.boolean(),
});
export type Settings = z.infer<typeof SettingsSchema>;

/** The settings as a signed-in user reads them, with how blasts are delivered now (decision 206). */
export const PublicSettingsSchema = SettingsSchema.extend({
  delivery_mode: z.enum(DELIVERY_MODES),
});
export type PublicSettings = z.infer<typeof PublicSettingsSchema>;

export const QrUploadSchema = z.object({ file_url: z.string(), data_url: z.string() });
export const ImageUploadSchema = z.object({ url: z.string() });
export const QrDataSchema = z.object({ data_url: z.string() });
