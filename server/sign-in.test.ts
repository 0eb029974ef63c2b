// Sign-in under attack: long and multi-byte passwords work; guessing is stopped per IP and per
// account before any password hash is computed, and the owner gets in once the window passes;
// no answer tells whether an email exists.
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordHashes } from './plugins/auth.ts';
import { startServer, type ApiAnswer, type TestServer } from './test-helpers.ts';

// Long enough for a burst of failures to land in one window on a busy machine.
const WINDOW_MS = 2500;
const LIMITS = { windowMs: WINDOW_MS, maxPerIp: 20, maxPerAccount: 5 };
const LOGIN_FAILED = { detail: 'Email atau password salah' };
const BLOCKED = { detail: 'Terlalu banyak percobaan masuk. Coba lagi dalam 1 menit.' };

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
  it('per account: blocked after 5 failures before hashing, even with the right password', async () => {
    const owner = await server.createClient({ password: 'pemilik-asli-123' });
    const other = await server.createClient({ password: 'orang-lain-123' });
    // Sent together so they all land in one window; each is checked, then costs one hash.
    const guesses = await Promise.all(
      Array.from({ length: LIMITS.maxPerAccount }, (_, i) =>
        server.api('POST', '/api/auth/login', {
          body: { email: owner.user.email, password: `tebakan-${i}` },
        }),
      ),
    );
    for (const wrong of guesses) expectAnswer(wrong, 401, LOGIN_FAILED);
    for (const email of [
      owner.user.email,
      owner.user.email.toUpperCase(),
      ` ${owner.user.email} `,
    ]) {
      const blocked = await attempt(email, 'pemilik-asli-123');
      expectAnswer(blocked, 429, BLOCKED);
      expect(blocked.hashes).toBe(0);
    }
    // Another account from the same IP is not blocked: the IP has only 5 failures of 20.
    expect((await attempt(other.user.email, 'orang-lain-123')).status).toBe(200);
    await nextWindow();
    const back = await attempt(owner.user.email, 'pemilik-asli-123');
    expect(back.status).toBe(200);
    expect(back.body.user.id).toBe(owner.user.id);
  });

  it('per IP: blocked after 20 failures on any accounts; other IPs and, later, this one get in', async () => {
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
    expectAnswer(blocked, 429, BLOCKED);
    expect(blocked.hashes).toBe(0);
    // A forwarded-for header is not trusted: it does not open another window.
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
        Array.from({ length: LIMITS.maxPerAccount }, (_, i) => attempt(email, `salah-${i}`)),
      ),
    );
    const known = await attempt(user.email, 'benar-sekali-3');
    const unknown = await attempt('hantu@contoh.test', 'benar-sekali-3');
    expect([known.status, known.body, known.hashes]).toEqual([429, BLOCKED, 0]);
    expect([unknown.status, unknown.body, unknown.hashes]).toEqual([429, BLOCKED, 0]);
  });
});
