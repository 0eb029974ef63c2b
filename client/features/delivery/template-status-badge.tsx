// A template's status at Meta as a badge: Disetujui, Menunggu, Ditolak (others as Meta names them).
import { templateStatusLabel } from '#common/templates.ts';
import { Badge, type BadgeProps } from '#client/components/ui/badge.tsx';

const VARIANTS: Record<string, BadgeProps['variant']> = {
  APPROVED: 'success',
  PENDING: 'warning',
  REJECTED: 'destructive',
};

export function TemplateStatusBadge({ status }: { status: string }) {
  return <Badge variant={VARIANTS[status] ?? 'secondary'}>{templateStatusLabel(status)}</Badge>;
}
