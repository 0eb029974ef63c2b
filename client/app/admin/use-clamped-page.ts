// Keeps a server-paginated screen on a page that exists (e.g. after deleting the last row of it).
import { useEffect } from 'react';

export function useClampedPage(
  page: number,
  setPage: (page: number) => void,
  data: { total: number; items: unknown[] } | undefined,
  pageSize: number,
): void {
  const lastPage = data ? Math.max(1, Math.ceil(data.total / pageSize)) : null;
  useEffect(() => {
    if (lastPage !== null && page > lastPage) setPage(lastPage);
  }, [page, lastPage, setPage]);
}
