// Dashboard figures of both shells.
import { z } from './zod.ts';

export const AdminDashboardSchema = z.object({
  total_users: z.number(),
  total_blasts: z.number(),
  pending_blasts: z.number(),
  pending_points: z.number(),
});
export type AdminDashboard = z.infer<typeof AdminDashboardSchema>;

export const ClientDashboardSchema = z.object({
  today_blasts: z.number(),
  points_used_today: z.number(),
  points_refunded_today: z.number(),
  total_blasts: z.number(),
  current_points: z.number(),
});
export type ClientDashboard = z.infer<typeof ClientDashboardSchema>;

export const TIME_ZONE = 'Asia/Jakarta';
export const JAKARTA_OFFSET_MS = 7 * 60 * 60 * 1000; // Asia/Jakarta has no daylight saving

/** The UTC instants [start, end) of the Asia/Jakarta day containing `now`. */
export function jakartaDayRange(now: Date): { start: string; end: string } {
  const local = new Date(now.getTime() + JAKARTA_OFFSET_MS);
  const startLocal = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  const start = new Date(startLocal - JAKARTA_OFFSET_MS);
  const end = new Date(start.getTime() + 24 * 60 * 60 * 1000);
  return { start: start.toISOString(), end: end.toISOString() };
}
