// The gateway's devices: the list (read again every few seconds: often while one is not yet
// working, less often when all are, as a hold or a drop can come at any time), adding one, its
// pairing QR as an image, and the actions on it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Device, DeviceList } from '#common/delivery.ts';
import { API_BASE, api, ApiError } from '#client/lib/api-client.ts';
import { getSession } from '#client/lib/session.ts';

export const devicesKey = ['admin', 'delivery', 'devices'] as const;
/** How often the list is read while a device is pairing, starting or failing. */
export const DEVICES_REFRESH_MS = 2500;
/** How often it is read while every device works (as the queue card is). */
const WORKING_REFRESH_MS = 5000;

const BASE = '/admin/delivery/devices';
const path = (session: string) => `${BASE}/${encodeURIComponent(session)}`;

export function useDevices(enabled = true) {
  return useQuery({
    queryKey: devicesKey,
    queryFn: ({ signal }) => api.get<DeviceList>(BASE, { signal }),
    enabled,
    refetchInterval: (query) =>
      query.state.data?.items.some((d) => d.status !== 'WORKING')
        ? DEVICES_REFRESH_MS
        : WORKING_REFRESH_MS,
  });
}

export type DeviceActionName = 'logout' | 'start' | 'resume' | 'remove';

export function useDeviceAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ session, action }: { session: string; action: DeviceActionName }) =>
      action === 'remove'
        ? api.delete<unknown>(path(session))
        : api.post<Device>(`${path(session)}/${action}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: devicesKey }),
  });
}

export function useAddDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (session: string) => api.post<Device>(BASE, { session }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: devicesKey }),
  });
}

/**
 * The pairing QR as an object URL (an <img> cannot send the token), read again every few
 * seconds: WhatsApp renews it while the device waits for a scan.
 */
export function useDeviceQr(session: string, enabled: boolean) {
  return useQuery({
    queryKey: [...devicesKey, session, 'qr'],
    enabled,
    refetchInterval: DEVICES_REFRESH_MS * 2,
    gcTime: 0,
    queryFn: async ({ signal }) => {
      const token = getSession()?.token;
      const answer = await fetch(`${API_BASE}${path(session)}/qr`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
        signal,
      });
      if (!answer.ok) {
        const body = (await answer.json().catch(() => null)) as { detail?: string } | null;
        throw new ApiError(answer.status, body?.detail ?? null, body);
      }
      return URL.createObjectURL(await answer.blob());
    },
  });
}
