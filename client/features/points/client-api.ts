// The client's top-up requests (create, paginated history) and point transactions.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type {
  CreatePointRequest,
  PointRequest,
  PointRequestPage,
  TransactionPage,
} from '#common/points.ts';
import { api } from '#client/lib/api-client.ts';
import { refreshWhilePending } from '#client/lib/query-client.ts';
import { meQueryKey, useMe } from '#client/features/auth/api.ts';

export const CLIENT_PAGE_SIZE = 5;
const requestsKey = ['client', 'point-requests'] as const;

export function useClientPointRequests(page: number) {
  return useQuery({
    queryKey: [...requestsKey, { page, page_size: CLIENT_PAGE_SIZE }],
    queryFn: ({ signal }) =>
      api.get<PointRequestPage>('/client/point-requests', {
        query: { page, page_size: CLIENT_PAGE_SIZE },
        signal,
      }),
    placeholderData: keepPreviousData,
    // A client waiting for an approval sees it come in without reloading.
    refetchInterval: (query) => refreshWhilePending(query.state.data?.items),
  });
}

export function useCreatePointRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreatePointRequest) =>
      api.post<PointRequest>('/client/point-requests', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: requestsKey }),
  });
}

export function useTransactions(page: number) {
  return useQuery({
    queryKey: ['client', 'transactions', { page, page_size: CLIENT_PAGE_SIZE }],
    queryFn: ({ signal }) =>
      api.get<TransactionPage>('/client/transactions', {
        query: { page, page_size: CLIENT_PAGE_SIZE },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/**
 * A screen that reads the balance from the server (dashboard, point history) refreshes the shell's
 * ['me'] when its answer is newer and differs, so an admin's approval or refund shows in the header.
 */
export function useSyncBalance(points: number | undefined, updatedAt: number) {
  const me = useMe();
  const queryClient = useQueryClient();
  const shown = me.data?.points;
  const stale = points !== undefined && shown !== undefined && points !== shown;
  const newer = updatedAt > me.dataUpdatedAt;
  useEffect(() => {
    if (stale && newer) void queryClient.invalidateQueries({ queryKey: meQueryKey });
  }, [stale, newer, queryClient]);
}
