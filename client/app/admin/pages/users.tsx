// Akun Klien (/users): client accounts, 5 per page, with create, edit, password and delete.
import {
  Coins,
  KeyRound,
  Pencil,
  ShieldPlus,
  Trash2,
  TrendingUp,
  UserCheck,
  UserPlus,
  Users,
} from 'lucide-react';
import { useState } from 'react';
import type { User } from '#common/auth.ts';
import type { UserPage } from '#common/users.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { ConfirmDialog } from '#client/components/ui/confirm-dialog.tsx';
import type { DataTableColumn } from '#client/components/ui/data-table.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { PagedTable } from '#client/components/ui/paged-table.tsx';
import { StatGrid } from '#client/components/ui/stat-card.tsx';
import { runAction } from '#client/components/ui/toast.ts';
import { useDeleteUser, USERS_PAGE_SIZE, useUsers } from '#client/features/users/api.ts';
import {
  CreateUserDialog,
  EditUserDialog,
  PasswordDialog,
} from '#client/features/users/user-dialogs.tsx';
import { errorMessage } from '#client/lib/api-client.ts';
import { formatDate, formatFigure, formatNumber } from '#client/lib/format.ts';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { useLoadErrorToast } from '#client/app/admin/feedback.ts';
import { compact } from '#client/app/admin/table-cells.tsx';
import { useClampedPage } from '#client/app/admin/use-clamped-page.ts';

interface UserActionHandlers {
  edit: (user: User) => void;
  password: (user: User) => void;
  remove: (user: User) => void;
}

/** Edit, change password and delete, as icon buttons named after the client. */
function UserActions({ user: u, act }: { user: User; act: UserActionHandlers }) {
  return (
    <div className="flex justify-end gap-1">
      <Button
        variant="ghost"
        size="icon-sm"
        aria-label={`Edit klien ${u.username}`}
        title="Edit"
        onClick={() => act.edit(u)}
      >
        <Pencil aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon-sm"
        aria-label={`Ubah password ${u.username}`}
        title="Ubah password"
        onClick={() => act.password(u)}
      >
        <KeyRound aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon-sm"
        className="text-destructive hover:bg-destructive-soft"
        aria-label={`Hapus klien ${u.username}`}
        title="Hapus"
        onClick={() => act.remove(u)}
      >
        <Trash2 aria-hidden />
      </Button>
    </div>
  );
}

function userColumns(act: UserActionHandlers): DataTableColumn<User>[] {
  return [
    {
      key: 'username',
      header: 'Username',
      cell: (u) => (
        <div className="flex items-center gap-3 md:min-w-36">
          <Avatar name={u.username} className="size-8 text-xs" />
          <span className="min-w-0 font-medium [overflow-wrap:anywhere]">{u.username}</span>
        </div>
      ),
    },
    {
      key: 'email',
      header: 'Email',
      cell: (u) => u.email,
      className: 'min-w-44 [overflow-wrap:anywhere]',
    },
    {
      key: 'points',
      header: 'Poin Tersedia',
      cell: (u) => <span className="font-semibold">{formatNumber(u.points)} poin</span>,
      className: 'whitespace-nowrap',
    },
    {
      key: 'status',
      header: 'Status',
      cell: (u) =>
        u.is_active ? (
          <Badge variant="success">Aktif</Badge>
        ) : (
          <Badge variant="secondary">Nonaktif</Badge>
        ),
    },
    {
      key: 'created',
      header: 'Tanggal Daftar',
      cell: (u) => formatDate(u.created_at),
      className: 'whitespace-nowrap',
    },
    {
      key: 'actions',
      header: 'Aksi',
      className: 'w-32 text-right',
      cell: (u) => <UserActions user={u} act={act} />,
    },
  ];
}

function UserStats({ stats }: { stats: UserPage['summary'] | undefined }) {
  return (
    <StatGrid
      label="Ringkasan klien"
      className="mb-6 grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4"
      stats={[
        {
          title: 'Total Klien',
          value: formatFigure(stats?.total_clients),
          icon: Users,
          tone: 'info',
        },
        {
          title: 'Klien Aktif',
          value: formatFigure(stats?.active_clients),
          icon: UserCheck,
          tone: 'primary',
        },
        {
          title: 'Total Poin',
          value: formatFigure(stats?.total_points),
          icon: Coins,
          tone: 'warning',
        },
        {
          title: 'Rata-rata Poin',
          value: formatFigure(stats && Math.round(stats.average_points)),
          icon: TrendingUp,
          tone: 'neutral',
        },
      ]}
    />
  );
}

function DeleteUserDialog(props: {
  user: User | null;
  onClose: () => void;
  onConfirm: () => Promise<void>;
  loading: boolean;
}) {
  const deleting = props.user;
  return (
    <ConfirmDialog
      open={deleting !== null}
      onOpenChange={(open) => !open && props.onClose()}
      title="Hapus Klien"
      description={
        <>
          {`Apakah Anda yakin ingin menghapus klien ${deleting?.username ?? ''}? Semua data termasuk riwayat blast dan transaksi akan dihapus permanen.`}
          <span
            className="mt-3 grid gap-1 rounded-lg bg-muted p-3 text-foreground"
            data-delete-user=""
          >
            <span className="flex flex-wrap gap-x-2">
              <span className="text-muted-foreground">Username:</span>
              <span className="font-medium [overflow-wrap:anywhere]">{deleting?.username}</span>
            </span>
            <span className="flex flex-wrap gap-x-2">
              <span className="text-muted-foreground">Email:</span>
              <span className="wrap-anywhere font-medium">{deleting?.email}</span>
            </span>
          </span>
        </>
      }
      onConfirm={props.onConfirm}
      loading={props.loading}
    />
  );
}

export default function AdminUsersPage() {
  const [page, setPage] = useState(1);
  const users = useUsers(page);
  const remove = useDeleteUser();
  useLoadErrorToast(users, 'Gagal memuat data users');
  useClampedPage(page, setPage, users.data, USERS_PAGE_SIZE);
  const [creating, setCreating] = useState(false);
  const [creatingAdmin, setCreatingAdmin] = useState(false);
  const [editing, setEditing] = useState<User | null>(null);
  const [changingPassword, setChangingPassword] = useState<User | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);

  const onDelete = async () => {
    if (!deleting) return;
    const removed = await runAction(() => remove.mutateAsync(deleting.id), {
      done: `Klien ${deleting.username} berhasil dihapus`,
      failed: (error) => errorMessage(error, 'Gagal hapus user'),
    });
    if (removed) setDeleting(null);
  };

  return (
    <div>
      <PageHeader
        title="Manajemen Akun Klien"
        description="Kelola akun klien, status dan saldo poin mereka."
        actions={
          <>
            <Button onClick={() => setCreating(true)}>
              <UserPlus aria-hidden />
              Tambah Klien Baru
            </Button>
            <Button variant="outline" onClick={() => setCreatingAdmin(true)}>
              <ShieldPlus aria-hidden />
              Tambah Administrator
            </Button>
          </>
        }
      />

      <UserStats stats={users.data?.summary} />

      <PagedTable
        stacked
        label="Daftar akun klien"
        columns={compact(
          userColumns({ edit: setEditing, password: setChangingPassword, remove: setDeleting }),
        )}
        query={users}
        page={page}
        pageSize={USERS_PAGE_SIZE}
        onPageChange={setPage}
        rowKey={(u) => u.id}
        errorText="Gagal memuat data users"
        empty={<EmptyState icon={Users} title="Belum ada klien terdaftar" />}
      />

      <CreateUserDialog open={creating} onOpenChange={setCreating} />
      <CreateUserDialog open={creatingAdmin} onOpenChange={setCreatingAdmin} role="super_admin" />
      {editing && (
        <EditUserDialog key={editing.id} user={editing} onClose={() => setEditing(null)} />
      )}
      {changingPassword && (
        <PasswordDialog
          key={changingPassword.id}
          user={changingPassword}
          onClose={() => setChangingPassword(null)}
        />
      )}
      <DeleteUserDialog
        user={deleting}
        onClose={() => setDeleting(null)}
        onConfirm={onDelete}
        loading={remove.isPending}
      />
    </div>
  );
}
