// Notepad (/notes): the admin's notes with create and edit dialogs and a delete confirmation.
import { zodResolver } from '@hookform/resolvers/zod';
import { NotebookPen, Plus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useForm, type FieldErrors } from 'react-hook-form';
import {
  NOTE_REQUIRED_MESSAGE,
  NoteInputSchema,
  type Note,
  type NoteInput,
} from '#common/notes.ts';
import type { z } from '#common/zod.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { ConfirmDialog } from '#client/components/ui/confirm-dialog.tsx';
import { DataTable, type DataTableColumn } from '#client/components/ui/data-table.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#client/components/ui/dialog.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { Input, Textarea } from '#client/components/ui/input.tsx';
import { RowEditActions } from '#client/components/ui/inline-editor.tsx';
import { Field } from '#client/components/ui/label.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { runAction, toastError } from '#client/components/ui/toast.ts';
import {
  useCreateNote,
  useDeleteNote,
  useNotes,
  useUpdateNote,
} from '#client/features/notes/api.ts';
import { errorMessage } from '#client/lib/api-client.ts';
import { formatDateTime } from '#client/lib/format.ts';
import { useLoadErrorToast } from '#client/app/admin/feedback.ts';

const PREVIEW_LENGTH = 100;
const preview = (content: string) =>
  content.length > PREVIEW_LENGTH ? `${content.slice(0, PREVIEW_LENGTH)}...` : content;

const EMPTY_NOTE = { title: '', content: '' };

interface NoteDialogProps {
  /** 'create' or the note being edited. */
  mode: 'create' | Note;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The create dialog and the edit dialog: the same two fields, a different title and call. */
function NoteDialog({ mode, open, onOpenChange }: NoteDialogProps) {
  const create = useCreateNote();
  const update = useUpdateNote();
  const editing = mode !== 'create';
  const prefix = editing ? 'edit-note' : 'new-note';
  const form = useForm<z.input<typeof NoteInputSchema>, unknown, NoteInput>({
    resolver: zodResolver(NoteInputSchema),
    defaultValues: editing ? { title: mode.title, content: mode.content } : EMPTY_NOTE,
  });
  const { errors } = form.formState;
  const busy = create.isPending || update.isPending;

  const submit = async (input: NoteInput) => {
    const saved = await runAction(
      () => (editing ? update.mutateAsync({ id: mode.id, input }) : create.mutateAsync(input)),
      {
        done: editing ? 'Catatan berhasil diperbarui' : 'Catatan berhasil dibuat',
        failed: (error) =>
          errorMessage(error, editing ? 'Gagal update catatan' : 'Gagal membuat catatan'),
      },
    );
    if (saved) onOpenChange(false);
  };
  const refused = (found: FieldErrors<NoteInput>) =>
    toastError(found.title?.message ?? found.content?.message ?? NOTE_REQUIRED_MESSAGE);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => form.handleSubmit(submit, refused)(event);
  const problem = errors.title?.message ?? errors.content?.message;

  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{editing ? 'Edit Catatan' : 'Tambah Catatan Baru'}</DialogTitle>
          <DialogDescription>
            {editing ? 'Ubah judul atau konten catatan.' : 'Tulis catatan baru untuk admin.'}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          {problem && <Alert variant="destructive">{problem}</Alert>}
          <Field id={`${prefix}-title`} label="Judul" required>
            <Input
              id={`${prefix}-title`}
              maxLength={200}
              placeholder="Judul catatan"
              aria-invalid={!!errors.title}
              {...form.register('title')}
            />
          </Field>
          <Field id={`${prefix}-content`} label="Konten" required>
            <Textarea
              id={`${prefix}-content`}
              rows={10}
              placeholder="Tulis isi catatan di sini..."
              aria-invalid={!!errors.content}
              {...form.register('content')}
            />
          </Field>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
              Batal
            </Button>
            <Button type="submit" loading={busy}>
              {editing ? 'Simpan Perubahan' : 'Simpan Catatan'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function noteColumns(
  onEdit: (note: Note) => void,
  onDelete: (note: Note) => void,
): DataTableColumn<Note>[] {
  return [
    {
      key: 'title',
      header: 'Judul',
      cell: (n) => <span className="font-medium [overflow-wrap:anywhere]">{n.title}</span>,
      className: 'min-w-40',
    },
    {
      key: 'content',
      header: 'Konten',
      cell: (n) => (
        <span className="block max-w-md whitespace-pre-line text-muted-foreground [overflow-wrap:anywhere] md:min-w-56">
          {preview(n.content)}
        </span>
      ),
    },
    {
      key: 'created',
      header: 'Tanggal Dibuat',
      cell: (n) => formatDateTime(n.created_at),
      className: 'whitespace-nowrap',
    },
    {
      key: 'updated',
      header: 'Terakhir Diubah',
      cell: (n) => formatDateTime(n.updated_at),
      className: 'whitespace-nowrap',
    },
    {
      key: 'actions',
      header: 'Aksi',
      className: 'w-28 text-right',
      cell: (n) => (
        <RowEditActions
          editLabel={`Edit catatan ${n.title}`}
          deleteLabel={`Hapus catatan ${n.title}`}
          onEdit={() => onEdit(n)}
          onDelete={() => onDelete(n)}
          deleting={false}
        />
      ),
    },
  ];
}

export default function AdminNotesPage() {
  const notes = useNotes();
  const remove = useDeleteNote();
  useLoadErrorToast(notes, 'Gagal memuat catatan');
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Note | null>(null);
  const [deleting, setDeleting] = useState<Note | null>(null);

  const onDelete = async () => {
    if (!deleting) return;
    const removed = await runAction(() => remove.mutateAsync(deleting.id), {
      done: `Catatan "${deleting.title}" berhasil dihapus`,
      failed: (error) => errorMessage(error, 'Gagal hapus catatan'),
    });
    if (removed) setDeleting(null);
  };

  return (
    <div>
      <PageHeader
        title="Notepad Admin"
        description="Catatan pribadi admin untuk informasi penting dan pengingat."
        actions={
          <Button onClick={() => setCreating(true)}>
            <Plus aria-hidden />
            Tambah Catatan
          </Button>
        }
      />

      <DataTable
        stacked
        label="Daftar catatan"
        columns={noteColumns(setEditing, setDeleting)}
        rows={notes.data}
        rowKey={(n) => n.id}
        loading={notes.isPending}
        error={notes.isError}
        errorText="Gagal memuat catatan"
        onRetry={() => void notes.refetch()}
        empty={
          <EmptyState
            icon={NotebookPen}
            title="Belum ada catatan"
            action={
              <Button onClick={() => setCreating(true)}>
                <Plus aria-hidden />
                Tambah Catatan Pertama
              </Button>
            }
          />
        }
      />

      {/* Mounted only while open, so each opening starts from the note's current text. */}
      {creating && <NoteDialog mode="create" open onOpenChange={setCreating} />}
      {editing && (
        <NoteDialog
          key={editing.id}
          mode={editing}
          open
          onOpenChange={(open) => !open && setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Hapus Catatan"
        description={`Apakah Anda yakin ingin menghapus catatan "${deleting?.title ?? ''}"? Tindakan ini tidak dapat dibatalkan.`}
        onConfirm={onDelete}
        loading={remove.isPending}
      />
    </div>
  );
}
