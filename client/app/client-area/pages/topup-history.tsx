// Riwayat Top Up (/topup-history): the client's top-up requests, 5 per page from the server, with
// the server's counts on the cards.
import { CircleCheck, CircleX, Clock, Coins, ExternalLink, Receipt } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  POINT_REQUEST_LABELS,
  type PointRequest,
  type PointRequestStatus,
} from '#common/points.ts';
import { Badge, type BadgeProps } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import type { DataTableColumn } from '#client/components/ui/data-table.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { PagedTable } from '#client/components/ui/paged-table.tsx';
import { StatGrid } from '#client/components/ui/stat-card.tsx';
import { CLIENT_PAGE_SIZE, useClientPointRequests } from '#client/features/points/client-api.ts';
import { formatDateTime, formatFigure, formatNumber, formatRupiah } from '#client/lib/format.ts';
import { useConsoleError } from '#client/lib/use-console-error.ts';

const STATUS_VARIANT: Record<PointRequestStatus, BadgeProps['variant']> = {
  pending: 'warning',
  approved: 'success',
  rejected: 'destructive',
};

const columns: DataTableColumn<PointRequest>[] = [
  {
    key: 'date',
    header: 'Tanggal Request',
    className: 'whitespace-nowrap',
    cell: (request) => formatDateTime(request.created_at),
  },
  {
    key: 'points',
    header: 'Poin',
    className: 'text-right',
    cell: (request) => (
      <span className="font-medium">{formatNumber(request.points_requested)}</span>
    ),
  },
  {
    key: 'amount',
    header: 'Jumlah Bayar',
    className: 'whitespace-nowrap text-right',
    cell: (request) => formatRupiah(request.amount_paid),
  },
  {
    key: 'status',
    header: 'Status',
    cell: (request) => (
      <Badge variant={STATUS_VARIANT[request.status]} data-request-status={request.status}>
        {POINT_REQUEST_LABELS[request.status]}
      </Badge>
    ),
  },
  {
    key: 'processed',
    header: 'Tanggal Diproses',
    className: 'whitespace-nowrap',
    cell: (request) => formatDateTime(request.processed_at),
  },
  {
    key: 'proof',
    header: 'Bukti Transfer',
    className: 'whitespace-nowrap',
    cell: (request) =>
      request.payment_proof_url ? (
        <a
          href={request.payment_proof_url}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          Lihat Bukti
          <ExternalLink aria-hidden className="size-3.5" />
          <span className="sr-only"> (tab baru)</span>
        </a>
      ) : (
        <span className="text-muted-foreground">Tidak ada</span>
      ),
  },
];

export default function TopupHistoryPage() {
  const [page, setPage] = useState(1);
  const requests = useClientPointRequests(page);
  // A failed load is logged only (SPEC); the list then shows its empty state.
  useConsoleError(requests.error, 'riwayat top-up');
  const summary = requests.data?.summary;

  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        className="mb-0"
        title="Riwayat Top Up"
        description="Semua request top-up poin Anda beserta statusnya."
      />

      <StatGrid
        label="Ringkasan top-up"
        className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4"
        loading={requests.isPending}
        stats={[
          {
            title: 'Menunggu',
            value: formatFigure(summary?.pending),
            icon: Clock,
            tone: 'warning',
          },
          {
            title: 'Disetujui',
            value: formatFigure(summary?.approved),
            icon: CircleCheck,
            tone: 'primary',
          },
          {
            title: 'Ditolak',
            value: formatFigure(summary?.rejected),
            icon: CircleX,
            tone: 'destructive',
          },
          {
            title: 'Total Poin Disetujui',
            value: formatFigure(summary?.approved_points),
            icon: Coins,
            tone: 'info',
          },
        ]}
      />

      <div className="grid grid-cols-1 gap-2">
        <PagedTable
          stacked
          label="Riwayat request top-up"
          columns={columns}
          rowKey={(request) => request.id}
          query={requests}
          page={page}
          pageSize={CLIENT_PAGE_SIZE}
          onPageChange={setPage}
          showLoadError={false}
          empty={
            <EmptyState
              icon={Receipt}
              title="Belum ada history top-up"
              action={
                <Button asChild size="sm">
                  <Link to="/topup">Top Up Poin</Link>
                </Button>
              }
            />
          }
        />
      </div>
    </div>
  );
}
