// Daftar Harga (/pricing): the price tiers clients top up against, with an inline add/edit form.
import { zodResolver } from '@hookform/resolvers/zod';
import { Info, Pencil, Plus, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  computePrice,
  exampleTotal,
  PricingTierInputSchema,
  type PricingTier,
  type PricingTierInput,
} from '../../../../common/pricing.ts';
import { z } from '../../../../common/zod.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { describedBy, Field } from '../../../components/ui/label.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { toastError, toastSuccess } from '../../../components/ui/toast.ts';
import {
  useAdminPricing,
  useDeleteTier,
  useSaveTier,
} from '../../../features/pricing/admin-api.ts';
import { formatDate, formatNumber, formatRupiah } from '../../../lib/format.ts';
import { failureText } from '../../../lib/api-client.ts';
import { useLoadErrorToast } from '../feedback.ts';
import { toNumber, viaForm } from '../../../lib/form-schema.ts';

/** The worked example SPEC asks the form to show. */
const EXAMPLE = { min_points: 1, max_points: 100, price_per_point: 600 };

// A price may have decimals (SPEC: decimal, IDR); whole prices show like every other amount.
const priceFormat = new Intl.NumberFormat('id-ID', {
  style: 'currency',
  currency: 'IDR',
  minimumFractionDigits: 0,
  maximumFractionDigits: 2,
});
const formatPrice = (value: number) => priceFormat.format(value).replace(/\s/g, '');

const required = (message: string) => z.string().trim().min(1, message);
const TierFormSchema = viaForm(
  z
    .object({
      tier_name: required('Nama tier harus diisi'),
      min_points: required('Minimum poin harus diisi'),
      max_points: required('Maksimum poin harus diisi'),
      price_per_point: required('Harga per poin harus diisi'),
    })
    .transform((form) => ({
      tier_name: form.tier_name,
      min_points: toNumber(form.min_points),
      max_points: toNumber(form.max_points),
      price_per_point: toNumber(form.price_per_point),
    })),
  PricingTierInputSchema,
);
type TierForm = z.input<typeof TierFormSchema>;
const EMPTY_FORM: TierForm = { tier_name: '', min_points: '', max_points: '', price_per_point: '' };

export default function AdminPricingPage() {
  const tiers = useAdminPricing();
  const save = useSaveTier();
  const remove = useDeleteTier();
  useLoadErrorToast(tiers, 'Gagal memuat daftar harga');
  /** null: form hidden; 'new': adding; a tier: editing it. */
  const [editing, setEditing] = useState<PricingTier | 'new' | null>(null);
  const form = useForm<TierForm, unknown, PricingTierInput>({
    resolver: zodResolver(TierFormSchema),
    defaultValues: EMPTY_FORM,
  });
  const { errors } = form.formState;
  const addButton = useRef<HTMLButtonElement>(null);

  // Keyboard users land in the form when it opens, and back on the add button when it closes.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (editing !== null) form.setFocus('tier_name');
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
  const openEdit = (tier: PricingTier) => {
    form.reset({
      tier_name: tier.tier_name,
      min_points: String(tier.min_points),
      max_points: String(tier.max_points),
      price_per_point: String(tier.price_per_point),
    });
    setEditing(tier);
  };

  const onSubmit = form.handleSubmit(async (input) => {
    const id = editing && editing !== 'new' ? editing.id : undefined;
    try {
      await save.mutateAsync({ id, input });
      toastSuccess(id ? 'Tier harga berhasil diperbarui' : 'Tier harga berhasil ditambahkan');
      closeForm();
    } catch (error) {
      toastError(
        failureText(error, id ? 'Gagal memperbarui tier harga' : 'Gagal menambahkan tier harga'),
      );
    }
  });

  const onDelete = async (tier: PricingTier) => {
    if (!window.confirm('Apakah Anda yakin ingin menghapus tier harga ini?')) return;
    try {
      await remove.mutateAsync(tier.id);
      toastSuccess('Tier harga berhasil dihapus');
      if (editing !== 'new' && editing?.id === tier.id) closeForm();
    } catch (error) {
      toastError(failureText(error, 'Gagal menghapus tier harga'));
    }
  };

  const columns: DataTableColumn<PricingTier>[] = [
    {
      key: 'name',
      header: 'Nama Tier',
      cell: (t) => <span className="font-medium">{t.tier_name}</span>,
    },
    {
      key: 'range',
      header: 'Range Poin',
      cell: (t) => `${formatNumber(t.min_points)} - ${formatNumber(t.max_points)} poin`,
      className: 'whitespace-nowrap',
    },
    {
      key: 'price',
      header: 'Harga Per Poin',
      cell: (t) => formatPrice(t.price_per_point),
      className: 'whitespace-nowrap',
    },
    {
      key: 'example',
      header: 'Contoh Total',
      cell: (t) => (
        <span>
          <span className="font-medium">{formatRupiah(exampleTotal(t))}</span>
          <span className="block text-xs text-muted-foreground">
            {formatNumber(t.max_points)} poin
          </span>
        </span>
      ),
      className: 'whitespace-nowrap',
    },
    {
      key: 'created',
      header: 'Tanggal Dibuat',
      cell: (t) => formatDate(t.created_at),
      className: 'whitespace-nowrap',
    },
    {
      key: 'actions',
      header: 'Aksi',
      className: 'w-28 text-right',
      cell: (t) => (
        <div className="flex justify-end gap-1">
          <Button
            variant="ghost"
            size="icon-sm"
            aria-label={`Edit tier ${t.tier_name}`}
            onClick={() => openEdit(t)}
          >
            <Pencil aria-hidden />
          </Button>
          <Button
            variant="ghost"
            size="icon-sm"
            className="text-destructive hover:bg-destructive-soft"
            aria-label={`Hapus tier ${t.tier_name}`}
            disabled={remove.isPending}
            onClick={() => onDelete(t)}
          >
            <Trash2 aria-hidden />
          </Button>
        </div>
      ),
    },
  ];

  const numberField = (
    name: 'min_points' | 'max_points' | 'price_per_point',
    label: string,
    placeholder: string,
    step: string,
    min: string,
  ) => {
    const id = `tier-${name.replaceAll('_', '-')}`;
    const error = errors[name]?.message;
    return (
      <Field id={id} label={label} error={error} required>
        <Input
          id={id}
          type="number"
          inputMode={step === '1' ? 'numeric' : 'decimal'}
          min={min}
          step={step}
          placeholder={placeholder}
          aria-invalid={!!error}
          aria-describedby={describedBy(id, error)}
          {...form.register(name)}
        />
      </Field>
    );
  };

  return (
    <div>
      <PageHeader
        title="Daftar Harga Poin"
        description="Atur tier harga per poin yang dipakai untuk menghitung harga top-up klien."
        actions={
          <Button ref={addButton} onClick={openAdd}>
            <Plus aria-hidden />
            Tambah Tier Harga
          </Button>
        }
      />

      {editing !== null && (
        <Card className="mb-6">
          <CardHeader>
            <CardTitle>{editing === 'new' ? 'Tambah Tier Harga' : 'Edit Tier Harga'}</CardTitle>
          </CardHeader>
          <CardContent>
            <form
              onSubmit={onSubmit}
              noValidate
              aria-label={editing === 'new' ? 'Tambah tier harga' : 'Edit tier harga'}
              className="grid gap-4"
            >
              <div className="grid items-start gap-4 md:grid-cols-3">
                <Field
                  className="md:col-span-3"
                  id="tier-name"
                  label="Nama Tier"
                  error={errors.tier_name?.message}
                  required
                >
                  <Input
                    id="tier-name"
                    placeholder="Contoh: Paket Basic"
                    autoComplete="off"
                    aria-invalid={!!errors.tier_name}
                    aria-describedby={describedBy('tier-name', errors.tier_name?.message)}
                    {...form.register('tier_name')}
                  />
                </Field>
                {numberField('min_points', 'Minimum Poin', 'Contoh: 1', '1', '1')}
                {numberField('max_points', 'Maksimum Poin', 'Contoh: 100', '1', '1')}
                {numberField('price_per_point', 'Harga Per Poin (Rp)', 'Contoh: 600', 'any', '0')}
              </div>
              <div
                className="flex items-start gap-3 rounded-lg border border-sky-200 bg-sky-50 p-3 text-sm text-sky-900"
                data-pricing-example=""
              >
                <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
                <p>
                  <span className="font-semibold">Contoh:</span> range {EXAMPLE.min_points}-
                  {EXAMPLE.max_points} poin dengan harga {formatRupiah(EXAMPLE.price_per_point)} per
                  poin: 50 poin = {formatRupiah(computePrice(50, [EXAMPLE]))}, 100 poin ={' '}
                  {formatRupiah(computePrice(100, [EXAMPLE]))}.
                </p>
              </div>
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
        label="Daftar tier harga poin"
        columns={columns}
        rows={tiers.data}
        rowKey={(t) => t.id}
        loading={tiers.isPending}
        error={tiers.isError}
        errorText="Gagal memuat daftar harga"
        onRetry={() => void tiers.refetch()}
        empty={<EmptyState title="Belum ada tier harga yang ditambahkan" />}
      />
    </div>
  );
}
