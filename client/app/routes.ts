// The route tables of both shells (path, label, icon): nav and header titles come from here.
import {
  BarChart3,
  BellOff,
  Coins,
  CreditCard,
  FileText,
  History,
  KeyRound,
  LayoutDashboard,
  MessageSquare,
  NotebookPen,
  Phone,
  RadioTower,
  Receipt,
  Send,
  Settings,
  Tags,
  Users,
  type LucideIcon,
} from 'lucide-react';

export interface RouteEntry<Path extends string = string> {
  path: Path;
  label: string;
  icon: LucideIcon;
}

export const ADMIN_ROUTES = [
  { path: '/', label: 'Dashboard', icon: LayoutDashboard },
  { path: '/contacts', label: 'Kontak', icon: Phone },
  { path: '/notes', label: 'Notepad', icon: NotebookPen },
  { path: '/settings', label: 'Pengaturan', icon: Settings },
  { path: '/delivery', label: 'Pengiriman', icon: RadioTower },
  { path: '/opt-outs', label: 'Berhenti Berlangganan', icon: BellOff },
  { path: '/pricing', label: 'Daftar Harga', icon: Tags },
  { path: '/point-requests', label: 'Form Poin', icon: CreditCard },
  { path: '/blast-results', label: 'Hasil Blast', icon: BarChart3 },
  { path: '/users', label: 'Akun Klien', icon: Users },
  { path: '/password', label: 'Ubah Password', icon: KeyRound },
] as const satisfies readonly RouteEntry[];
export type AdminPath = (typeof ADMIN_ROUTES)[number]['path'];

export const CLIENT_ROUTES = [
  { path: '/', label: 'Dashboard', icon: LayoutDashboard },
  { path: '/blast-form', label: 'Form Blast', icon: Send },
  { path: '/contacts', label: 'Kontak Admin', icon: MessageSquare },
  { path: '/topup', label: 'Top Up Poin', icon: Coins },
  { path: '/blast-results', label: 'Hasil Blast', icon: FileText },
  { path: '/topup-history', label: 'Riwayat Top Up', icon: Receipt },
  { path: '/point-history', label: 'History Poin', icon: History },
  { path: '/password', label: 'Ubah Password', icon: KeyRound },
] as const satisfies readonly RouteEntry[];
export type ClientPath = (typeof CLIENT_ROUTES)[number]['path'];

/** The header title for a path: the route's label, Dashboard when the path is unknown. */
export function titleFor(routes: readonly RouteEntry[], pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return routes.find((route) => route.path === path)?.label ?? 'Dashboard';
}
