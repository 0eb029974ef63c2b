// The page envelope of every server-paginated list.
import { z } from './zod.ts';

export const MAX_PAGE_SIZE = 100;

export const PageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(5),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

export function pageSchema<Item extends z.ZodType, Summary extends z.ZodType>(
  item: Item,
  summary: Summary,
) {
  return z.object({
    items: z.array(item),
    total: z.number(),
    page: z.number(),
    page_size: z.number(),
    summary,
  });
}

export interface Page<Item, Summary> {
  items: Item[];
  total: number;
  page: number;
  page_size: number;
  summary: Summary;
}
