// Pagination: 'Menampilkan X sampai Y dari Z hasil', previous/next, up to 5 page numbers,
// first/last shortcuts with ellipsis; hidden when there is one page or fewer.
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { cn } from '#client/lib/cn.ts';
import { Button } from './button.tsx';

export const DEFAULT_PAGE_SIZE = 15;
export const PAGE_WINDOW = 5;

export interface PaginationProps {
  /** 1-based current page. */
  page: number;
  total: number;
  pageSize?: number;
  onPageChange: (page: number) => void;
  className?: string;
}

/** The page numbers to show: a window of up to 5 around the current page. */
export function pageWindow(page: number, totalPages: number, size = PAGE_WINDOW): number[] {
  const count = Math.min(size, totalPages);
  let start = Math.max(1, page - Math.floor(count / 2));
  start = Math.min(start, totalPages - count + 1);
  return Array.from({ length: count }, (_, index) => start + index);
}

/**
 * The pager's items: the window's pages, with the first and last page and an ellipsis where pages
 * are left out. One keyed list: a number keeps its button (and the focus) as the window moves, e.g.
 * the last page's shortcut, pressed, joins the window.
 */
function pagerItems(pages: number[], totalPages: number): (number | 'start' | 'end')[] {
  const first = pages[0]!;
  const last = pages[pages.length - 1]!;
  return [
    ...(first > 1 ? [1] : []),
    ...(first > 2 ? (['start'] as const) : []),
    ...pages,
    ...(last < totalPages - 1 ? (['end'] as const) : []),
    ...(last < totalPages ? [totalPages] : []),
  ];
}

/**
 * The new page's rows move the pager: the button the keyboard pressed in it (the ref's element) is
 * brought back into view when the page shown changes.
 */
function useFocusInView(page: number) {
  const nav = useRef<HTMLElement>(null);
  useEffect(() => {
    const focused = document.activeElement;
    if (focused instanceof HTMLElement && nav.current?.contains(focused))
      focused.scrollIntoView({ block: 'nearest' });
  }, [page]);
  return nav;
}

export function Pagination({
  page,
  total,
  pageSize = DEFAULT_PAGE_SIZE,
  onPageChange,
  className,
}: PaginationProps) {
  const totalPages = Math.ceil(total / pageSize);
  const current = Math.min(Math.max(1, page), totalPages);
  const nav = useFocusInView(current);
  if (totalPages <= 1) return null;
  const from = (current - 1) * pageSize + 1;
  const to = Math.min(current * pageSize, total);
  const pages = pageWindow(current, totalPages);
  const items = pagerItems(pages, totalPages);
  const pageItem = (item: number | 'start' | 'end') =>
    typeof item === 'number' ? (
      <li key={item}>
        <Button
          variant={item === current ? 'default' : 'outline'}
          size="icon-sm"
          aria-label={`Halaman ${item}`}
          aria-current={item === current ? 'page' : undefined}
          onClick={() => item !== current && onPageChange(item)}
        >
          {item}
        </Button>
      </li>
    ) : (
      <li key={item} aria-hidden className="px-1 text-muted-foreground">
        …
      </li>
    );

  return (
    <nav
      ref={nav}
      aria-label="Navigasi halaman"
      className={cn('flex flex-col items-center justify-between gap-3 py-3 sm:flex-row', className)}
    >
      {/* Spoken whole on every change, not only the figures that changed. */}
      <p className="text-sm text-muted-foreground" role="status" aria-atomic="true">
        {`Menampilkan ${from} sampai ${to} dari ${total} hasil`}
      </p>
      <ul className="flex flex-wrap items-center justify-center gap-1">
        <li>
          <StepButton
            label="Halaman sebelumnya"
            unavailable={current <= 1}
            onClick={() => onPageChange(current - 1)}
          >
            <ChevronLeft aria-hidden />
            <span className="hidden sm:inline">Sebelumnya</span>
          </StepButton>
        </li>
        {items.map(pageItem)}
        <li>
          <StepButton
            label="Halaman berikutnya"
            unavailable={current >= totalPages}
            onClick={() => onPageChange(current + 1)}
          >
            <span className="hidden sm:inline">Berikutnya</span>
            <ChevronRight aria-hidden />
          </StepButton>
        </li>
      </ul>
    </nav>
  );
}

/**
 * Previous or next. On the first or last page it is marked unavailable (aria-disabled) and does
 * nothing, but stays focusable: a disabled button would drop the keyboard's focus to the page body
 * right after taking the user there.
 */
function StepButton({
  label,
  unavailable,
  onClick,
  children,
}: {
  label: string;
  unavailable: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button
      variant="outline"
      size="sm"
      aria-label={label}
      aria-disabled={unavailable || undefined}
      className="aria-disabled:pointer-events-none aria-disabled:opacity-60"
      onClick={() => !unavailable && onClick()}
    >
      {children}
    </Button>
  );
}
