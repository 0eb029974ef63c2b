// The gateway figures of `npm run bench` (issue 29), called by run.ts after the delivery figures
// on each engine's running server: how many messages a day the engine sustains with N paired
// devices at the default human pacing (a gap of 8-20 s per device), and how fast the server takes
// WAHA's signed `message.ack` webhooks.
//
// A day is compressed: the server runs with SEBAR_DELIVERY_GATEWAY_SECOND_MS (run.ts), so one
// pacing second lasts that many ms, and rates are converted back to a day of pacing seconds.
// The local WAHA (local-apis/waha) runs in this process and posts its acks back to Sebar as WAHA
// does, so the engine applies them while it sends.
import { startLocalWaha } from '#local-apis/waha/server.ts';
import { ackPayload } from '#local-apis/waha/acks.ts';
import { ENVIRONMENT } from '#local-apis/waha/protocol.ts';
import { signBody } from '#local-apis/waha/webhooks.ts';
import { GATEWAY_DEFAULTS } from '#common/delivery.ts';
import type { DeliveryContext } from './delivery.ts';
import { round1 } from './stats.ts';

/** How long one pacing second lasts on the bench's server (run.ts sets it). */
export const GATEWAY_SECOND_MS = 100;
/** The device counts measured. */
const DEVICES = [10, 50];
const WEBHOOK_SECRET = 'bench-waha-webhook-secret';
const DAY_SECONDS = 24 * 60 * 60;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function benchGateway(ctx: DeliveryContext): Promise<void> {
  const { engine, base, adminToken: at, log } = ctx;
  const json = async <T>(method: string, url: string, token: string, body?: unknown) => {
    const answer = await ctx.request(base, method, url, token, body);
    if (answer.status >= 300) {
      throw new Error(`${method} ${url} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    }
    return JSON.parse(answer.body) as T;
  };
  const waha = await startLocalWaha({ ackDelayMs: 50 });
  const blasts: { id: string; token: string }[] = [];
  const sessions: string[] = [];
  try {
    await json('PUT', '/api/admin/delivery', at, {
      mode: 'gateway',
      gateway: {
        provider: 'waha',
        base_url: waha.url,
        api_key: waha.options.apiKey,
        webhook_secret: WEBHOOK_SECRET,
        // The default pacing, all day, with no daily limit: the engine's own capacity.
        min_delay_seconds: GATEWAY_DEFAULTS.min_delay_seconds,
        max_delay_seconds: GATEWAY_DEFAULTS.max_delay_seconds,
        daily_limit_per_device: 1_000_000_000,
        sending_hours: '00:00-24:00',
        check_numbers: true,
      },
    });
    let numbers = 0;
    let sender = 0;
    const queueBlasts = async (count: number) => {
      for (let i = 0; i < count; i += 1) {
        const targets = Array.from(
          { length: 500 },
          () => `62858${String((numbers += 1)).padStart(8, '0')}`,
        );
        const token = ctx.senders[sender++ % ctx.senders.length]!;
        const blast = await json<{ id: string }>('POST', '/api/client/blast-requests', token, {
          target_numbers: targets,
          message: '{Halo|Hai|Selamat siang} kak, promo untuk {nomor} hari ini',
        });
        blasts.push({ id: blast.id, token });
      }
    };

    // The mean gap of the default pacing, in pacing seconds: each device's ideal rate.
    const meanGap = (GATEWAY_DEFAULTS.min_delay_seconds + GATEWAY_DEFAULTS.max_delay_seconds) / 2;
    for (const count of DEVICES) {
      while (sessions.length < count) {
        const session = `bench-${sessions.length + 1}`;
        await json('POST', '/api/admin/delivery/devices', at, { session });
        await waitFor(() => waha.session(session)?.status === 'SCAN_QR_CODE', 10_000);
        waha.pair(session, `62811${String(sessions.length + 1).padStart(8, '0')}`);
        sessions.push(session);
      }
      await waitFor(async () => {
        const list = await json<{ items: { status: string }[] }>(
          'GET',
          '/api/admin/delivery/devices',
          at,
        );
        return list.items.filter((d) => d.status === 'WORKING').length >= count;
      }, 30_000);
      // Enough numbers for the window: the ideal rate over the window, and some over.
      const windowMs = ctx.seconds * 1000;
      const ideal = (count / meanGap) * (windowMs / GATEWAY_SECOND_MS);
      await queueBlasts(Math.ceil((ideal * 1.5 + count * 4) / 500));
      // Past every device's first gap, then a window.
      await sleep(GATEWAY_DEFAULTS.max_delay_seconds * GATEWAY_SECOND_MS * 2);
      const from = Date.now();
      await sleep(windowMs);
      const to = Date.now();
      const sent = waha.sends.filter((s) => s.at >= from && s.at < to).length;
      const pacingSeconds = (to - from) / GATEWAY_SECOND_MS;
      const perDay = Math.round((sent / pacingSeconds) * DAY_SECONDS);
      const idealPerDay = Math.round((count / meanGap) * DAY_SECONDS);
      ctx.record({
        figure: `gateway: messages a day with ${count} devices at the default pacing`,
        engine,
        value: perDay,
        unit: `msg/day (${sent} sends in ${round1(pacingSeconds)} pacing s; one pacing second = ${GATEWAY_SECOND_MS} ms)`,
        baseline: idealPerDay,
        ratio: perDay / idealPerDay,
        target: '- (reported; the pacing allows one send a device every 14 s on average)',
        met: null,
        note: `${count} devices × ${Math.round(idealPerDay / count)} a day each at a gap of ${GATEWAY_DEFAULTS.min_delay_seconds}-${GATEWAY_DEFAULTS.max_delay_seconds} s, all day; the default daily limit (500 a device) and sending hours (12 h) bound a real day far lower`,
      });
      log(`  gateway ${count} devices: ${sent} sends in ${to - from} ms`);
      // What is left is cancelled (refunded) before the next count.
      for (const blast of blasts.splice(0)) {
        await ctx.request(
          base,
          'POST',
          `/api/client/blast-requests/${blast.id}/cancel`,
          blast.token,
        );
      }
    }

    // --- Webhook ingestion: signed message.ack deliveries, each body distinct
    const sends = waha.sends;
    let n = 0;
    const nextBody = () => {
      const i = n++;
      const send = sends[i % sends.length]!;
      return JSON.stringify({
        id: `evt_bench${String(i).padStart(20, '0')}`,
        timestamp: Date.now(),
        event: 'message.ack',
        session: send.session,
        me: null,
        payload: ackPayload(send.id, send.chatId, 1 + (i % 3)),
        engine: 'GOWS',
        environment: ENVIRONMENT,
      });
    };
    const events = await ctx.measured(async () => {
      const result = await ctx.cannon({
        url: `${base}/api/webhooks/waha`,
        duration: ctx.seconds,
        requests: [
          {
            method: 'POST',
            setupRequest: (req) => {
              const body = nextBody();
              return {
                ...req,
                headers: {
                  'content-type': 'application/json',
                  'x-webhook-hmac': signBody(body, WEBHOOK_SECRET),
                  'x-webhook-hmac-algorithm': 'sha512',
                },
                body,
              };
            },
          },
        ],
      });
      if (result.non2xx > 0) throw new Error(`${result.non2xx} WAHA webhooks refused`);
      return Math.round(result.requests.total / result.duration);
    }, ctx.serverPid);
    ctx.record({
      figure: `gateway webhook intake: signed WAHA acks (${ctx.connections} connections)`,
      engine,
      value: events.rate,
      unit: `events/s over ${ctx.seconds} s (each body distinct)`,
      baseline: null,
      ratio: null,
      target: '- (reported)',
      met: null,
      note: `HMAC-SHA512 checked over the raw body and each event committed before the answer. ${events.cpu}`,
    });
  } finally {
    for (const blast of blasts) {
      await ctx.request(base, 'POST', `/api/client/blast-requests/${blast.id}/cancel`, blast.token);
    }
    for (const session of sessions) {
      await ctx.request(base, 'DELETE', `/api/admin/delivery/devices/${session}`, at);
    }
    await json('PUT', '/api/admin/delivery', at, { mode: 'manual' }).catch(() => undefined);
    await waha.close();
  }
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('gateway bench: timed out waiting');
    await sleep(50);
  }
}
