// Hasil Blast (/blast-results): every client's blasts, 5 per page, with detail, result entry,
// re-edit (after a confirmation) and reject. A Cloud API blast's results come from the engine:
// no entry or re-edit, and the list follows it while it is being sent.
import {
  BarChart3,
  CheckCircle2,
  Clock,
  Eye,
  ImageIcon,
  ListChecks,
  Pencil,
  Percent,
  Send,
  XCircle,
} from 'lucide-react';
import { useState } from 'react';
import type { Blast, BlastPage } from '#common/blasts.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { ConfirmDialog } from '#client/components/ui/confirm-dialog.tsx';
import type { DataTableColumn } from '#client/components/ui/data-table.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { PagedTable } from '#client/components/ui/paged-table.tsx';
import { StatGrid } from '#client/components/ui/stat-card.tsx';
import { BLASTS_PAGE_SIZE, useAdminBlasts } from '#client/features/blasts/admin-api.ts';
import { AdminBlastDetailDialog } from '#client/features/blasts/admin-blast-detail.tsx';
import { BlastStatusBadge } from '#client/features/blasts/admin-blast-parts.tsx';
import { beingSent } from '#client/features/blasts/live-refresh.ts';
import { RejectBlastDialog } from '#client/features/blasts/admin-blast-reject.tsx';
import { AdminBlastResultDialog } from '#client/features/blasts/admin-blast-result.tsx';
import { formatDateTime, formatFigure, formatNumber } from '#client/lib/format.ts';
import { useLoadErrorToast } from '#client/app/admin/feedback.ts';
import { compact, DateTimeCell, UserCell } from '#client/app/admin/table-cells.tsx';
import { useClampedPage } from '#client/app/admin/use-clamped-page.ts';

const PREVIEW_LENGTH = 60;
const NAME_PREVIEW_LENGTH = 30;
const preview = (message: string, length = PREVIEW_LENGTH) =>
  message.length > length ? `${message.slice(0, length)}...` : message;

/** A row action's accessible name: its visible word, then which blast (client, time, message). */
const actionName = (action: string, b: Blast) =>
  `${action} blast ${b.username} ${formatDateTime(b.created_at)}: ${preview(b.message.replace(/\s+/g, ' '), NAME_PREVIEW_LENGTH)}`;

function ResultCell({ blast }: { blast: Blast }) {
  switch (blast.status) {
    case 'completed':
      return (
        <ul className="grid gap-0.5 whitespace-nowrap text-xs">
          <li className="text-primary">✓ {formatNumber(blast.successful_count)} berhasil</li>
          <li className="text-destructive">✗ {formatNumber(blast.failed_count)} gagal</li>
          <li className="text-warning">{formatNumber(blast.no_wa_count)} tidak ada WA</li>
        </ul>
      );
    case 'pending':
      return beingSent(blast) ? (
        <span className="grid whitespace-nowrap text-xs text-muted-foreground">
          Dikirim otomatis
          <span>
            {formatNumber(blast.successful_count + blast.failed_count + blast.no_wa_count)} dari{' '}
            {formatNumber(blast.total_numbers)} diproses
          </span>
        </span>
      ) : (
        <span className="whitespace-nowrap text-xs text-muted-foreground">Belum ada hasil</span>
      );
    case 'rejected':
      return <span className="whitespace-nowrap text-xs text-destructive">Ditolak admin</span>;
    case 'cancelled':
      return (
        <span className="whitespace-nowrap text-xs text-muted-foreground">Dibatalkan klien</span>
      );
  }
}

interface BlastActionHandlers {
  detail: (blast: Blast) => void;
  result: (blast: Blast) => void;
  reject: (blast: Blast) => void;
  editResult: (blast: Blast) => void;
}

/**
 * Detail always; Tolak while pending; Input Hasil while pending and Edit Hasil once completed, for
 * a manual blast only (the engine records a Cloud API blast's results).
 */
function BlastActions({ blast, act }: { blast: Blast; act: BlastActionHandlers }) {
  const typed = blast.delivery_mode === 'manual';
  return (
    <div className="grid w-32 gap-1.5 [&>button]:w-full [&>button]:justify-start">
      <Button
        size="sm"
        variant="outline"
        aria-label={actionName('Detail', blast)}
        onClick={() => act.detail(blast)}
      >
        <Eye aria-hidden />
        Detail
      </Button>
      {typed && blast.status === 'pending' && (
        <Button
          size="sm"
          aria-label={actionName('Input Hasil', blast)}
          onClick={() => act.result(blast)}
        >
          <ListChecks aria-hidden />
          Input Hasil
        </Button>
      )}
      {blast.status === 'pending' && (
        <Button
          size="sm"
          variant="outline"
          className="text-destructive hover:bg-destructive-soft"
          aria-label={actionName('Tolak', blast)}
          onClick={() => act.reject(blast)}
        >
          <XCircle aria-hidden />
          Tolak
        </Button>
      )}
      {typed && blast.status === 'completed' && (
        <Button
          size="sm"
          variant="secondary"
          aria-label={actionName('Edit Hasil', blast)}
          onClick={() => act.editResult(blast)}
        >
          <Pencil aria-hidden />
          Edit Hasil
        </Button>
      )}
    </div>
  );
}

function blastColumns(act: BlastActionHandlers): DataTableColumn<Blast>[] {
  return [
    {
      key: 'user',
      header: 'Username',
      cell: (b) => <UserCell username={b.username} userId={b.user_id} />,
    },
    {
      key: 'message',
      header: 'Pesan',
      cell: (b) => (
        <div className="grid max-w-64 gap-1 md:min-w-40">
          <p className="[overflow-wrap:anywhere]" title={b.message}>
            {preview(b.message)}
          </p>
          <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
            <span>{formatNumber(b.total_numbers)} nomor</span>
            {b.image_url && (
              <Badge variant="outline" className="gap-1">
                <ImageIcon aria-hidden />
                Ada gambar
              </Badge>
            )}
          </p>
        </div>
      ),
    },
    {
      key: 'total',
      header: 'Total Nomor',
      cell: (b) => <span className="font-semibold">{formatNumber(b.total_numbers)}</span>,
      className: 'w-20 whitespace-normal text-center',
    },
    { key: 'status', header: 'Status', cell: (b) => <BlastStatusBadge status={b.status} /> },
    { key: 'result', header: 'Hasil', cell: (b) => <ResultCell blast={b} /> },
    {
      key: 'date',
      header: 'Tanggal',
      cell: (b) => <DateTimeCell value={b.created_at} />,
    },
    {
      key: 'actions',
      header: 'Aksi',
      cell: (b) => <BlastActions blast={b} act={act} />,
    },
  ];
}

function BlastStats({ summary }: { summary: BlastPage['summary'] | undefined }) {
  return (
    <StatGrid
      label="Ringkasan blast"
      className="mb-6 grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4"
      stats={[
        { title: 'Pending', value: formatFigure(summary?.pending), icon: Clock, tone: 'warning' },
        {
          title: 'Selesai',
          value: formatFigure(summary?.completed),
          icon: CheckCircle2,
          tone: 'primary',
        },
        { title: 'Total Request', value: formatFigure(summary?.total), icon: Send, tone: 'info' },
        {
          title: 'Success Rate',
          value: summary ? `${summary.success_rate}%` : '-',
          description: 'Blast selesai dari semua request',
          icon: Percent,
          tone: 'neutral',
        },
      ]}
    />
  );
}

export default function AdminBlastResultsPage() {
  const [page, setPage] = useState(1);
  const blasts = useAdminBlasts(page);
  useLoadErrorToast(blasts, 'Gagal memuat blast requests');
  useClampedPage(page, setPage, blasts.data, BLASTS_PAGE_SIZE);
  const [detail, setDetail] = useState<Blast | null>(null);
  const [resultFor, setResultFor] = useState<Blast | null>(null);
  const [confirmEdit, setConfirmEdit] = useState<Blast | null>(null);
  const [rejecting, setRejecting] = useState<Blast | null>(null);

  return (
    <div>
      <PageHeader
        title="Hasil Blast WhatsApp"
        description="Input dan kelola hasil blast WhatsApp klien. Nomor gagal dan tanpa WhatsApp dikembalikan sebagai poin."
      />

      <BlastStats summary={blasts.data?.summary} />

      <PagedTable
        stacked
        label="Daftar blast request"
        columns={compact(
          blastColumns({
            detail: setDetail,
            result: setResultFor,
            reject: setRejecting,
            editResult: setConfirmEdit,
          }),
        )}
        query={blasts}
        page={page}
        pageSize={BLASTS_PAGE_SIZE}
        onPageChange={setPage}
        rowKey={(b) => b.id}
        errorText="Gagal memuat blast requests"
        empty={<EmptyState icon={BarChart3} title="Belum ada blast request" />}
      />

      {detail && (
        <AdminBlastDetailDialog key={detail.id} blast={detail} onClose={() => setDetail(null)} />
      )}
      {resultFor && (
        <AdminBlastResultDialog
          key={resultFor.id}
          blast={resultFor}
          onClose={() => setResultFor(null)}
        />
      )}
      <ConfirmDialog
        open={confirmEdit !== null}
        onOpenChange={(open) => !open && setConfirmEdit(null)}
        title="Edit Hasil Blast"
        description="Apakah Anda yakin ingin mengedit hasil blast ini? Perubahan akan mempengaruhi perhitungan refund poin."
        confirmLabel="Ya, Edit Hasil"
        variant="default"
        onConfirm={() => {
          setResultFor(confirmEdit);
          setConfirmEdit(null);
        }}
      />
      <RejectBlastDialog blast={rejecting} onClose={() => setRejecting(null)} />
    </div>
  );
}
