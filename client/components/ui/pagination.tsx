// Pagination: 'Menampilkan X sampai Y dari Z hasil', previous/next, up to 5 page numbers,
// first/last shortcuts with ellipsis; hidden when there is one page or fewer.
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { cn } from '../../lib/cn.ts';
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

export function Pagination({
  page,
  total,
  pageSize = DEFAULT_PAGE_SIZE,
  onPageChange,
  className,
}: PaginationProps) {
  const totalPages = Math.ceil(total / pageSize);
  if (totalPages <= 1) return null;
  const current = Math.min(Math.max(1, page), totalPages);
  const from = (current - 1) * pageSize + 1;
  const to = Math.min(current * pageSize, total);
  const pages = pageWindow(current, totalPages);
  const first = pages[0]!;
  const last = pages[pages.length - 1]!;

  const pageButton = (number: number) => (
    <li key={number}>
      <Button
        variant={number === current ? 'default' : 'outline'}
        size="icon-sm"
        aria-label={`Halaman ${number}`}
        aria-current={number === current ? 'page' : undefined}
        onClick={() => number !== current && onPageChange(number)}
      >
        {number}
      </Button>
    </li>
  );
  const ellipsis = (key: string) => (
    <li key={key} aria-hidden className="px-1 text-muted-foreground">
      …
    </li>
  );

  return (
    <nav
      aria-label="Navigasi halaman"
      className={cn('flex flex-col items-center justify-between gap-3 py-3 sm:flex-row', className)}
    >
      <p className="text-sm text-muted-foreground" aria-live="polite">
        Menampilkan {from} sampai {to} dari {total} hasil
      </p>
      <ul className="flex flex-wrap items-center justify-center gap-1">
        <li>
          <Button
            variant="outline"
            size="sm"
            aria-label="Halaman sebelumnya"
            disabled={current <= 1}
            onClick={() => onPageChange(current - 1)}
          >
            <ChevronLeft aria-hidden />
            <span className="hidden sm:inline">Sebelumnya</span>
          </Button>
        </li>
        {first > 1 && pageButton(1)}
        {first > 2 && ellipsis('start')}
        {pages.map(pageButton)}
        {last < totalPages - 1 && ellipsis('end')}
        {last < totalPages && pageButton(totalPages)}
        <li>
          <Button
            variant="outline"
            size="sm"
            aria-label="Halaman berikutnya"
            disabled={current >= totalPages}
            onClick={() => onPageChange(current + 1)}
          >
            <span className="hidden sm:inline">Berikutnya</span>
            <ChevronRight aria-hidden />
          </Button>
        </li>
      </ul>
    </nav>
  );
}
