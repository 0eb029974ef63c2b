// Form Poin (/point-requests): clients' top-up requests, approved or rejected by the admin.
import { Check, CheckCircle2, Clock, ExternalLink, Wallet, X, XCircle } from 'lucide-react';
import { useState } from 'react';
import type { PointRequest, PointRequestPage, PointRequestStatus } from '#common/points.ts';
import { Badge, type BadgeProps } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { ConfirmDialog } from '#client/components/ui/confirm-dialog.tsx';
import type { DataTableColumn } from '#client/components/ui/data-table.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { PagedTable } from '#client/components/ui/paged-table.tsx';
import { StatGrid } from '#client/components/ui/stat-card.tsx';
import { runAction } from '#client/components/ui/toast.ts';
import {
  POINT_REQUESTS_PAGE_SIZE,
  useAdminPointRequests,
  useDecidePointRequest,
} from '#client/features/points/admin-api.ts';
import { formatFigure, formatNumber, formatRupiah } from '#client/lib/format.ts';
import { useLoadErrorToast } from '#client/app/admin/feedback.ts';
import { compact, DateTimeCell, UserCell } from '#client/app/admin/table-cells.tsx';
import { useClampedPage } from '#client/app/admin/use-clamped-page.ts';

interface Decision {
  request: PointRequest;
  action: 'approve' | 'reject';
}

/** 'Setujui request top up 1.000 poin (Rp600.000) dari budi?' and what the decision does. */
function confirmation({ request, action }: Decision) {
  const what = `request top up ${formatNumber(request.points_requested)} poin (${formatRupiah(request.amount_paid)}) dari ${request.username}`;
  return action === 'approve'
    ? {
        title: 'Approve Request Poin',
        description: `Setujui ${what}? Poinnya langsung masuk ke saldo klien.`,
        confirmLabel: 'Approve',
        variant: 'default' as const,
      }
    : {
        title: 'Reject Request Poin',
        description: `Tolak ${what}? Saldo klien tidak berubah.`,
        confirmLabel: 'Reject',
        variant: 'destructive' as const,
      };
}

const STATUS: Record<PointRequestStatus, { label: string; variant: BadgeProps['variant'] }> = {
  pending: { label: 'Pending', variant: 'warning' },
  approved: { label: 'Disetujui', variant: 'success' },
  rejected: { label: 'Ditolak', variant: 'destructive' },
};

/** The transfer proof opens in a new tab; a request may have none. */
function ProofLink({ request: r }: { request: PointRequest }) {
  return r.payment_proof_url ? (
    <a
      href={r.payment_proof_url}
      target="_blank"
      rel="noopener noreferrer"
      className="inline-flex items-center gap-1 whitespace-nowrap font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      Lihat Bukti
      <ExternalLink aria-hidden className="size-3.5" />
      <span className="sr-only">(tab baru)</span>
    </a>
  ) : (
    <span className="text-muted-foreground">Tidak ada</span>
  );
}

/** Approve and Reject while pending (each asks first); afterwards, what was decided. */
function DecisionActions({
  request: r,
  ask,
  deciding,
}: {
  request: PointRequest;
  ask: (decision: Decision) => void;
  deciding: boolean;
}) {
  return r.status === 'pending' ? (
    <div className="flex gap-2">
      <Button
        size="sm"
        disabled={deciding}
        aria-label={`Approve request ${formatNumber(r.points_requested)} poin dari ${r.username}`}
        onClick={() => ask({ request: r, action: 'approve' })}
      >
        <Check aria-hidden />
        Approve
      </Button>
      <Button
        size="sm"
        variant="destructive"
        disabled={deciding}
        aria-label={`Reject request ${formatNumber(r.points_requested)} poin dari ${r.username}`}
        onClick={() => ask({ request: r, action: 'reject' })}
      >
        <X aria-hidden />
        Reject
      </Button>
    </div>
  ) : (
    <span className="whitespace-nowrap text-sm text-muted-foreground">
      {r.status === 'approved' ? 'Telah diapprove' : 'Telah ditolak'}
    </span>
  );
}

function requestColumns(
  ask: (decision: Decision) => void,
  deciding: boolean,
): DataTableColumn<PointRequest>[] {
  return [
    {
      key: 'user',
      header: 'Username',
      cell: (r) => <UserCell username={r.username} userId={r.user_id} />,
    },
    {
      key: 'points',
      header: 'Poin Diminta',
      cell: (r) => (
        <span className="whitespace-nowrap font-semibold">
          {formatNumber(r.points_requested)} poin
        </span>
      ),
      className: 'whitespace-normal',
    },
    {
      key: 'amount',
      header: 'Jumlah Bayar (IDR)',
      cell: (r) => <span className="whitespace-nowrap">{formatRupiah(r.amount_paid)}</span>,
      className: 'whitespace-normal',
    },
    {
      key: 'status',
      header: 'Status',
      cell: (r) => <Badge variant={STATUS[r.status].variant}>{STATUS[r.status].label}</Badge>,
    },
    {
      key: 'date',
      header: 'Tanggal Request',
      cell: (r) => <DateTimeCell value={r.created_at} />,
      className: 'whitespace-normal',
    },
    {
      key: 'proof',
      header: 'Bukti Transfer',
      className: 'whitespace-normal',
      cell: (r) => <ProofLink request={r} />,
    },
    {
      key: 'actions',
      header: 'Aksi',
      cell: (r) => <DecisionActions request={r} ask={ask} deciding={deciding} />,
    },
  ];
}

function RequestStats({ summary }: { summary: PointRequestPage['summary'] | undefined }) {
  return (
    <StatGrid
      label="Ringkasan request poin"
      className="mb-6 grid gap-4 sm:grid-cols-3"
      stats={[
        { title: 'Pending', value: formatFigure(summary?.pending), icon: Clock, tone: 'warning' },
        {
          title: 'Disetujui',
          value: formatFigure(summary?.approved),
          description: summary
            ? `${formatNumber(summary.approved_points)} poin disetujui`
            : undefined,
          icon: CheckCircle2,
          tone: 'primary',
        },
        {
          title: 'Ditolak',
          value: formatFigure(summary?.rejected),
          icon: XCircle,
          tone: 'destructive',
        },
      ]}
    />
  );
}

export default function AdminPointRequestsPage() {
  const [page, setPage] = useState(1);
  const requests = useAdminPointRequests(page);
  const decide = useDecidePointRequest();
  useLoadErrorToast(requests, 'Gagal memuat request poin');
  useClampedPage(page, setPage, requests.data, POINT_REQUESTS_PAGE_SIZE);

  // Approve and Reject ask first: the decision is final and approval credits the points.
  const [pending, setPending] = useState<Decision | null>(null);
  const onDecide = async ({ request, action }: Decision) => {
    const approve = action === 'approve';
    await runAction(() => decide.mutateAsync({ id: request.id, action }), {
      done: approve ? 'Request poin berhasil diapprove' : 'Request poin berhasil direject',
      failed: approve ? 'Gagal approve request poin' : 'Gagal reject request poin',
    });
    setPending(null);
  };

  return (
    <div>
      <PageHeader
        title="Form Poin - Request Top-Up"
        description="Periksa bukti transfer lalu approve atau reject request top-up poin klien."
      />

      <RequestStats summary={requests.data?.summary} />

      <PagedTable
        stacked
        label="Daftar request top-up poin"
        columns={compact(requestColumns(setPending, decide.isPending))}
        query={requests}
        page={page}
        pageSize={POINT_REQUESTS_PAGE_SIZE}
        onPageChange={setPage}
        rowKey={(r) => r.id}
        errorText="Gagal memuat request poin"
        empty={<EmptyState icon={Wallet} title="Belum ada request poin" />}
      />
      {pending && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setPending(null)}
          {...confirmation(pending)}
          onConfirm={() => void onDecide(pending)}
          loading={decide.isPending}
        />
      )}
    </div>
  );
}
