// The frame both shells share: a sidebar (a drawer on phones), a header and the page area.
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { LogOut, Menu, X } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { NavLink, useLocation } from 'react-router';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { cn } from '#client/lib/cn.ts';
import type { RouteEntry } from '#client/app/routes.ts';

export interface ShellLayoutProps {
  /** Accessible name of the sidebar navigation. */
  navLabel: string;
  routes: readonly RouteEntry[];
  /** Shown at the top of the sidebar (brand, balance ...). */
  sidebarTop: ReactNode;
  /** Shown at the bottom of the sidebar (user and Keluar). */
  sidebarBottom: ReactNode;
  title: string;
  /** The header's right side. */
  headerEnd: ReactNode;
  children: ReactNode;
}

export function ShellLayout({
  navLabel,
  routes,
  sidebarTop,
  sidebarBottom,
  title,
  headerEnd,
  children,
}: ShellLayoutProps) {
  const menu = usePhoneMenu();
  const menuToggle = useRef<HTMLButtonElement>(null);
  const main = useRef<HTMLElement>(null);
  useDocumentTitle(title);
  useScrollToTopOnNewScreen(menu.pathname);

  const sidebar = (
    <div className="flex h-full flex-col gap-4 p-4">
      {sidebarTop}
      <SidebarNav navLabel={navLabel} routes={routes} />
      {sidebarBottom}
    </div>
  );

  return (
    <div className="flex min-h-screen bg-background text-foreground">
      <SkipLink />
      <aside className="sticky top-0 hidden h-screen w-64 shrink-0 border-r bg-sidebar lg:block">
        {sidebar}
      </aside>
      <PhoneMenu menu={menu} focusAfterClose={{ main, toggle: menuToggle }}>
        {sidebar}
      </PhoneMenu>

      <div className="flex min-w-0 flex-1 flex-col">
        <ShellHeader menu={menu} toggleRef={menuToggle} title={title} headerEnd={headerEnd} />
        <main
          id="main"
          ref={main}
          tabIndex={-1}
          className="w-full max-w-7xl flex-1 p-4 focus:outline-none sm:p-6 lg:p-8"
        >
          {children}
        </main>
      </div>
    </div>
  );
}

type PhoneMenuState = ReturnType<typeof usePhoneMenu>;

/** The phone menu's open state and where focus goes when it closes. */
function usePhoneMenu() {
  const [open, setOpen] = useState(false);
  // Where focus goes when the phone menu closes: back to its toggle, or after choosing a screen
  // to the new page (the keyboard user starts there, as after a page load).
  const [focusAfter, setFocusAfter] = useState<'toggle' | 'main'>('toggle');
  const { pathname } = useLocation();
  // A route change closes the phone menu (compared during render, no effect needed).
  const [lastPath, setLastPath] = useState(pathname);
  if (lastPath !== pathname) {
    setLastPath(pathname);
    if (open) {
      setOpen(false);
      setFocusAfter('main');
    }
  }
  const openFromToggle = () => {
    setFocusAfter('toggle');
    setOpen(true);
  };
  return { open, setOpen, focusAfter, pathname, openFromToggle };
}

/** The links to the shell's screens; the current one is highlighted. */
function SidebarNav({ navLabel, routes }: { navLabel: string; routes: readonly RouteEntry[] }) {
  return (
    <nav aria-label={navLabel} className="flex-1 overflow-y-auto">
      <ul className="grid gap-1">
        {routes.map(({ path, label, icon: Icon }) => (
          <li key={path}>
            <NavLink
              to={path}
              end
              className={({ isActive }) =>
                cn(
                  'flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                  isActive
                    ? 'bg-primary text-primary-foreground shadow-sm'
                    : 'text-muted-foreground hover:bg-muted hover:text-foreground',
                )
              }
            >
              <Icon aria-hidden className="size-4 shrink-0" />
              {label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The sidebar as a drawer on phones and tablets. */
function PhoneMenu({
  menu,
  focusAfterClose,
  children,
}: {
  menu: PhoneMenuState;
  focusAfterClose: Record<'main' | 'toggle', RefObject<HTMLElement | null>>;
  children: ReactNode;
}) {
  return (
    <DialogPrimitive.Root open={menu.open} onOpenChange={menu.setOpen}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-black/50 lg:hidden" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            // Without preventScroll the browser scrolls the page area's top to the window's top,
            // under the sticky header, hiding the new page's title.
            focusAfterClose[menu.focusAfter].current?.focus({
              preventScroll: true,
            });
          }}
          className="fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] border-r bg-sidebar shadow-xl focus:outline-none lg:hidden"
        >
          <DialogPrimitive.Title className="sr-only">Menu navigasi</DialogPrimitive.Title>
          <DialogPrimitive.Close
            aria-label="Tutup menu"
            className="absolute right-3 top-3 rounded-md p-1.5 text-muted-foreground hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <X aria-hidden className="size-4" />
          </DialogPrimitive.Close>
          {children}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

/** The sticky header: the phone menu's toggle, the screen's title and the right side. */
function ShellHeader({
  menu,
  toggleRef,
  title,
  headerEnd,
}: {
  menu: PhoneMenuState;
  toggleRef: RefObject<HTMLButtonElement | null>;
  title: string;
  headerEnd: ReactNode;
}) {
  return (
    <header className="sticky top-0 z-30 flex h-(--shell-header-height) items-center gap-2 border-b bg-card/95 px-3 backdrop-blur sm:gap-3 sm:px-6">
      <Button
        variant="ghost"
        size="icon"
        className="-ml-2 max-sm:size-9 lg:hidden"
        aria-label="Buka menu"
        aria-expanded={menu.open}
        aria-haspopup="dialog"
        ref={toggleRef}
        onClick={menu.openFromToggle}
      >
        <Menu aria-hidden />
      </Button>
      <p
        className="line-clamp-2 min-w-0 max-w-[45%] shrink-0 text-base leading-tight font-semibold sm:max-w-none sm:text-lg"
        data-shell-title=""
      >
        {title}
      </p>
      {/* The title keeps its words (a long one takes two lines on a phone); the user's name gives
          way first (truncated). */}
      <div className="ml-auto flex min-w-0 items-center gap-1.5 sm:gap-3">{headerEnd}</div>
    </header>
  );
}

/** 'Dashboard · Sebar': each screen names itself in the tab and to screen readers. */
function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · Sebar`;
  }, [title]);
}

/** A new screen starts at its top, as after a page load, not where the last one was scrolled to. */
function useScrollToTopOnNewScreen(pathname: string) {
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
}

/** The first stop of the Tab key: jumps over the navigation to the page itself. */
function SkipLink() {
  return (
    <a
      href="#main"
      onClick={(event) => {
        event.preventDefault();
        document.getElementById('main')?.focus();
      }}
      className="sr-only z-[60] rounded-md bg-primary px-4 py-2 text-sm font-semibold text-primary-foreground shadow-lg focus:not-sr-only focus:fixed focus:left-3 focus:top-3 focus:outline-none focus:ring-2 focus:ring-ring focus:ring-offset-2"
    >
      Langsung ke konten utama
    </a>
  );
}

/** The sidebar's foot: who is signed in, in which role, and 'Keluar'. A long name is cut short. */
export function SidebarAccount({
  username,
  role,
  onSignOut,
}: {
  username: string;
  role: string;
  onSignOut: () => void;
}) {
  return (
    <div className="grid grid-cols-1 gap-3 border-t pt-4">
      <div className="flex min-w-0 items-center gap-3 px-1">
        <Avatar name={username} />
        <div className="min-w-0">
          <p className="truncate text-sm font-semibold" title={username}>
            {username}
          </p>
          <p className="text-xs text-muted-foreground">{role}</p>
        </div>
      </div>
      <Button variant="outline" className="w-full justify-start" onClick={onSignOut}>
        <LogOut aria-hidden />
        Keluar
      </Button>
    </div>
  );
}

export { Brand } from './brand.tsx';
