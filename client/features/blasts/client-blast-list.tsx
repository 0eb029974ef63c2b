// The client's blast list parts: the three counts and the table's columns.
import { CircleCheck, Clock, Eye, ImageIcon, Layers } from 'lucide-react';
import type { Blast, BlastSummary } from '#common/blasts.ts';
import { Button } from '#client/components/ui/button.tsx';
import type { DataTableColumn } from '#client/components/ui/data-table.tsx';
import { StatGrid } from '#client/components/ui/stat-card.tsx';
import { formatDateTime, formatFigure, formatNumber } from '#client/lib/format.ts';
import { BlastStatusBadge } from './client-blast-status.tsx';
import { beingSent } from './live-refresh.ts';

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
      return beingSent(blast) ? (
        <span className="grid text-sm text-muted-foreground" data-blast-result="">
          Sedang diproses
          <span className="text-xs">
            {formatNumber(blast.successful_count + blast.failed_count + blast.no_wa_count)} dari{' '}
            {formatNumber(blast.total_numbers)} diproses
          </span>
        </span>
      ) : (
        <span className="text-sm text-muted-foreground">Sedang diproses</span>
      );
    case 'rejected':
      return <span className="text-sm text-destructive">Ditolak admin</span>;
    case 'cancelled':
      return <span className="text-sm text-muted-foreground">Dibatalkan</span>;
  }
}

export function ClientBlastStats({
  summary,
  loading,
}: {
  summary: BlastSummary | undefined;
  loading: boolean;
}) {
  return (
    <StatGrid
      label="Ringkasan blast"
      className="grid gap-4 sm:grid-cols-3"
      loading={loading}
      stats={[
        { title: 'Menunggu', value: formatFigure(summary?.pending), icon: Clock, tone: 'warning' },
        {
          title: 'Selesai',
          value: formatFigure(summary?.completed),
          icon: CircleCheck,
          tone: 'primary',
        },
        {
          title: 'Total Blast',
          value: formatFigure(summary?.total),
          icon: Layers,
          tone: 'neutral',
        },
      ]}
    />
  );
}

export function clientBlastColumns(onDetail: (id: string) => void): DataTableColumn<Blast>[] {
  return [
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
        <Button variant="outline" size="sm" onClick={() => onDetail(blast.id)}>
          <Eye aria-hidden />
          Detail
          <span className="sr-only"> blast {formatDateTime(blast.created_at)}</span>
        </Button>
      ),
    },
  ];
}
