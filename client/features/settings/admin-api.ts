// The admin's settings record, the QR upload and the QR data fallback.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QrDataSchema, QrUploadSchema, Settings, SettingsInput } from '#common/settings.ts';
import type { z } from '#common/zod.ts';
import { api } from '#client/lib/api-client.ts';

export const adminSettingsKey = ['admin', 'settings'] as const;

export function useAdminSettings() {
  return useQuery({
    queryKey: adminSettingsKey,
    queryFn: ({ signal }) => api.get<Settings>('/admin/settings', { signal }),
  });
}

export function uploadQr(file: File) {
  const body = new FormData();
  body.append('file', file);
  return api.post<z.infer<typeof QrUploadSchema>>('/admin/upload-qr', body);
}

/** SPEC's fallback image source when the saved QR does not load. */
export function fetchAdminQrData(filename: string) {
  return api.get<z.infer<typeof QrDataSchema>>(`/admin/qr-data/${encodeURIComponent(filename)}`);
}

/**
 * Saves the settings; a newly chosen QR file is uploaded first and its answer names the QR
 * (qr_code_file and barcode_url = file_url, qr_data_url = data_url).
 */
export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ input, file }: { input: SettingsInput; file: File | null }) => {
      let body = input;
      if (file) {
        const uploaded = await uploadQr(file);
        body = {
          ...input,
          qr_code_file: uploaded.file_url,
          barcode_url: uploaded.file_url,
          qr_data_url: uploaded.data_url,
        };
      }
      return api.post<Settings>('/admin/settings', body);
    },
    onSuccess: (saved) => queryClient.setQueryData(adminSettingsKey, saved),
  });
}
