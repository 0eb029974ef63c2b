// The bound on expensive requests in flight per user: past it one user is answered 429 while
// other users go on; a slot comes back when its request is answered, or when its sender hangs up.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '#server/test/helpers.ts';
import { busyMessage } from './in-flight.ts';

const MAX = 3;
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ clientInFlight: MAX });
  await server.api('POST', '/api/admin/pricing', {
    token: server.adminToken,
    body: { tier_name: 'Semua', min_points: 1, max_points: 100_000, price_per_point: 100 },
  });
});
/** Requests a failed test left open would keep the server from closing. */
const open = new Set<http.ClientRequest>();
afterAll(async () => {
  for (const request of open) request.destroy();
  await server?.close();
});

const blastBody = JSON.stringify({
  message: 'Halo',
  target_numbers: ['081234567890'],
  image_url: null,
});

/**
 * A blast creation whose body is sent only in part: the server has taken its slot (the bound is
 * checked before the body is read) and keeps it until the body is finished or the sender hangs up.
 */
function heldBlast(token: string) {
  const request = http.request(`${server.url}/api/client/blast-requests`, {
    method: 'POST',
    agent: false,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'content-length': String(blastBody.length),
    },
  });
  const answer = new Promise<number>((resolve) => {
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', () => resolve(0));
  });
  request.write(blastBody.slice(0, 10));
  open.add(request);
  void answer.then(() => open.delete(request));
  return {
    finish: () => request.end(blastBody.slice(10)),
    hangUp: () => request.destroy(),
    answer,
  };
}

const blast = (token: string) =>
  server.api('POST', '/api/client/blast-requests', {
    token,
    body: JSON.parse(blastBody),
  });

/**
 * MAX + 1 held blasts of one user at once: whichever the server sees last is answered 429 at
 * once, the others keep their slots. Answers those still held.
 */
async function fillBound(token: string) {
  const held = Array.from({ length: MAX + 1 }, () => heldBlast(token));
  const refused = await Promise.race(
    held.map((h, i) => h.answer.then((status) => ({ status, i }))),
  );
  expect(refused.status).toBe(429);
  return held.filter((_, i) => i !== refused.i);
}

describe('expensive requests in flight per user', () => {
  it('one past the bound is answered 429 while another client is served; answered ones free it', async () => {
    const flooder = await server.createClient();
    const other = await server.createClient();
    const held = await fillBound(flooder.token);
    const refused = await blast(flooder.token);
    expect([refused.status, refused.body]).toEqual([429, { detail: busyMessage(MAX) }]);
    expect(refused.headers.get('retry-after')).toBe('1');
    // Another client's blast and top-up go through meanwhile (refused for points, not for load).
    expect((await blast(other.token)).status).toBe(409);
    const topUp = await server.api('POST', '/api/client/point-requests', {
      token: other.token,
      body: { points_requested: 10, amount_paid: 1000, payment_proof_url: null },
    });
    expect(topUp.status).toBe(201);
    for (const h of held) h.finish();
    expect(await Promise.all(held.map((h) => h.answer))).toEqual(Array(MAX).fill(409));
    // Every slot came back.
    const after = await Promise.all(Array.from({ length: MAX }, () => blast(flooder.token)));
    expect(after.map((a) => a.status)).toEqual(Array(MAX).fill(409));
  });

  it('a sender that hangs up mid-body gives its slot back', async () => {
    const flooder = await server.createClient();
    const held = await fillBound(flooder.token);
    for (const h of held) h.hangUp();
    await vi.waitFor(async () => expect((await blast(flooder.token)).status).toBe(409), {
      timeout: 10_000,
      interval: 50,
    });
    const after = await Promise.all(Array.from({ length: MAX }, () => blast(flooder.token)));
    expect(after.map((a) => a.status)).toEqual(Array(MAX).fill(409));
  });
});
