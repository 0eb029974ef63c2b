// Settings as a client reads them (payment details, QR, image switch, delivery mode) and the QR
// fallback.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicSettings } from '#common/settings.ts';
import type { QrDataSchema } from '#common/settings.ts';
import type { z } from '#common/zod.ts';
import { api } from '#client/lib/api-client.ts';

export const publicSettingsQuery = queryOptions({
  queryKey: ['public', 'settings'],
  queryFn: ({ signal }) => api.get<PublicSettings>('/public/settings', { signal }),
});

export function usePublicSettings() {
  return useQuery(publicSettingsQuery);
}

/** SPEC's fallback when the QR image does not load: its data from GET /admin/qr-data/{filename}. */
export function fetchQrData(filename: string) {
  return api.get<z.infer<typeof QrDataSchema>>(`/admin/qr-data/${encodeURIComponent(filename)}`);
}
