// Hasil Blast (/blast-results): the client's blast requests, 5 per page from the server, with the
// server's counts on the cards and a detail dialog per request.
import { CircleCheck, Clock, Eye, ImageIcon, Layers, Send } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Blast } from '#common/blasts.ts';
import { Button } from '#client/components/ui/button.tsx';
import { DataTable, type DataTableColumn } from '#client/components/ui/data-table.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { Pagination } from '#client/components/ui/pagination.tsx';
import { StatCard } from '#client/components/ui/stat-card.tsx';
import { CLIENT_PAGE_SIZE, useClientBlasts } from '#client/features/blasts/client-api.ts';
import { ClientBlastDetail } from '#client/features/blasts/client-blast-detail.tsx';
import { BlastStatusBadge } from '#client/features/blasts/client-blast-status.tsx';
import { formatDateTime, formatFigure, formatNumber } from '#client/lib/format.ts';
import { useConsoleError } from '#client/lib/use-console-error.ts';

const PREVIEW_LENGTH = 50;
const preview = (message: string) =>
  message.length > PREVIEW_LENGTH ? `${message.slice(0, PREVIEW_LENGTH)}...` : message;

function BlastResult({ blast }: { blast: Blast }) {
  switch (blast.status) {
    case 'completed':
      return (
        <ul className="grid gap-0.5 text-xs" data-blast-result="">
          <li className="font-medium text-primary">{blast.successful_count} berhasil</li>
          <li className="font-medium text-destructive">{blast.failed_count} gagal</li>
          <li className="font-medium text-warning">{blast.no_wa_count} no WA</li>
        </ul>
      );
    case 'pending':
      return <span className="text-sm text-muted-foreground">Sedang diproses</span>;
    case 'rejected':
      return <span className="text-sm text-destructive">Ditolak admin</span>;
    case 'cancelled':
      return <span className="text-sm text-muted-foreground">Dibatalkan</span>;
  }
}

export default function ClientBlastResultsPage() {
  const [page, setPage] = useState(1);
  const [detailId, setDetailId] = useState<string | null>(null);
  const blasts = useClientBlasts(page);
  // A failed load is logged only (SPEC); the list then shows its empty state.
  useConsoleError(blasts.error, 'blast requests');
  const summary = blasts.data?.summary;

  const columns: DataTableColumn<Blast>[] = [
    {
      key: 'date',
      header: 'Tanggal',
      className: 'min-w-28',
      cell: (blast) => formatDateTime(blast.created_at),
    },
    {
      key: 'message',
      header: 'Pesan',
      className: 'min-w-48 max-w-72',
      cell: (blast) => (
        <span className="flex items-start gap-1.5">
          <span title={blast.message} className="[overflow-wrap:anywhere]">
            {preview(blast.message)}
          </span>
          {blast.image_url && (
            <ImageIcon
              aria-label="Dengan gambar"
              className="mt-0.5 size-4 shrink-0 text-muted-foreground"
            />
          )}
        </span>
      ),
    },
    {
      key: 'total',
      header: 'Total Nomor',
      className: 'text-right',
      cell: (blast) => formatNumber(blast.total_numbers),
    },
    {
      key: 'status',
      header: 'Status',
      cell: (blast) => <BlastStatusBadge status={blast.status} />,
    },
    {
      key: 'result',
      header: 'Hasil',
      className: 'whitespace-nowrap',
      cell: (blast) => <BlastResult blast={blast} />,
    },
    {
      key: 'points',
      header: 'Poin',
      className: 'whitespace-nowrap text-right',
      cell: (blast) => (
        <span className="grid">
          <span className="font-medium">{formatNumber(blast.points_used)}</span>
          {blast.refund_points > 0 && (
            <span className="text-xs text-primary">
              +{formatNumber(blast.refund_points)} refund
            </span>
          )}
        </span>
      ),
    },
    {
      key: 'action',
      header: 'Aksi',
      cell: (blast) => (
        <Button variant="outline" size="sm" onClick={() => setDetailId(blast.id)}>
          <Eye aria-hidden />
          Detail
          <span className="sr-only"> blast {formatDateTime(blast.created_at)}</span>
        </Button>
      ),
    },
  ];

  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        className="mb-0"
        title="Hasil Blast"
        description="Pantau status dan hasil setiap blast request yang Anda kirim."
      />

      <section aria-label="Ringkasan blast" className="grid gap-4 sm:grid-cols-3">
        <StatCard
          title="Menunggu"
          value={formatFigure(summary?.pending)}
          loading={blasts.isPending}
          icon={Clock}
          tone="warning"
        />
        <StatCard
          title="Selesai"
          value={formatFigure(summary?.completed)}
          loading={blasts.isPending}
          icon={CircleCheck}
          tone="primary"
        />
        <StatCard
          title="Total Blast"
          value={formatFigure(summary?.total)}
          loading={blasts.isPending}
          icon={Layers}
          tone="neutral"
        />
      </section>

      <div className="grid grid-cols-1 gap-2">
        <DataTable
          stacked
          label="Daftar blast request"
          columns={columns}
          rows={blasts.data?.items}
          rowKey={(blast) => blast.id}
          loading={blasts.isPending}
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
        <Pagination
          page={page}
          total={blasts.data?.total ?? 0}
          pageSize={CLIENT_PAGE_SIZE}
          onPageChange={setPage}
        />
      </div>

      <ClientBlastDetail blastId={detailId} onClose={() => setDetailId(null)} />
    </div>
  );
}
