// Sign-in under attack: long and multi-byte passwords work; guessing is slowed per account and
// address (a doubling wait) and stopped per address, before any password hash is computed, while
// the owner elsewhere gets in; the admin can lift a wait; no answer tells whether an email exists.
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { LoginLimiter } from '#server/modules/auth/login-limiter.ts';
import { passwordHashes } from '#server/modules/auth/passwords.ts';
import { startServer, type ApiAnswer, type TestServer } from './helpers.ts';

// Long enough for a burst of failures to land in one window on a busy machine.
const WINDOW_MS = 2500;
const LIMITS = { windowMs: WINDOW_MS, maxPerIp: 20, maxPerPair: 5, firstDelayMs: 1000 };
const LOGIN_FAILED = { detail: 'Email atau password salah' };
const BLOCKED = /^Terlalu banyak percobaan masuk\. Coba lagi dalam \d+ (detik|menit)\.$/;

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ login: LIMITS });
});
afterAll(() => server?.close());

/** Lets every counter of the limiter run out. */
const nextWindow = () => sleep(WINDOW_MS + 200);

/** Signs in and answers the status, the body and how many argon2 hashes the server computed. */
async function attempt(email: string, password: string, headers: Record<string, string> = {}) {
  const before = passwordHashes.computed;
  const answer = await server.api('POST', '/api/auth/login', {
    body: { email, password },
    headers,
  });
  return { ...answer, hashes: passwordHashes.computed - before };
}

/** The same sign-in from another loopback address: another IP as far as the server knows. */
function attemptFrom(localAddress: string, email: string, password: string) {
  const body = JSON.stringify({ email, password });
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const request = http.request(
      `${server.url}/api/auth/login`,
      {
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.on('data', (part) => (text += part));
        response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const expectAnswer = (answer: ApiAnswer, status: number, body: unknown) =>
  expect([answer.status, answer.body]).toEqual([status, body]);

describe('passwords', () => {
  it('64-character, 128-character and multi-byte passwords work, exactly as typed', async () => {
    const passwords = [
      'Ab1!'.repeat(16),
      'x'.repeat(128),
      'kata-sandi-🔐-ñandú-日本語-ß-Ωμέγα',
      '🔐'.repeat(64),
      '  spasi di tepi  ',
    ];
    for (const password of passwords) {
      const { user } = await server.createClient({ password });
      const ok = await attempt(user.email, password);
      expect(ok.status, password).toBe(200);
      expect(ok.body.user.id).toBe(user.id);
      // A near miss is a wrong password: no trimming, no truncation, no normalisation.
      // (Cut by code point: half an emoji is a lone surrogate, which is refused with 422.)
      const near =
        password.trim() === password ? [...password].slice(0, -1).join('') : password.trim();
      expectAnswer(await attempt(user.email, near), 401, LOGIN_FAILED);
    }
    await nextWindow();
  });

  it('a password over 128 characters is refused before any hash', async () => {
    const { user } = await server.createClient();
    const long = await attempt(user.email, 'x'.repeat(129));
    expect([long.status, long.hashes]).toEqual([422, 0]);
    const huge = await attempt(user.email, 'x'.repeat(500_000));
    expect([huge.status, huge.hashes]).toEqual([422, 0]);
  });
});

describe('brute force', () => {
  it('an attacker failing from one address does not block the owner signing in from another', async () => {
    await nextWindow();
    const owner = await server.createClient({ password: 'pemilik-asli-123' });
    for (let i = 0; i < LIMITS.maxPerPair + 3; i += 1) {
      const guess = await attempt(owner.user.email, `tebakan-${i}`);
      if (guess.status === 401) continue;
      // Once the address waits, a guess is refused before any hash.
      expect(guess.status).toBe(429);
      expect(guess.body.detail).toMatch(BLOCKED);
      expect(guess.hashes).toBe(0);
    }
    // The owner, elsewhere, gets in at once with the right password.
    const owners = await attemptFrom('127.0.0.2', owner.user.email, 'pemilik-asli-123');
    expect(owners.status).toBe(200);
    expect(owners.body.user.id).toBe(owner.user.id);
    // The attacker's address still waits, whatever spelling of the email it tries.
    for (const email of [owner.user.email.toUpperCase(), ` ${owner.user.email} `]) {
      const blocked = await attempt(email, 'pemilik-asli-123');
      expect([blocked.status, blocked.hashes]).toEqual([429, 0]);
    }
  });

  it('each further failure of an account from one address doubles the wait', async () => {
    await nextWindow();
    const owner = await server.createClient({ password: 'pemilik-asli-789' });
    for (let i = 0; i < LIMITS.maxPerPair; i += 1) {
      expectAnswer(await attempt(owner.user.email, `tebakan-${i}`), 401, LOGIN_FAILED);
    }
    const first = await attempt(owner.user.email, 'tebakan-lagi');
    expectAnswer(first, 429, {
      detail: 'Terlalu banyak percobaan masuk. Coba lagi dalam 1 detik.',
    });
    await sleep(LIMITS.firstDelayMs + 50);
    // Allowed again: one more wrong guess, then twice the wait.
    expectAnswer(await attempt(owner.user.email, 'tebakan-lagi'), 401, LOGIN_FAILED);
    const second = await attempt(owner.user.email, 'tebakan-lagi');
    expectAnswer(second, 429, {
      detail: 'Terlalu banyak percobaan masuk. Coba lagi dalam 2 detik.',
    });
    await sleep(2 * LIMITS.firstDelayMs + 50);
    // The right password after the wait gets in and ends the waits of this address.
    expect((await attempt(owner.user.email, 'pemilik-asli-789')).status).toBe(200);
    expectAnswer(await attempt(owner.user.email, 'salah-lagi'), 401, LOGIN_FAILED);
  });

  it('the wait doubles up to its ceiling, and each pair is apart', () => {
    const limiter = new LoginLimiter({
      windowMs: 60 * 60_000,
      maxPerIp: 1e9,
      maxPerPair: 3,
      firstDelayMs: 1000,
      maxDelayMs: 60_000,
    });
    let now = 1_000_000;
    const waits = [];
    for (let i = 0; i < 10; i += 1) {
      limiter.fail('10.0.0.1', 'budi@contoh.test', now);
      const wait = limiter.blockedFor('10.0.0.1', 'budi@contoh.test', now);
      waits.push(wait);
      now += wait;
    }
    expect(waits).toEqual([0, 0, 1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
    expect(limiter.blockedFor('10.0.0.2', 'budi@contoh.test', now - 1)).toBe(0);
    expect(limiter.blockedFor('10.0.0.1', 'ani@contoh.test', now - 1)).toBe(0);
    limiter.lift('budi@contoh.test');
    expect(limiter.blockedFor('10.0.0.1', 'budi@contoh.test', now - 1)).toBe(0);
  });

  it('counts an IPv6 caller by its /64: another address of the same network waits too', () => {
    const limiter = new LoginLimiter({ windowMs: 60_000, maxPerIp: 1e9, maxPerPair: 2 });
    const now = 1_000_000;
    limiter.fail('2001:db8:5:6::1', 'budi@contoh.test', now);
    limiter.fail('2001:db8:5:6::2', 'budi@contoh.test', now);
    expect(limiter.blockedFor('2001:db8:5:6:ffff::9', 'budi@contoh.test', now)).toBe(1000);
    expect(limiter.blockedFor('2001:db8:5:7::1', 'budi@contoh.test', now)).toBe(0);
  });

  it('per IP: blocked after 20 failures on any accounts; other IPs and, later, this one get in', async () => {
    await nextWindow();
    const owner = await server.createClient({ password: 'pemilik-asli-456' });
    const before = passwordHashes.computed;
    const guesses = await Promise.all(
      Array.from({ length: LIMITS.maxPerIp }, (_, i) =>
        server.api('POST', '/api/auth/login', {
          body: { email: `tebak-${i}@contoh.test`, password: 'apa-saja' },
        }),
      ),
    );
    for (const wrong of guesses) expectAnswer(wrong, 401, LOGIN_FAILED);
    // Unknown emails cost a hash each too (the dummy one), like known ones.
    expect(passwordHashes.computed - before).toBe(LIMITS.maxPerIp);
    const blocked = await attempt(owner.user.email, 'pemilik-asli-456');
    expect([blocked.status, blocked.hashes]).toEqual([429, 0]);
    expect(blocked.body.detail).toMatch(BLOCKED);
    // A forwarded-for header is not trusted without SEBAR_TRUST_PROXY: no other window.
    const spoofed = await attempt(owner.user.email, 'pemilik-asli-456', {
      'x-forwarded-for': '203.0.113.9',
      'x-real-ip': '203.0.113.9',
    });
    expect([spoofed.status, spoofed.hashes]).toEqual([429, 0]);
    // The owner on another address is not locked out by the attacker's address.
    const elsewhere = await attemptFrom('127.0.0.2', owner.user.email, 'pemilik-asli-456');
    expect(elsewhere.status).toBe(200);
    await nextWindow();
    expect((await attempt(owner.user.email, 'pemilik-asli-456')).status).toBe(200);
  });

  it('the admin lifts the waits of an account, and a new password set by the admin does too', async () => {
    await nextWindow();
    const owner = await server.createClient({ password: 'pemilik-asli-321' });
    const block = async () => {
      for (let i = 0; i < LIMITS.maxPerPair; i += 1) await attempt(owner.user.email, `salah-${i}`);
      expect((await attempt(owner.user.email, 'pemilik-asli-321')).status).toBe(429);
    };
    await block();
    const lift = `/api/admin/users/${owner.user.id}/sign-in-block`;
    expect((await server.api('DELETE', lift, { token: owner.token })).status).toBe(403);
    expect(await server.api('DELETE', lift, { token: server.adminToken })).toMatchObject({
      status: 200,
      body: { detail: `Blokir masuk ${owner.user.username} telah dibuka` },
    });
    expect((await attempt(owner.user.email, 'pemilik-asli-321')).status).toBe(200);

    await block();
    const reset = await server.api('PUT', `/api/admin/users/${owner.user.id}/password`, {
      token: server.adminToken,
      body: { new_password: 'sandi-baru-321' },
    });
    expect(reset.status).toBe(200);
    expect((await attempt(owner.user.email, 'sandi-baru-321')).status).toBe(200);
    const missing = await server.api('DELETE', '/api/admin/users/tidak-ada/sign-in-block', {
      token: server.adminToken,
    });
    expect(missing).toMatchObject({ status: 404, body: { detail: 'Akun tidak ditemukan' } });
  });
});

describe('behind a reverse proxy (SEBAR_TRUST_PROXY)', () => {
  const fail = (target: TestServer, email: string, forwardedFor: string) =>
    target.api('POST', '/api/auth/login', {
      body: { email, password: 'salah-sekali' },
      headers: { 'x-forwarded-for': forwardedFor },
    });
  const signIn = (target: TestServer, email: string, password: string, forwardedFor: string) =>
    target.api('POST', '/api/auth/login', {
      body: { email, password },
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('keys on the forwarded address when the proxy is trusted', async () => {
    const proxied = await startServer({ login: LIMITS, trustProxy: '127.0.0.1' });
    try {
      const owner = await proxied.createClient({ password: 'pemilik-asli-555' });
      for (let i = 0; i < LIMITS.maxPerPair; i += 1)
        expect((await fail(proxied, owner.user.email, '203.0.113.7')).status).toBe(401);
      const attacker = await signIn(proxied, owner.user.email, 'pemilik-asli-555', '203.0.113.7');
      expect(attacker.status).toBe(429);
      const ownerIn = await signIn(proxied, owner.user.email, 'pemilik-asli-555', '198.51.100.4');
      expect(ownerIn.status).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it('ignores X-Forwarded-For when no proxy is trusted', async () => {
    await nextWindow();
    const owner = await server.createClient({ password: 'pemilik-asli-666' });
    for (let i = 0; i < LIMITS.maxPerPair; i += 1)
      expect((await fail(server, owner.user.email, `203.0.113.${i}`)).status).toBe(401);
    const other = await signIn(server, owner.user.email, 'pemilik-asli-666', '198.51.100.4');
    expect(other.status).toBe(429);
  });

  it('reads SEBAR_TRUST_PROXY', () => {
    const trust = (value?: string) => loadConfig({ SEBAR_TRUST_PROXY: value }).trustProxy;
    expect([trust(), trust(''), trust('false'), trust('0')]).toEqual([false, false, false, false]);
    expect([trust('true'), trust('2'), trust('10.0.0.0/8, 127.0.0.1')]).toEqual([
      true,
      2,
      '10.0.0.0/8, 127.0.0.1',
    ]);
  });
});

describe('no account enumeration', () => {
  it('a wrong password and an unknown email get the same answer and the same work', async () => {
    await nextWindow();
    const { user } = await server.createClient({ password: 'benar-sekali-1' });
    const known = await attempt(user.email, 'salah-sekali-1');
    const unknown = await attempt('tidak-ada@contoh.test', 'salah-sekali-1');
    expect([known.status, known.body, known.hashes]).toEqual([401, LOGIN_FAILED, 1]);
    expect([unknown.status, unknown.body, unknown.hashes]).toEqual([401, LOGIN_FAILED, 1]);
    expect(Object.keys(known.body)).toEqual(['detail']);
  });

  it('an inactive account with a wrong password answers like any wrong password', async () => {
    const { user } = await server.createClient({ password: 'benar-sekali-2' });
    const off = await server.api('PUT', `/api/admin/users/${user.id}`, {
      token: server.adminToken,
      body: { username: user.username, email: user.email, points: 0, is_active: false },
    });
    expect(off.status).toBe(200);
    expectAnswer(await attempt(user.email, 'salah-sekali-2'), 401, LOGIN_FAILED);
    // Only the right password learns that the account is inactive.
    expectAnswer(await attempt(user.email, 'benar-sekali-2'), 403, {
      detail: 'Akun Anda tidak aktif. Hubungi admin.',
    });
  });

  it('when blocked, a known and an unknown email get the same answer', async () => {
    await nextWindow();
    const { user } = await server.createClient({ password: 'benar-sekali-3' });
    await Promise.all(
      [user.email, 'hantu@contoh.test'].flatMap((email) =>
        Array.from({ length: LIMITS.maxPerPair }, (_, i) => attempt(email, `salah-${i}`)),
      ),
    );
    const known = await attempt(user.email, 'benar-sekali-3');
    const unknown = await attempt('hantu@contoh.test', 'benar-sekali-3');
    expect([known.status, known.hashes]).toEqual([429, 0]);
    expect([unknown.status, unknown.hashes]).toEqual([429, 0]);
    expect(known.body.detail).toMatch(BLOCKED);
    expect(unknown.body).toEqual(known.body);
  });
});
