// The upload rules without zod, so the blast form does not download it; settings.ts re-exports them.

export const MAX_IMAGE_BYTES = 5_242_880;
export const IMAGE_TYPE_MESSAGE = 'File harus berupa gambar (PNG, JPG, GIF)';
export const IMAGE_SIZE_MESSAGE = 'Ukuran file maksimal 5MB';
export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif'] as const;
