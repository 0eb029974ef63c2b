// Berhenti Berlangganan (/opt-outs): the numbers that receive no more blasts, by their own keyword
// message or the admin's hand; searchable, 10 per page, with an inline add form and removal.
import { BellOff, MessageSquareOff, Plus, Search, Trash2, UserCog } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import {
  OPT_OUT_KEYWORDS,
  OPT_OUT_MESSAGES,
  OptOutInputSchema,
  type OptOut,
  type OptOutInput,
  type OptOutPage,
} from '#common/opt-outs.ts';
import { z } from '#common/zod.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import type { DataTableColumn } from '#client/components/ui/data-table.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { InlineEditorCard, useInlineEditor } from '#client/components/ui/inline-editor.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { PagedTable } from '#client/components/ui/paged-table.tsx';
import { StatGrid } from '#client/components/ui/stat-card.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import {
  OPT_OUTS_PAGE_SIZE,
  useAddOptOut,
  useOptOuts,
  useRemoveOptOut,
} from '#client/features/opt-outs/api.ts';
import { formatFigure } from '#client/lib/format.ts';
import { viaForm } from '#client/lib/form-schema.ts';
import { useLoadErrorToast } from '#client/app/admin/feedback.ts';
import { DateTimeCell } from '#client/app/admin/table-cells.tsx';
import { useClampedPage } from '#client/app/admin/use-clamped-page.ts';

const OptOutFormSchema = viaForm(z.object({ number: z.string() }), OptOutInputSchema);
type OptOutForm = z.input<typeof OptOutFormSchema>;
const EMPTY_FORM: OptOutForm = { number: '' };
const LOAD_FAILED = 'Gagal memuat daftar berhenti berlangganan';
// 'STOP, BERHENTI atau UNSUB'
const keywords = `${OPT_OUT_KEYWORDS.slice(0, -1).join(', ')} atau ${OPT_OUT_KEYWORDS.at(-1)}`;

/** The editor's row: a listed number, named by itself. */
type Listed = { id: string };

function optOutColumns(onRemove: (row: Listed) => void, removing: boolean) {
  const columns: DataTableColumn<OptOut>[] = [
    {
      key: 'number',
      header: 'Nomor',
      cell: (o) => <span className="font-mono font-medium">{o.number}</span>,
    },
    {
      key: 'source',
      header: 'Sumber',
      cell: (o) =>
        o.source === 'whatsapp' ? (
          <Badge variant="warning">Pesan WhatsApp</Badge>
        ) : (
          <Badge variant="secondary">Admin</Badge>
        ),
    },
    {
      key: 'keyword',
      header: 'Keterangan',
      cell: (o) =>
        o.source === 'whatsapp' ? (
          <span className="[overflow-wrap:anywhere]">Mengirim “{o.keyword}”</span>
        ) : (
          <span>Ditambahkan oleh {o.created_by_username ?? 'admin'}</span>
        ),
    },
    {
      key: 'created',
      header: 'Tanggal',
      cell: (o) => <DateTimeCell value={o.created_at} />,
    },
    {
      key: 'actions',
      header: 'Aksi',
      className: 'w-20 text-right',
      cell: (o) => (
        <Button
          variant="ghost"
          size="icon-sm"
          className="text-destructive hover:bg-destructive-soft"
          aria-label={`Hapus nomor ${o.number} dari daftar`}
          title="Hapus"
          disabled={removing}
          onClick={() => onRemove({ id: o.number })}
        >
          <Trash2 aria-hidden />
        </Button>
      ),
    },
  ];
  return columns;
}

const STATS = [
  { key: 'total', title: 'Total Nomor', icon: BellOff, tone: 'neutral' },
  { key: 'whatsapp', title: 'Dari Pesan WhatsApp', icon: MessageSquareOff, tone: 'warning' },
  { key: 'admin', title: 'Ditambahkan Admin', icon: UserCog, tone: 'info' },
] as const;

function OptOutStats({ summary }: { summary: OptOutPage['summary'] | undefined }) {
  return (
    <StatGrid
      label="Ringkasan daftar berhenti berlangganan"
      className="mb-6 grid grid-cols-1 gap-3 sm:grid-cols-3 sm:gap-4"
      loading={!summary}
      stats={STATS.map(({ key, ...card }) => ({ ...card, value: formatFigure(summary?.[key]) }))}
    />
  );
}

/** The search box; the list follows what is typed once typing pauses. */
function useSearch(onChange: () => void) {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setSearch(typed.trim()), 300);
    return () => window.clearTimeout(timer);
  }, [typed]);
  const box = (
    <div className="relative mb-4 max-w-sm">
      <Search
        aria-hidden
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
      />
      <Input
        type="search"
        aria-label="Cari nomor"
        placeholder="Cari nomor..."
        inputMode="tel"
        className="pl-9"
        value={typed}
        onChange={(event) => {
          setTyped(event.target.value);
          onChange();
        }}
      />
    </div>
  );
  return { search, box };
}

/** The inline add form and the removal of a number, each said in a toast. */
function useOptOutEditor() {
  const add = useAddOptOut();
  const remove = useRemoveOptOut();
  const addButton = useRef<HTMLButtonElement>(null);
  const editor = useInlineEditor<Listed, OptOutForm, OptOutInput>({
    schema: OptOutFormSchema,
    empty: EMPTY_FORM,
    toForm: () => EMPTY_FORM,
    firstField: 'number',
    addButton,
    save: (_id, input) => add.mutateAsync(input),
    remove: (number) => remove.mutateAsync(number),
    messages: {
      added: OPT_OUT_MESSAGES.added,
      updated: OPT_OUT_MESSAGES.added,
      addFailed: 'Gagal menambahkan nomor',
      updateFailed: 'Gagal menambahkan nomor',
      confirmDelete:
        'Hapus nomor ini dari daftar berhenti berlangganan? Nomor ini akan menerima blast lagi.',
      deleted: OPT_OUT_MESSAGES.removed,
      deleteFailed: 'Gagal menghapus nomor',
    },
  });
  return { editor, addButton, saving: add.isPending, removing: remove.isPending };
}

type OptOutEditor = ReturnType<typeof useOptOutEditor>;

/** The open add form: the number to list. */
function AddOptOutCard({ editor, saving }: Pick<OptOutEditor, 'editor' | 'saving'>) {
  return (
    <InlineEditorCard
      adding
      title={{ add: 'Tambah Nomor Berhenti Berlangganan', edit: '' }}
      label={{ add: 'Tambah nomor berhenti berlangganan', edit: '' }}
      saving={saving}
      onSubmit={editor.onSubmit}
      onCancel={editor.close}
    >
      <TextField
        id="opt-out-number"
        label="Nomor WhatsApp"
        error={editor.form.formState.errors.number?.message}
        required
        placeholder="08xxxxxxxxxx"
        inputMode="tel"
        autoComplete="off"
        fieldClassName="max-w-sm"
        {...editor.form.register('number')}
      />
    </InlineEditorCard>
  );
}

export default function AdminOptOutsPage() {
  const [page, setPage] = useState(1);
  const { search, box } = useSearch(() => setPage(1));
  const optOuts = useOptOuts(page, search);
  useLoadErrorToast(optOuts, LOAD_FAILED);
  useClampedPage(page, setPage, optOuts.data, OPT_OUTS_PAGE_SIZE);
  const { editor, addButton, saving, removing } = useOptOutEditor();

  return (
    <div>
      <PageHeader
        title="Daftar Berhenti Berlangganan"
        description={`Nomor yang membalas ${keywords} tidak dikirimi blast lagi dan tidak ditagih. Admin dapat menambah atau menghapus nomor.`}
        actions={
          <Button ref={addButton} onClick={editor.openAdd}>
            <Plus aria-hidden />
            Tambah Nomor
          </Button>
        }
      />
      {editor.editing !== null && <AddOptOutCard editor={editor} saving={saving} />}
      <OptOutStats summary={optOuts.data?.summary} />
      {box}
      <PagedTable
        stacked
        label="Daftar nomor berhenti berlangganan"
        columns={optOutColumns((row) => void editor.onDelete(row), removing)}
        query={optOuts}
        page={page}
        pageSize={OPT_OUTS_PAGE_SIZE}
        onPageChange={setPage}
        rowKey={(o) => o.number}
        errorText={LOAD_FAILED}
        empty={
          search ? (
            <EmptyState icon={Search} title="Tidak ada nomor yang cocok" />
          ) : (
            <EmptyState icon={BellOff} title="Belum ada nomor yang berhenti berlangganan" />
          )
        }
      />
    </div>
  );
}
