// 'Template Pesan' on Pengiriman: the business account's templates as last synced from Meta, the
// sync button, and per template whether clients may send with it.
import { FileText, RefreshCw } from 'lucide-react';
import type { Template } from '#common/templates.ts';
import { Button } from '#client/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import { DataTable, type DataTableColumn } from '#client/components/ui/data-table.tsx';
import { runAction } from '#client/components/ui/toast.ts';
import { TemplateStatusBadge } from './template-status-badge.tsx';
import { TemplateSwitch } from './template-switch.tsx';
import { useAdminTemplates, useSyncTemplates } from './templates-api.ts';

const COLUMNS: DataTableColumn<Template>[] = [
  {
    key: 'name',
    header: 'Nama',
    cell: (t) => (
      <div className="grid gap-0.5">
        <span className="font-medium break-all">{t.name}</span>
        {t.unsupported && (
          <span className="text-xs text-muted-foreground">
            Belum dapat dikirim Sebar: {t.unsupported}
          </span>
        )}
      </div>
    ),
  },
  { key: 'language', header: 'Bahasa', cell: (t) => t.language },
  { key: 'category', header: 'Kategori', cell: (t) => t.category },
  { key: 'status', header: 'Status', cell: (t) => <TemplateStatusBadge status={t.status} /> },
  {
    key: 'parameters',
    header: 'Parameter',
    className: 'text-right',
    cell: (t) => t.parameters.length,
  },
  { key: 'enabled', header: 'Aktif', cell: (t) => <TemplateSwitch template={t} /> },
];

function SyncButton() {
  const sync = useSyncTemplates();
  const run = () =>
    runAction(() => sync.mutateAsync(), {
      done: 'Template berhasil disinkronkan',
      failed: 'Gagal menyinkronkan template',
    });
  return (
    <Button variant="outline" loading={sync.isPending} onClick={() => void run()}>
      {!sync.isPending && <RefreshCw aria-hidden />}
      {sync.isPending ? 'Menyinkronkan...' : 'Sinkronkan Template'}
    </Button>
  );
}

export function TemplatesCard() {
  const templates = useAdminTemplates();
  return (
    <Card>
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1.5">
          <CardTitle className="flex items-center gap-2">
            <FileText aria-hidden className="size-5 text-primary" />
            Template Pesan
          </CardTitle>
          <CardDescription>
            Template dari akun WhatsApp Business. Hanya template yang disetujui Meta dan aktif yang
            dapat dipakai klien.
          </CardDescription>
        </div>
        <SyncButton />
      </CardHeader>
      <CardContent>
        <DataTable
          label="Template pesan"
          columns={COLUMNS}
          rows={templates.data}
          rowKey={(t) => t.id}
          loading={templates.isPending}
          error={templates.error}
          errorText="Gagal memuat template"
          onRetry={() => void templates.refetch()}
          empty="Belum ada template. Klik Sinkronkan Template."
          stacked
        />
      </CardContent>
    </Card>
  );
}
