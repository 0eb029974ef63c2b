// A blast closed while one of its numbers is on its way sends that number nothing more: a refusal
// answered after the cancel, a send left without an answer, and a gateway device still typing
// when the cancel comes each end the number failed, unsent, with the cancel's reason, refunded;
// a number waiting to go again after an error reads as cancelled, not as that error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '#server/db/ledger-check.ts';
import { numberEnding, startDeliveryFixture } from '#server/test/delivery-fixture.ts';
import { startGatewayFixture } from '#server/test/gateway-fixture.ts';
import { waitFor } from '#server/test/processes.ts';
import type { TestServer } from '#server/test/helpers.ts';
import { ENGINE_DEFAULTS } from './engine-options.ts';
import { requeueUnanswered } from './outbox.ts';
import { recordResults } from './send-results.ts';

const CANCELLED = 'Blast dibatalkan sebelum nomor ini dikirim';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const cancel = (server: TestServer, token: string, id: string) =>
  server.api('POST', `/api/client/blast-requests/${id}/cancel`, { token });

const balance = async (server: TestServer, token: string) =>
  (await server.api('GET', '/api/auth/me', { token })).body.points;

describe('the Cloud API', () => {
  /** Meta records these sends, but the answer is lost and no webhook comes: they stay sending. */
  const SILENT = [numberEnding(9101, '0010'), numberEnding(9102, '0010')];
  /** Refused once with a rate limit: it waits a minute to go again. */
  const LIMITED = numberEnding(9103, '0010');
  let f: Awaited<ReturnType<typeof startDeliveryFixture>>;
  beforeAll(async () => {
    f = await startDeliveryFixture({
      whatsapp: {
        webhookUrl: undefined,
        outcomes: {
          ...Object.fromEntries(SILENT.map((n) => [n, 'lost_answer'])),
          [LIMITED]: 'reject:130429x1',
        },
      },
      config: { delivery: { retryBaseMs: 60_000 } as any },
    });
  });
  afterAll(() => f?.close());

  /** A one-number blast whose send is on its way when the client cancels it. */
  async function cancelledInFlight(number: string) {
    const before = await balance(f.server, f.client.token);
    const created = await f.blast([number]);
    await f.until(created.id, (b) => b.numbers[0].delivery.state === 'sending');
    await waitFor(() => f.whatsapp.sentTo(number) === 1, 5000, `the send to ${number}`);
    const cancelled = await cancel(f.server, f.client.token, created.id);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.numbers[0].delivery.state).toBe('sending');
    return { id: created.id as string, before };
  }

  async function expectFailedUnsent(id: string, number: string, before: number) {
    // Sent again, it would be claimed within the engine's idle wait (20 ms here).
    await sleep(500);
    expect(f.whatsapp.sentTo(number)).toBe(1);
    const blast = await f.read(id);
    expect(blast).toMatchObject({ status: 'cancelled', failed_count: 1, refund_points: 1 });
    expect(blast.numbers[0]).toMatchObject({
      status: 'failed',
      delivery: { state: 'failed', reason: CANCELLED },
    });
    expect(await balance(f.server, f.client.token)).toBe(before);
    expect(await checkLedger(f.server.database.db)).toEqual([]);
  }

  it('does not send again a number whose send is refused after the cancel', async () => {
    const { id, before } = await cancelledInFlight(SILENT[0]!);
    // Meta's answer comes now: a rate limit, which an open blast would try again.
    const halt = await recordResults(
      f.server.database,
      [
        {
          blastId: id,
          idx: 0,
          attempt: 1,
          outcome: { kind: 'refused', code: 130429, title: 'Rate limit hit' },
          at: new Date().toISOString(),
        },
      ],
      ENGINE_DEFAULTS,
    );
    expect(halt).toBeNull();
    await expectFailedUnsent(id, SILENT[0]!, before);
  });

  it('fails, instead of sending again, a number left without an answer', async () => {
    const { id, before } = await cancelledInFlight(SILENT[1]!);
    // The sweep of silent numbers, as a worker makes it once their wait is over.
    const sweep = { cloudApiMs: 0, gatewayMs: 0, maxAttempts: 8 };
    expect(await requeueUnanswered(f.server.database, sweep)).toBe(1);
    await expectFailedUnsent(id, SILENT[1]!, before);
  });

  it('names the cancel, not the last error, as the reason of a number waiting to go again', async () => {
    const created = await f.blast([LIMITED]);
    await f.until(created.id, (b) => b.numbers[0].delivery.error_code === 130429);
    const cancelled = await cancel(f.server, f.client.token, created.id);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.numbers[0]).toMatchObject({
      status: 'failed',
      delivery: { state: 'failed', error_code: null, reason: CANCELLED },
    });
  });
});

describe('the gateway', () => {
  // One pacing second is 400 ms: a long text is typed for four of them (1.6 s).
  let g: Awaited<ReturnType<typeof startGatewayFixture>>;
  beforeAll(async () => {
    g = await startGatewayFixture({ config: { delivery: { gatewaySecondMs: 400 } as any } });
    await g.addDevice('toko-1', '6281100000001');
  });
  afterAll(() => g?.close());

  it('sends nothing when the cancel comes while the device types', async () => {
    const number = numberEnding(9201, '0010');
    const before = await balance(g.server, g.client.token);
    const created = await g.blast([number], `Halo kak, ${'promo akhir tahun '.repeat(10)}`);
    await waitFor(
      () => g.waha.presence.some((p) => p.chatId === `${number}@c.us`),
      5000,
      'typing to the number',
    );
    const cancelled = await cancel(g.server, g.client.token, created.id);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    await waitFor(
      async () => (await g.read(created.id)).numbers[0].delivery.state === 'failed',
      5000,
      'the number settled',
    );
    await sleep(300);
    expect(g.waha.sentTo(number)).toEqual([]);
    const blast = await g.read(created.id);
    expect(blast).toMatchObject({ status: 'cancelled', successful_count: 0, refund_points: 1 });
    expect(blast.numbers[0].delivery.reason).toBe(CANCELLED);
    expect(await balance(g.server, g.client.token)).toBe(before);
    expect(await checkLedger(g.server.database.db)).toEqual([]);
  });
});
