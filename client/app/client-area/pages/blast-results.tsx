// Hasil Blast (/blast-results): the client's blast requests, 5 per page from the server, with the
// server's counts on the cards and a detail dialog per request.
import { Send } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '#client/components/ui/button.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { PagedTable } from '#client/components/ui/paged-table.tsx';
import { CLIENT_PAGE_SIZE, useClientBlasts } from '#client/features/blasts/client-api.ts';
import { ClientBlastDetail } from '#client/features/blasts/client-blast-detail.tsx';
import {
  ClientBlastStats,
  clientBlastColumns,
} from '#client/features/blasts/client-blast-list.tsx';
import { useConsoleError } from '#client/lib/use-console-error.ts';

export default function ClientBlastResultsPage() {
  const [page, setPage] = useState(1);
  const [detailId, setDetailId] = useState<string | null>(null);
  const blasts = useClientBlasts(page);
  // A failed load is logged only (SPEC); the list then shows its empty state.
  useConsoleError(blasts.error, 'blast requests');
  const summary = blasts.data?.summary;
  const columns = clientBlastColumns(setDetailId);

  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        className="mb-0"
        title="Hasil Blast"
        description="Pantau status dan hasil setiap blast request yang Anda kirim."
      />

      <ClientBlastStats summary={summary} loading={blasts.isPending} />

      <div className="grid grid-cols-1 gap-2">
        <PagedTable
          stacked
          label="Daftar blast request"
          columns={columns}
          rowKey={(blast) => blast.id}
          query={blasts}
          page={page}
          pageSize={CLIENT_PAGE_SIZE}
          onPageChange={setPage}
          showLoadError={false}
          empty={
            <EmptyState
              icon={Send}
              title="Belum ada blast request"
              description="Blast yang Anda kirim akan muncul di sini."
              action={
                <Button asChild size="sm">
                  <Link to="/blast-form">Kirim Blast</Link>
                </Button>
              }
            />
          }
        />
      </div>

      <ClientBlastDetail blastId={detailId} onClose={() => setDetailId(null)} />
    </div>
  );
}
