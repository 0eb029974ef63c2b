// Bad input on every registered route: generated bodies, query strings, path parameters and
// headers (wrong types, huge strings and numbers, NaN, nested junk, invalid UTF-8, malformed
// JSON, wrong content types, bodies over the limit). Never a 5xx, never a stack trace or SQL in
// the answer, and the database is unchanged after every answer that is not a success. Every
// answer of an /api route is one the API document declares for it, in the declared shape.
import crypto from 'node:crypto';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { engine, startServer } from './helpers.ts';
import { answerChecker } from './openapi.ts';
import { exampleBody, pathFor, seedFixtures } from './routes.ts';
import { snapshot, counts, type Snapshot } from './snapshot.ts';

const given = Number(process.env.BAD_INPUT_SEED);
const seed = Number.isInteger(given) && given !== 0 ? given : crypto.randomInt(1, 2 ** 31 - 1);
const numRuns = Number(process.env.BAD_INPUT_RUNS) || 30;
console.log(
  `[bad input ${engine}] seed ${seed}, ${numRuns} generated inputs per route (replay with BAD_INPUT_SEED=${seed})`,
);

// Sign-in is fuzzed too; its limiter answers 429, which is fine but would hide the rest.
const server = await startServer({
  login: { windowMs: 60_000, maxPerIp: 1e9, maxPerPair: 1e9 },
});
const fx = await seedFixtures(server);
const documented = answerChecker((await server.api('GET', '/api/docs')).body);
afterAll(() => server.close());

/** Registered routes, the ones that delete last so the others meet real objects. */
const ROUTES = server.routes
  .filter((r) => r.method !== 'HEAD')
  .sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'));
const sent = new Map<string, number>();
const statuses = new Map<number, number>();

interface Input {
  path: string;
  query: string;
  body:
    | { kind: 'none' }
    | { kind: 'json'; value: unknown }
    | { kind: 'raw'; bytes: string | Uint8Array; type: string | null };
  headers: Record<string, string>;
  asClient: boolean;
}

// Where the caller owns the object, aim at A's own (A is the client under test).
const pathOf = (url: string) =>
  url.startsWith('/api/client/blast-requests/:id')
    ? url.replace(':id', fx.blastOfA)
    : pathFor(url, fx);

const hugeString = fc.constantFrom('x'.repeat(100_000), '😀'.repeat(20_000), '\u0000'.repeat(1000));
const oddNumber = fc.constantFrom(
  1e308,
  -1e308,
  2 ** 53 + 1,
  -(2 ** 63),
  2 ** 31,
  4_294_967_296,
  -0,
  5e-324,
  1.5,
  -1,
  0,
);
/** Strings that pass a length and type check and then must still be stored or refused cleanly. */
const nasty = fc.oneof(
  fc.constantFrom(
    'a\u0000b',
    '\u0000',
    '\ud800',
    'x\udfff',
    'teks\u202eterbalik',
    '\ufeff',
    '𝕏'.repeat(50),
    'é'.normalize('NFD'),
    '<script>alert(1)</script>',
    '${7*7}{{7*7}}',
    '%s%n%x',
    '\r\n\t',
    '0x7fffffff',
  ),
  fc.string({ unit: 'binary', maxLength: 20 }),
);
const scalar = fc.oneof(
  nasty,
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double(),
  oddNumber,
  fc.boolean(),
  fc.constant(null),
  hugeString,
  fc.constantFrom('NaN', 'Infinity', '1e309', '', ' ', "' OR '1'='1", '"; drop table users; --'),
);
const { junk } = fc.letrec((tie) => ({
  junk: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('junk'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 12 }), tie('junk'), { maxKeys: 4 }),
  ),
}));
const extraKey = fc.oneof(
  fc.constantFrom(
    'points',
    'role',
    'user_id',
    'status',
    '__proto__',
    'is_active',
    'id',
    'constructor',
  ),
  fc.string({ maxLength: 12 }),
);

/** The route's valid body with fields replaced by junk, dropped, or unknown ones added. */
function mutated(example: Record<string, unknown>) {
  const keys = Object.keys(example);
  return fc
    .record({
      changes: fc.array(fc.tuple(fc.nat(keys.length), fc.constantFrom('junk', 'drop'), junk), {
        maxLength: 3,
      }),
      extra: fc.array(fc.tuple(extraKey, junk), { maxLength: 2 }),
    })
    .map(({ changes, extra }) => {
      const body: Record<string, unknown> = { ...example };
      for (const [i, how, value] of changes) {
        const key = keys[i % Math.max(keys.length, 1)];
        if (key === undefined) continue;
        if (how === 'drop') delete body[key];
        else body[key] = value;
      }
      // defineProperty: a plain assignment to __proto__ would set the prototype, not a field.
      for (const [key, value] of extra)
        Object.defineProperty(body, key, { value, enumerable: true, configurable: true });
      return body;
    });
}

const malformed = fc.constantFrom(
  '{',
  '{"a":',
  'NaN',
  'Infinity',
  '-Infinity',
  '[1,]',
  "{'a':1}",
  '{"a":1}{"b":2}',
  'undefined',
  '\u0000',
  '{"a":"\\ud800"}',
  '{"a":1e400}',
  '{"__proto__":{"role":"super_admin"}}',
  '{"constructor":{"prototype":{"x":1}}}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`,
);
/** Invalid UTF-8 bytes inside a JSON string, in a body that is otherwise the route's own. */
const invalidUtf8 = fc
  .uint8Array({ minLength: 1, maxLength: 16 })
  .map((bytes) =>
    Buffer.concat([
      Buffer.from('{"message":"'),
      Buffer.from(bytes.map((b) => 0x80 | (b & 0x7f))),
      Buffer.from('","title":"\xff\xfe","email":"\xc3\x28"}', 'latin1'),
    ]),
  );
const wrongType = fc.record({
  bytes: fc.constantFrom('a=1&points=999', 'hello', '<xml/>', '--x\r\n\r\n--x--'),
  type: fc.constantFrom(
    'application/x-www-form-urlencoded',
    'text/plain',
    'application/xml',
    'multipart/form-data',
    'multipart/form-data; boundary=x',
    'application/json; charset=utf-16',
    'application/json; charset=latin1',
    'image/png',
  ),
});
/** Multipart envelopes with junk parts: wrong fields, junk bytes, cut off, or no boundary. */
const multipart = fc
  .record({
    field: fc.constantFrom('image', 'file', 'x', ''),
    filename: fc.oneof(
      fc.constantFrom('a.png', 'a.svg', '../../a.png', 'a\u0000.png'),
      fc.string(),
    ),
    type: fc.constantFrom('image/png', 'image/svg+xml', 'text/html', 'application/octet-stream'),
    content: fc.uint8Array({ maxLength: 2000 }),
    cut: fc.boolean(),
    parts: fc.integer({ min: 1, max: 8 }),
  })
  .map(({ field, filename, type, content, cut, parts }) => {
    const part = Buffer.concat([
      Buffer.from(
        `--b0undary\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      Buffer.from(content),
      Buffer.from('\r\n'),
    ]);
    const whole = Buffer.concat([
      ...Array.from({ length: parts }, () => part),
      Buffer.from('--b0undary--\r\n'),
    ]);
    return { bytes: cut ? whole.subarray(0, whole.length >> 1) : whole };
  });

const queryValue = fc.oneof(
  fc.string().map(encodeURIComponent),
  fc.constantFrom(
    '-1',
    '0',
    '1e309',
    'NaN',
    'Infinity',
    '9007199254740993',
    '1.5',
    '',
    '%00',
    '%ff',
  ),
  fc.constantFrom('true', 'pending', 'approved', 'x'.repeat(4000), '[]', '{}'),
  fc.integer().map(String),
);
const queryKey = fc.oneof(
  fc.constantFrom('page', 'page_size', 'status', 'user_id', '__proto__', 'constructor', 'page[]'),
  fc.string({ maxLength: 8 }).map(encodeURIComponent),
);
const query = fc
  .array(fc.tuple(queryKey, queryValue), { maxLength: 4 })
  .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));

const badSegment = fc.oneof(
  fc.string({ minLength: 1 }).map(encodeURIComponent),
  fc.constantFrom(
    '%ff',
    '%',
    '%00',
    '%E0%A4%A',
    '..%2F..%2Fsebar.sqlite',
    'a'.repeat(300),
    '-1',
    '1e309',
    'NaN',
    'null',
    "1'%20OR%20'1'%3D'1",
    crypto.randomUUID(),
  ),
);

function inputFor(method: string, url: string): fc.Arbitrary<Input> {
  const example = exampleBody(method, url, fx);
  const multipartRoute = example.raw instanceof FormData;
  const bodies: fc.Arbitrary<Input['body']>[] = [];
  if (method === 'GET') bodies.push(fc.constant({ kind: 'none' as const }));
  else {
    bodies.push(
      fc.constant({ kind: 'none' as const }),
      junk.map((value) => ({ kind: 'json' as const, value })),
      malformed.map((text) => ({ kind: 'raw' as const, bytes: text, type: 'application/json' })),
      invalidUtf8.map((bytes) => ({ kind: 'raw' as const, bytes, type: 'application/json' })),
      wrongType.map(({ bytes, type }) => ({ kind: 'raw' as const, bytes, type })),
    );
    if (example.body && typeof example.body === 'object') {
      const arb = mutated(example.body as Record<string, unknown>).map((value) => ({
        kind: 'json' as const,
        value,
      }));
      bodies.push(arb, arb, arb);
    }
    if (multipartRoute) {
      const arb = multipart.map(({ bytes }) => ({
        kind: 'raw' as const,
        bytes: new Uint8Array(bytes),
        type: 'multipart/form-data; boundary=b0undary',
      }));
      bodies.push(arb, arb, arb);
    }
  }
  const path = url.includes(':')
    ? fc.oneof(
        { weight: 3, arbitrary: fc.constant(pathOf(url)) },
        { weight: 1, arbitrary: badSegment.map((s) => url.replace(/:[a-z]+/, s)) },
      )
    : fc.constant(url);
  const idempotency = fc.option(fc.stringMatching(/^[\x20-\x7e]{0,300}$/), { nil: undefined });
  return fc
    .record({
      path,
      query,
      body: fc.oneof(...bodies),
      key: idempotency,
      asClient: fc.boolean(),
    })
    .map(({ path, query, body, key, asClient }) => ({
      path,
      query,
      body,
      headers: key === undefined ? {} : ({ 'idempotency-key': key } as Record<string, string>),
      asClient,
    }));
}

function tokenFor(access: string | undefined, asClient: boolean) {
  if (access === 'admin') return server.adminToken;
  if (access === 'client') return fx.a.token;
  if (access === 'user') return asClient ? fx.a.token : server.adminToken;
  return null;
}

/** Words that would only appear if an internal error, a stack or a query leaked out. */
const LEAKS = [
  /\n\s+at .+:\d+:\d+/,
  /node_modules|\/work\/|\.ts:\d+/,
  /SQLITE_[A-Z]+|sqlite3?\b/i,
  /syntax error at or near|violates .* constraint|relation ".*" does not exist|duplicate key value/i,
  /\bselect\b[^"]{0,80}\bfrom\b|\binsert into\b|\bupdate\b[^"]{0,80}\bset\b/i,
  /TypeError|ReferenceError|RangeError|Cannot read prop|is not a function|undefined is not/,
  /"stack"|"code"\s*:\s*"(FST_|ERR_|SQLITE|2\d{4})/,
];

async function send(method: string, access: string | undefined, input: Input) {
  const headers: Record<string, string> = { ...input.headers };
  const token = tokenFor(access, input.asClient);
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (input.body.kind === 'json') {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(input.body.value);
  } else if (input.body.kind === 'raw') {
    if (input.body.type) headers['content-type'] = input.body.type;
    body = input.body.bytes as BodyInit;
  }
  const response = await fetch(`${server.url}${input.path}${input.query}`, {
    method,
    headers,
    body,
  });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    text: await response.text(),
  };
}

let before: Snapshot;

/** One input: the answer's shape, no leak, and the database unchanged unless it succeeded. */
async function check(method: string, url: string, access: string | undefined, input: Input) {
  const key = `${method} ${url}`;
  sent.set(key, (sent.get(key) ?? 0) + 1);
  const answer = await send(method, access, input);
  statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  const where = `${method} ${input.path}${input.query} -> ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, where).toBeLessThan(500);
  if (url.startsWith('/api/') && url !== '/api/docs') {
    const body = answer.type?.startsWith('application/json')
      ? JSON.parse(answer.text)
      : answer.text;
    expect(documented(method, url, answer.status, body), where).toBeNull();
  }
  const ok = answer.status >= 200 && answer.status < 300;
  if (!ok) {
    for (const leak of LEAKS) expect(answer.text, where).not.toMatch(leak);
    expect(answer.type, where).toMatch(/^application\/json/);
    const parsed = JSON.parse(answer.text);
    expect(typeof parsed.detail, where).toBe('string');
    expect(
      Object.keys(parsed).filter((k) => k !== 'detail' && k !== 'errors'),
      where,
    ).toEqual([]);
  }
  const after = await snapshot(server.database.db);
  expect(after.violations, where).toEqual([]);
  if (!ok) {
    if (JSON.stringify(after.rows) !== JSON.stringify(before.rows)) {
      expect({ counts: counts(after), rows: after.rows }, `changed by ${where}`).toEqual({
        counts: counts(before),
        rows: before.rows,
      });
    }
  }
  before = after;
}

describe(`bad input (seed ${seed})`, () => {
  it.each(ROUTES.map((r) => [`${r.method} ${r.url}`, r] as const))(
    '%s',
    async (_name, { method, url, access }) => {
      before = await snapshot(server.database.db);
      const path = url.includes(':') ? pathOf(url) : url;
      // Fixed cases: bodies just over the route's limit, and an empty body with a JSON type.
      if (method !== 'GET') {
        const limit = url === '/api/admin/settings' ? 8 * 1024 * 1024 : 1024 * 1024;
        const big = url.includes('upload') ? 5_242_880 + 1024 : limit + 1;
        for (const type of ['application/json', 'multipart/form-data; boundary=b0undary']) {
          const bytes = `{"a":"${'x'.repeat(big)}"}`;
          await check(method, url, access, {
            path,
            query: '',
            body: { kind: 'raw', bytes, type },
            headers: {},
            asClient: false,
          });
        }
        await check(method, url, access, {
          path,
          query: '',
          body: { kind: 'raw', bytes: '', type: 'application/json' },
          headers: {},
          asClient: true,
        });
      }
      await fc.assert(
        fc.asyncProperty(inputFor(method, url), (input) => check(method, url, access, input)),
        { seed, numRuns, endOnFailure: true },
      );
    },
    120_000,
  );

  it('covered every registered route', () => {
    const total = [...sent.values()].reduce((a, b) => a + b, 0);
    console.log(
      `[bad input ${engine}] ${sent.size} routes, ${total} requests (${numRuns} generated + fixed cases per route); answers by status: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );
    expect(sent.size).toBe(ROUTES.length);
  });
});
