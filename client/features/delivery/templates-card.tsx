// 'Template Pesan' on Pengiriman: the business account's templates as last synced from Meta, the
// sync button, and per template whether clients may send with it.
import { FileText, RefreshCw } from 'lucide-react';
import { needsImage } from '#common/template-text.ts';
import type { Template } from '#common/templates.ts';
import { Alert } from '#client/components/ui/alert.tsx';
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
import { useAdminSettings } from '#client/features/settings/admin-api.ts';
import { TemplateStatusBadge } from './template-status-badge.tsx';
import { TemplateSwitch } from './template-switch.tsx';
import { useAdminTemplates, useSyncTemplates } from './templates-api.ts';

const HEADER_LABELS: Record<string, string> = {
  TEXT: 'Teks',
  IMAGE: 'Gambar',
  VIDEO: 'Video',
  DOCUMENT: 'Dokumen',
  LOCATION: 'Lokasi',
};

/** The template's header, as the admin reads it: '-' without one. */
const headerLabel = (t: Template) =>
  t.header ? (HEADER_LABELS[t.header.format] ?? t.header.format) : '-';

/**
 * Offered templates that no client can send while images are not allowed (Pengaturan): their
 * header is an image.
 */
function ImagesOffWarning({ templates }: { templates: Template[] | undefined }) {
  const settings = useAdminSettings();
  const stuck = (templates ?? []).filter((t) => t.enabled && needsImage(t));
  if (settings.data?.allow_images !== false || stuck.length === 0) return null;
  return (
    <Alert
      variant="warning"
      title="Klien belum dapat memakai template bergambar"
      data-images-off=""
    >
      {stuck.map((t) => t.name).join(', ')} membutuhkan gambar header, tetapi upload gambar belum
      diizinkan. Aktifkan &apos;Izinkan upload gambar&apos; di Pengaturan, atau nonaktifkan template
      tersebut.
    </Alert>
  );
}

const COLUMNS: DataTableColumn<Template>[] = [
  {
    key: 'name',
    header: 'Nama',
    cell: (t) => (
      <div className="grid gap-0.5">
        <span className="font-medium wrap-anywhere">{t.name}</span>
        {/* What clients' recipients read, so the admin knows what is switched on. */}
        <span
          className="line-clamp-3 max-w-md text-xs whitespace-pre-line text-muted-foreground wrap-anywhere"
          title={t.body}
          data-template-body=""
        >
          {t.body}
        </span>
        {t.unsupported && (
          <span className="text-xs text-muted-foreground">
            Belum dapat dikirim Sebar: {t.unsupported}
          </span>
        )}
      </div>
    ),
  },
  { key: 'language', header: 'Bahasa', cell: (t) => t.language },
  { key: 'header', header: 'Header', cell: (t) => headerLabel(t) },
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
      <CardContent className="grid gap-4">
        <ImagesOffWarning templates={templates.data} />
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
