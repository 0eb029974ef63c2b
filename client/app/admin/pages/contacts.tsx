// Kontak (/contacts): the admin's contacts shown to clients, with an inline add/edit form.
import { zodResolver } from '@hookform/resolvers/zod';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import {
  CONTACT_PLATFORMS,
  ContactInputSchema,
  type Contact,
  type ContactInput,
} from '../../../../common/contacts.ts';
import { z } from '../../../../common/zod.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { describedBy, Field, Label } from '../../../components/ui/label.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '../../../components/ui/select.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { toastError, toastSuccess } from '../../../components/ui/toast.ts';
import {
  useAdminContacts,
  useDeleteContact,
  useSaveContact,
} from '../../../features/contacts/admin-api.ts';
import { formatDate } from '../../../lib/format.ts';
import { failureText } from '../../../lib/api-client.ts';
import { useLoadErrorToast } from '../feedback.ts';
import { viaForm } from '../../../lib/form-schema.ts';

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

export default function AdminContactsPage() {
  const contacts = useAdminContacts();
  const save = useSaveContact();
  const remove = useDeleteContact();
  useLoadErrorToast(contacts, 'Gagal memuat data kontak');
  /** null: form hidden; 'new': adding; a contact: editing it. */
  const [editing, setEditing] = useState<Contact | 'new' | null>(null);
  const form = useForm<ContactForm, unknown, ContactInput>({
    resolver: zodResolver(ContactFormSchema),
    defaultValues: EMPTY_FORM,
  });
  const { errors } = form.formState;
  const addButton = useRef<HTMLButtonElement>(null);

  // Keyboard users land in the form when it opens, and back on the add button when it closes.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (editing !== null) form.setFocus('platform');
    else if (wasOpen.current) addButton.current?.focus();
    wasOpen.current = editing !== null;
  }, [editing, form]);

  const closeForm = () => {
    setEditing(null);
    form.reset(EMPTY_FORM);
  };
  const openAdd = () => {
    form.reset(EMPTY_FORM);
    setEditing('new');
  };
  const openEdit = (contact: Contact) => {
    form.reset({ platform: contact.platform, value: contact.value, is_active: contact.is_active });
    setEditing(contact);
  };

  const onSubmit = form.handleSubmit(async (input) => {
    const id = editing && editing !== 'new' ? editing.id : undefined;
    try {
      await save.mutateAsync({ id, input });
      toastSuccess(id ? 'Kontak berhasil diperbarui' : 'Kontak berhasil ditambahkan');
      closeForm();
    } catch (error) {
      toastError(failureText(error, id ? 'Gagal memperbarui kontak' : 'Gagal menambahkan kontak'));
    }
  });

  const onDelete = async (contact: Contact) => {
    if (!window.confirm('Apakah Anda yakin ingin menghapus kontak ini?')) return;
    try {
      await remove.mutateAsync(contact.id);
      toastSuccess('Kontak berhasil dihapus');
      if (editing !== 'new' && editing?.id === contact.id) closeForm();
    } catch (error) {
      toastError(failureText(error, 'Gagal menghapus kontak'));
    }
  };

  const columns: DataTableColumn<Contact>[] = [
    {
      key: 'platform',
      header: 'Platform',
      cell: (c) => <span className="font-medium">{platformLabel(c.platform)}</span>,
    },
    { key: 'value', header: 'Kontak', cell: (c) => <span className="break-all">{c.value}</span> },
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
        <div className="flex justify-end gap-1">
          <Button
            variant="ghost"
            size="icon-sm"
            aria-label={`Edit kontak ${platformLabel(c.platform)} ${c.value}`}
            onClick={() => openEdit(c)}
          >
            <Pencil aria-hidden />
          </Button>
          <Button
            variant="ghost"
            size="icon-sm"
            className="text-destructive hover:bg-destructive-soft"
            aria-label={`Hapus kontak ${platformLabel(c.platform)} ${c.value}`}
            disabled={remove.isPending}
            onClick={() => onDelete(c)}
          >
            <Trash2 aria-hidden />
          </Button>
        </div>
      ),
    },
  ];

  return (
    <div>
      <PageHeader
        title="Manajemen Kontak"
        description="Kelola kontak admin yang ditampilkan kepada klien untuk bantuan dan informasi."
        actions={
          <Button ref={addButton} onClick={openAdd}>
            <Plus aria-hidden />
            Tambah Kontak
          </Button>
        }
      />

      {editing !== null && (
        <Card className="mb-6">
          <CardHeader>
            <CardTitle>{editing === 'new' ? 'Tambah Kontak Baru' : 'Edit Kontak'}</CardTitle>
          </CardHeader>
          <CardContent>
            <form
              onSubmit={onSubmit}
              noValidate
              aria-label={editing === 'new' ? 'Tambah kontak' : 'Edit kontak'}
              className="grid gap-4"
            >
              <div className="grid items-start gap-4 md:grid-cols-2">
                <Field
                  id="contact-platform"
                  label="Platform"
                  error={errors.platform?.message}
                  required
                >
                  <Controller
                    control={form.control}
                    name="platform"
                    render={({ field }) => (
                      <Select value={field.value} onValueChange={field.onChange}>
                        <SelectTrigger
                          id="contact-platform"
                          ref={field.ref}
                          onBlur={field.onBlur}
                          aria-invalid={!!errors.platform}
                          aria-describedby={describedBy(
                            'contact-platform',
                            errors.platform?.message,
                          )}
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
                <Field id="contact-value" label="Kontak" error={errors.value?.message} required>
                  <Input
                    id="contact-value"
                    placeholder="@username atau nomor/email"
                    autoComplete="off"
                    aria-invalid={!!errors.value}
                    aria-describedby={describedBy('contact-value', errors.value?.message)}
                    {...form.register('value')}
                  />
                </Field>
              </div>
              <Controller
                control={form.control}
                name="is_active"
                render={({ field }) => (
                  <div className="flex items-center gap-3">
                    <Switch
                      id="contact-active"
                      checked={field.value}
                      onCheckedChange={field.onChange}
                    />
                    <Label htmlFor="contact-active">Aktif</Label>
                  </div>
                )}
              />
              <div className="flex flex-col-reverse gap-2 sm:flex-row">
                <Button type="submit" loading={save.isPending}>
                  {editing === 'new' ? 'Simpan' : 'Perbarui'}
                </Button>
                <Button variant="outline" onClick={closeForm} disabled={save.isPending}>
                  Batal
                </Button>
              </div>
            </form>
          </CardContent>
        </Card>
      )}

      <DataTable
        stacked
        label="Daftar kontak admin"
        columns={columns}
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
