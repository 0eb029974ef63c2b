// Where the saved QR image comes from (SPEC section 7), and the file name its fallback asks for.
import type { Settings } from '#common/settings.ts';

type QrFields = Pick<Settings, 'qr_data_url' | 'qr_code_file' | 'barcode_url'>;

/**
 * SPEC's order: qr_data_url; else qr_code_file when it starts with http; else the backend host
 * (this origin: the API and the uploads are served together) plus qr_code_file or barcode_url.
 */
export function qrImageSource(settings: QrFields): string | null {
  if (settings.qr_data_url) return settings.qr_data_url;
  if (settings.qr_code_file?.startsWith('http')) return settings.qr_code_file;
  const path = settings.qr_code_file || settings.barcode_url;
  if (!path) return null;
  return path.startsWith('/') || path.startsWith('http') ? path : `/${path}`;
}

/** The stored file's name for GET /admin/qr-data/{filename}, or null when none is named. */
export function qrFileName(settings: QrFields): string | null {
  const path = settings.qr_code_file || settings.barcode_url;
  if (!path) return null;
  const name = path.split(/[?#]/)[0]!.split('/').pop();
  return name || null;
}
