// The client-account dialogs of the Akun Klien screen: create, edit and change password.
import { zodResolver } from '@hookform/resolvers/zod';
import { LockOpen } from 'lucide-react';
import { Controller, useForm, type UseFormReturn } from 'react-hook-form';
import type { Role, User } from '#common/auth.ts';
import {
  ChangePasswordSchema,
  CreateUserSchema,
  UpdateUserSchema,
  type ChangePassword,
  type CreateUser,
  type UpdateUser,
} from '#common/users.ts';
import { z } from '#common/zod.ts';
import { Button } from '#client/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#client/components/ui/dialog.tsx';
import { Label } from '#client/components/ui/label.tsx';
import { PasswordField } from '#client/components/ui/password-field.tsx';
import { Switch } from '#client/components/ui/switch.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { runAction } from '#client/components/ui/toast.ts';
import { errorMessage } from '#client/lib/api-client.ts';
import { viaForm } from '#client/lib/form-schema.ts';
import { useChangeUserPassword, useCreateUser, useLiftSignInBlock, useUpdateUser } from './api.ts';

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

interface CreateDialogProps extends DialogProps {
  /** client: 'Tambah Klien Baru' (SPEC); super_admin: another administrator. */
  role?: Role;
}

type CreateForm = z.input<typeof CreateUserSchema>;

export function CreateUserDialog({ open, onOpenChange, role = 'client' }: CreateDialogProps) {
  const create = useCreateUser();
  const admin = role === 'super_admin';
  const form = useForm<CreateForm, unknown, CreateUser>({
    resolver: zodResolver(CreateUserSchema),
    defaultValues: { username: '', email: '', password: '', role },
  });
  const close = (next: boolean) => {
    if (create.isPending) return;
    if (!next) form.reset();
    onOpenChange(next);
  };

  const onSubmit = form.handleSubmit(async (input) => {
    const created = await runAction(() => create.mutateAsync({ ...input, role }), {
      done: admin
        ? `Super administrator ${input.username} berhasil ditambahkan`
        : 'Klien baru berhasil ditambahkan',
      failed: (error) => errorMessage(error, 'Gagal membuat user'),
    });
    if (!created) return;
    form.reset();
    onOpenChange(false);
  });

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{admin ? 'Tambah Super Administrator' : 'Tambah Klien Baru'}</DialogTitle>
          <DialogDescription>
            {admin
              ? 'Administrator baru masuk ke panel admin dengan email dan password ini, dengan hak yang sama seperti Anda. Administrator tidak tampil di daftar klien.'
              : 'Buat akun klien baru. Klien masuk dengan email dan password ini.'}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <CreateUserFields form={form} admin={admin} />
          <DialogFooter>
            <Button variant="outline" onClick={() => close(false)} disabled={create.isPending}>
              Batal
            </Button>
            <Button type="submit" loading={create.isPending}>
              {admin ? 'Tambah Administrator' : 'Tambah Klien'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

// Points are typed as text; anything that is not a number becomes 0 (SPEC), then the shared
// schema checks it is a whole number of at least 0.
const EditFormSchema = viaForm(
  z
    .object({ username: z.string(), email: z.string(), points: z.string(), is_active: z.boolean() })
    .transform((form) => {
      const points = Number(form.points.trim());
      return { ...form, points: Number.isNaN(points) ? 0 : points };
    }),
  UpdateUserSchema,
);
type EditForm = z.input<typeof EditFormSchema>;

export function EditUserDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const update = useUpdateUser();
  const form = useForm<EditForm, unknown, UpdateUser>({
    resolver: zodResolver(EditFormSchema),
    defaultValues: {
      username: user.username,
      email: user.email,
      points: String(user.points),
      is_active: user.is_active,
    },
  });

  const onSubmit = form.handleSubmit(async (input) => {
    const updated = await runAction(
      () => update.mutateAsync({ id: user.id, input: { ...input, expected_points: user.points } }),
      {
        done: 'Data klien berhasil diperbarui',
        failed: (error) => errorMessage(error, 'Gagal update user'),
      },
    );
    if (updated) onClose();
  });

  return (
    <Dialog open onOpenChange={(next) => !next && !update.isPending && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit Klien</DialogTitle>
          <DialogDescription>Ubah data akun {user.username}.</DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <EditUserFields form={form} />
          <DialogFooter>
            <Button variant="outline" onClick={onClose} disabled={update.isPending}>
              Batal
            </Button>
            <Button type="submit" loading={update.isPending}>
              Simpan Perubahan
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

const PASSWORD_HINT = 'Minimum 6 karakter. Password akan langsung aktif setelah disimpan.';

export function PasswordDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const change = useChangeUserPassword();
  const form = useForm<ChangePassword>({
    resolver: zodResolver(ChangePasswordSchema),
    defaultValues: { new_password: '' },
  });
  const error = form.formState.errors.new_password?.message;

  const onSubmit = form.handleSubmit(async (input) => {
    const changed = await runAction(() => change.mutateAsync({ id: user.id, input }), {
      done: 'Password klien berhasil diperbarui',
      failed: (error) => errorMessage(error, 'Gagal update password'),
    });
    if (!changed) return;
    form.reset({ new_password: '' });
    onClose();
  });

  return (
    <Dialog open onOpenChange={(next) => !next && !change.isPending && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Ubah Password Klien</DialogTitle>
          <DialogDescription>Atur password baru untuk akun klien ini.</DialogDescription>
        </DialogHeader>
        <UserSummary user={user} />
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <PasswordField
            id="new-client-password"
            label="Password Baru"
            autoComplete="new-password"
            required
            error={error}
            hint={PASSWORD_HINT}
            {...form.register('new_password')}
          />
          <DialogFooter>
            <Button variant="outline" onClick={onClose} disabled={change.isPending}>
              Batal
            </Button>
            <Button type="submit" loading={change.isPending}>
              Simpan Password
            </Button>
          </DialogFooter>
        </form>
        <SignInBlock userId={user.id} />
      </DialogContent>
    </Dialog>
  );
}

/** Username, email and password of a new account. */
function CreateUserFields({
  form,
  admin,
}: {
  form: UseFormReturn<CreateForm, unknown, CreateUser>;
  admin: boolean;
}) {
  const { errors } = form.formState;
  return (
    <>
      <TextField
        id="new-username"
        label="Username"
        error={errors.username?.message}
        required
        autoComplete="off"
        placeholder={admin ? 'Nama pengguna administrator' : 'Nama pengguna klien'}
        {...form.register('username')}
      />
      <TextField
        id="new-email"
        label="Email"
        error={errors.email?.message}
        required
        type="email"
        autoComplete="off"
        placeholder={admin ? 'admin@contoh.com' : 'klien@contoh.com'}
        {...form.register('email')}
      />
      <PasswordField
        id="new-password"
        label="Password"
        error={errors.password?.message}
        required
        autoComplete="new-password"
        placeholder="Minimal 6 karakter"
        {...form.register('password')}
      />
    </>
  );
}

const POINTS_HINT = 'Perubahan poin dicatat di riwayat poin klien sebagai penyesuaian admin.';

/** Username, email, points and the active switch of an account. */
function EditUserFields({ form }: { form: UseFormReturn<EditForm, unknown, UpdateUser> }) {
  const { errors } = form.formState;
  return (
    <>
      <TextField
        id="edit-username"
        label="Username"
        error={errors.username?.message}
        required
        autoComplete="off"
        {...form.register('username')}
      />
      <TextField
        id="edit-email"
        label="Email"
        error={errors.email?.message}
        required
        type="email"
        autoComplete="off"
        {...form.register('email')}
      />
      <TextField
        id="edit-points"
        label="Poin"
        error={errors.points?.message}
        hint={POINTS_HINT}
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        {...form.register('points')}
      />
      <Controller
        control={form.control}
        name="is_active"
        render={({ field }) => (
          <div className="flex items-center gap-3">
            <Switch id="edit-active" checked={field.value} onCheckedChange={field.onChange} />
            <Label htmlFor="edit-active">Akun Aktif</Label>
          </div>
        )}
      />
    </>
  );
}

/** Whose password is being set. */
function UserSummary({ user }: { user: User }) {
  return (
    <dl className="grid gap-2 rounded-lg bg-muted p-3 text-sm" data-password-user="">
      <div className="flex flex-wrap gap-x-2">
        <dt className="text-muted-foreground">Username:</dt>
        <dd className="font-medium [overflow-wrap:anywhere]">{user.username}</dd>
      </div>
      <div className="flex flex-wrap gap-x-2">
        <dt className="text-muted-foreground">Email:</dt>
        <dd className="wrap-anywhere font-medium">{user.email}</dd>
      </div>
    </dl>
  );
}

/** Ends the wait a client gets after several wrong passwords. */
function SignInBlock({ userId }: { userId: User['id'] }) {
  const lift = useLiftSignInBlock();
  const onLift = () =>
    runAction(() => lift.mutateAsync(userId), {
      done: (answer) => answer.detail,
      failed: (error) => errorMessage(error, 'Gagal membuka blokir masuk'),
    });
  return (
    <div className="grid gap-2 rounded-lg border p-3 text-sm" data-sign-in-block="">
      <p className="text-muted-foreground">
        Setelah beberapa kali salah password, klien harus menunggu sebelum mencoba lagi dari
        perangkat yang sama. Password baru atau tombol ini mengakhiri waktu tunggu itu.
      </p>
      <div>
        <Button type="button" variant="outline" size="sm" onClick={onLift} loading={lift.isPending}>
          <LockOpen aria-hidden />
          Buka Blokir Masuk
        </Button>
      </div>
    </div>
  );
}
