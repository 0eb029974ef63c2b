// Kontak (/contacts): the admin's contacts shown to clients, with an inline add/edit form.
import { Plus } from 'lucide-react';
import { useRef } from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import {
  CONTACT_PLATFORMS,
  ContactInputSchema,
  type Contact,
  type ContactInput,
} from '#common/contacts.ts';
import { z } from '#common/zod.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { DataTable, type DataTableColumn } from '#client/components/ui/data-table.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import {
  InlineEditorCard,
  RowEditActions,
  useInlineEditor,
} from '#client/components/ui/inline-editor.tsx';
import { describedBy, Field, Label } from '#client/components/ui/label.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '#client/components/ui/select.tsx';
import { Switch } from '#client/components/ui/switch.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import {
  useAdminContacts,
  useDeleteContact,
  useSaveContact,
} from '#client/features/contacts/admin-api.ts';
import { formatDate } from '#client/lib/format.ts';
import { useLoadErrorToast } from '#client/app/admin/feedback.ts';
import { viaForm } from '#client/lib/form-schema.ts';

const PLATFORM_LABELS: Record<string, string> = {
  telegram: 'Telegram',
  whatsapp: 'WhatsApp',
  instagram: 'Instagram',
  facebook: 'Facebook',
  email: 'Email',
};
const platformLabel = (platform: string) => PLATFORM_LABELS[platform] ?? platform;

// The form holds the platform as text ('' = none chosen); the shared schema then checks it.
const ContactFormSchema = viaForm(
  z.object({ platform: z.string(), value: z.string(), is_active: z.boolean() }),
  ContactInputSchema,
);
type ContactForm = z.input<typeof ContactFormSchema>;
const EMPTY_FORM: ContactForm = { platform: '', value: '', is_active: true };

const toForm = (contact: Contact): ContactForm => ({
  platform: contact.platform,
  value: contact.value,
  is_active: contact.is_active,
});

function contactColumns(
  onEdit: (contact: Contact) => void,
  onDelete: (contact: Contact) => void,
  deleting: boolean,
): DataTableColumn<Contact>[] {
  return [
    {
      key: 'platform',
      header: 'Platform',
      cell: (c) => <span className="font-medium">{platformLabel(c.platform)}</span>,
    },
    {
      key: 'value',
      header: 'Kontak',
      cell: (c) => <span className="wrap-anywhere">{c.value}</span>,
    },
    {
      key: 'status',
      header: 'Status',
      cell: (c) =>
        c.is_active ? (
          <Badge variant="success">Aktif</Badge>
        ) : (
          <Badge variant="secondary">Nonaktif</Badge>
        ),
    },
    {
      key: 'created',
      header: 'Tanggal Ditambah',
      cell: (c) => formatDate(c.created_at),
      className: 'whitespace-nowrap',
    },
    {
      key: 'actions',
      header: 'Aksi',
      className: 'w-28 text-right',
      cell: (c) => (
        <RowEditActions
          editLabel={`Edit kontak ${platformLabel(c.platform)} ${c.value}`}
          deleteLabel={`Hapus kontak ${platformLabel(c.platform)} ${c.value}`}
          onEdit={() => onEdit(c)}
          onDelete={() => void onDelete(c)}
          deleting={deleting}
        />
      ),
    },
  ];
}

type ContactFormApi = UseFormReturn<ContactForm, unknown, ContactInput>;

function PlatformField({ form }: { form: ContactFormApi }) {
  const error = form.formState.errors.platform?.message;
  return (
    <Field id="contact-platform" label="Platform" error={error} required>
      <Controller
        control={form.control}
        name="platform"
        render={({ field }) => (
          <Select value={field.value} onValueChange={field.onChange}>
            <SelectTrigger
              id="contact-platform"
              ref={field.ref}
              onBlur={field.onBlur}
              aria-invalid={!!error}
              aria-describedby={describedBy('contact-platform', error)}
            >
              <SelectValue placeholder="Pilih platform" />
            </SelectTrigger>
            <SelectContent>
              {CONTACT_PLATFORMS.map((platform) => (
                <SelectItem key={platform} value={platform}>
                  {PLATFORM_LABELS[platform]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        )}
      />
    </Field>
  );
}

function ContactFields({ form }: { form: ContactFormApi }) {
  return (
    <>
      <div className="grid items-start gap-4 md:grid-cols-2">
        <PlatformField form={form} />
        <TextField
          id="contact-value"
          label="Kontak"
          error={form.formState.errors.value?.message}
          required
          placeholder="@username atau nomor/email"
          autoComplete="off"
          {...form.register('value')}
        />
      </div>
      <Controller
        control={form.control}
        name="is_active"
        render={({ field }) => (
          <div className="flex items-center gap-3">
            <Switch id="contact-active" checked={field.value} onCheckedChange={field.onChange} />
            <Label htmlFor="contact-active">Aktif</Label>
          </div>
        )}
      />
    </>
  );
}

export default function AdminContactsPage() {
  const contacts = useAdminContacts();
  const save = useSaveContact();
  const remove = useDeleteContact();
  useLoadErrorToast(contacts, 'Gagal memuat data kontak');
  const addButton = useRef<HTMLButtonElement>(null);
  const editor = useInlineEditor({
    schema: ContactFormSchema,
    empty: EMPTY_FORM,
    toForm,
    firstField: 'platform',
    addButton,
    save: (id, input: ContactInput) => save.mutateAsync({ id, input }),
    remove: (id) => remove.mutateAsync(id),
    messages: {
      added: 'Kontak berhasil ditambahkan',
      updated: 'Kontak berhasil diperbarui',
      addFailed: 'Gagal menambahkan kontak',
      updateFailed: 'Gagal memperbarui kontak',
      confirmDelete: 'Apakah Anda yakin ingin menghapus kontak ini?',
      deleted: 'Kontak berhasil dihapus',
      deleteFailed: 'Gagal menghapus kontak',
    },
  });

  return (
    <div>
      <PageHeader
        title="Manajemen Kontak"
        description="Kelola kontak admin yang ditampilkan kepada klien untuk bantuan dan informasi."
        actions={
          <Button ref={addButton} onClick={editor.openAdd}>
            <Plus aria-hidden />
            Tambah Kontak
          </Button>
        }
      />
      {editor.editing !== null && (
        <InlineEditorCard
          adding={editor.editing === 'new'}
          title={{ add: 'Tambah Kontak Baru', edit: 'Edit Kontak' }}
          label={{ add: 'Tambah kontak', edit: 'Edit kontak' }}
          saving={save.isPending}
          onSubmit={editor.onSubmit}
          onCancel={editor.close}
        >
          <ContactFields form={editor.form} />
        </InlineEditorCard>
      )}
      <DataTable
        stacked
        label="Daftar kontak admin"
        columns={contactColumns(editor.openEdit, (c) => void editor.onDelete(c), remove.isPending)}
        rows={contacts.data}
        rowKey={(c) => c.id}
        loading={contacts.isPending}
        error={contacts.isError}
        errorText="Gagal memuat data kontak"
        onRetry={() => void contacts.refetch()}
        empty={<EmptyState title="Belum ada kontak yang ditambahkan" />}
      />
    </div>
  );
}
