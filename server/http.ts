// Small schemas that many routes share.
import { z } from '#common/zod.ts';

export const IdParamsSchema = z.object({ id: z.string().max(64) });
export const OkSchema = z.object({ detail: z.string() });
