import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifySchema } from 'fastify';
import { TEST_ADMIN_EMAIL, buildTestApp, call, signUp, type TestContext } from './helper';

/**
 * Bad input, as an attacker sends it, to every route of the app: generated bodies, paths and
 * queries (control characters, huge and odd numbers, wrong types, prototype keys, overlong
 * strings, broken URLs). Whatever comes in, the answer is never a 5xx, every error is
 * `{ detail }`, and a refused request changes no row.
 *
 * Tables that record refusals on purpose are left out of the "no row changed" check: sign-in
 * failures (what the sign-in limit counts), a signed-in user's wrong password checks (what the
 * re-authentication limit counts) and the rate limiter's counters.
 */

const RECORDS_REFUSALS = new Set(['login_failures', 'reauth_failures', 'rate_limits']);
/** Outbound calls fail at once: nothing listens on port 1. */
const NOWHERE = 'http://127.0.0.1:1';

let ctx: TestContext;
let userToken: string;
let adminToken: string;
let tables: string[];
/** Ids that exist (the built-in catalogue's, the users'), so generated paths reach the services too. */
const knownIds: string[] = [
  '387bfe25-192a-4eb3-aa8b-be1f9e202b9a',
  '0954c0b6-19e2-4eec-90dd-977441a80dfb',
  '5ebd8341-10e8-4ab7-85f4-5694d6a6f88b',
];

beforeAll(async () => {
  ctx = await buildTestApp({
    OPENAI_BASE_URL: `${NOWHERE}/v1`,
    GOOGLE_AUTH_URL: `${NOWHERE}/auth`,
    GOOGLE_TOKEN_URL: `${NOWHERE}/token`,
    YOUTUBE_API_URL: `${NOWHERE}/`,
    PROXY_CHECK_URL: `${NOWHERE}/generate_204`,
    OUTBOUND_TIMEOUT_MS: '1000',
  });
  const user = await signUp(ctx.app);
  userToken = user.token;
  knownIds.push(user.user.id);
  adminToken = (await signUp(ctx.app, { email: TEST_ADMIN_EMAIL })).token;
  const channel = await call(ctx.app, 'POST', '/api/v1/channels/', {
    token: userToken,
    body: { channel_id: 'UC0123456789abcdefghijkl', name: 'Fuzz channel' },
  });
  knownIds.push(channel.json().id);
  const rows = (await ctx.database.db.execute(
    sql`select tablename from pg_tables where schemaname = 'public' order by tablename`,
  )) as unknown as { rows?: Array<{ tablename: string }> } & Array<{ tablename: string }>;
  tables = (rows.rows ?? rows)
    .map((row) => row.tablename)
    .filter((name) => !RECORDS_REFUSALS.has(name) && !name.startsWith('__'));
}, 60_000);

afterAll(async () => {
  await ctx.close();
});

/** A fingerprint of every row of every table (but those recording refusals). */
async function snapshot(): Promise<string> {
  // Work a call left in the background (a sign-up's verification email writes its token after the
  // answer) belongs to that call: wait for it, so it is never counted against the next one.
  await ctx.app.services.drainEmails();
  await ctx.app.services.alerts.drain();
  const parts = tables.map(
    (table) =>
      sql`select ${table} as t, count(*)::int as n, coalesce(sum(hashtext(x::text)), 0)::text as h from ${sql.identifier(table)} x`,
  );
  const union = sql.join(parts, sql` union all `);
  const result = (await ctx.database.db.execute(union)) as unknown as { rows?: unknown[] } & unknown[];
  return JSON.stringify(result.rows ?? result);
}

/** Strings an attacker tries: control characters, huge, prototype keys, markup, odd Unicode, numbers as text. */
const nastyString = fc.oneof(
  { weight: 2, arbitrary: fc.string({ maxLength: 40, unit: 'binary' }) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'a\u0000b',
      '\u0000',
      'x\u0007y',
      '\u001b[31m',
      'constructor',
      '__proto__',
      'toString',
      '<script>alert(1)</script>',
      "' or 1=1 --",
      '%00',
      '../../etc/passwd',
      '\ud800',
      '😀'.repeat(50),
      '1e400',
      '-1',
      '18446744073709551616',
      'NaN',
      'null',
      'http://127.0.0.1:5432/',
      'file:///etc/passwd',
      '00000000-0000-4000-8000-000000000000',
      'line\u0000',
      '\u007f',
      'tab\tand\nnew line',
    ),
  },
  { weight: 1, arbitrary: fc.string({ minLength: 2000, maxLength: 5000 }) },
);

const nastyNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(2 ** 64, -(2 ** 63), 2 ** 31, 1e308, -0, Number.MAX_SAFE_INTEGER + 2, 0.5),
);

const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 2, arbitrary: nastyNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(nastyString, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(nastyString, nastyString, { maxKeys: 3 }) },
);

/** The properties a schema part declares (body, querystring). */
function declared(part: unknown): Record<string, { type?: string | string[]; enum?: unknown[] }> {
  return (part as { properties?: Record<string, { type?: string | string[] }> } | undefined)?.properties ?? {};
}

/** A value of the declared type most of the time (so the request reaches the service), of another type sometimes. */
function valueFor(property: { type?: string | string[]; enum?: unknown[] }): fc.Arbitrary<unknown> {
  const types = [property.type ?? []].flat();
  const typed: Array<fc.Arbitrary<unknown>> = [];
  if (property.enum) typed.push(fc.constantFrom(...property.enum));
  if (types.includes('string')) typed.push(nastyString, fc.string({ minLength: 1, maxLength: 30 }), fc.emailAddress());
  if (types.includes('integer') || types.includes('number')) typed.push(nastyNumber);
  if (types.includes('boolean')) typed.push(fc.boolean());
  if (types.includes('null')) typed.push(fc.constant(null));
  if (types.includes('object')) typed.push(fc.dictionary(nastyString, nastyValue, { maxKeys: 4 }));
  if (types.includes('array')) typed.push(fc.array(nastyValue, { maxLength: 3 }));
  if (typed.length === 0) return nastyValue;
  return fc.oneof({ weight: 5, arbitrary: fc.oneof(...typed) }, { weight: 1, arbitrary: nastyValue });
}

const CHANNEL = 'UC0123456789abcdefghijkl';
/**
 * A valid body for each route that takes one: the fuzzer changes one field of it, so a nasty value
 * meets the service and the database with everything else right (a random body mostly stops at the
 * schema).
 */
const VALID_BODIES: Record<string, Record<string, unknown>> = {
  'POST /api/v1/auth/register': {
    name: 'Ana',
    email: 'ana@example.com',
    password: 'secret123',
    plan: 'monthly',
    time_zone: 'UTC',
  },
  'POST /api/v1/auth/login': { email: 'ana@example.com', password: 'secret123' },
  'PUT /api/v1/auth/profile': { name: 'Ana', email: 'ana2@example.com', time_zone: 'America/Sao_Paulo' },
  'PUT /api/v1/auth/password': { current_password: 'secret123', new_password: 'secret456' },
  'DELETE /api/v1/auth/account': { password: 'wrong-password' },
  'POST /api/v1/auth/reset-password': { email: 'ana@example.com' },
  'POST /api/v1/auth/reset-password/confirm': { token: 'abc', new_password: 'secret456' },
  'POST /api/v1/channels': { channel_id: CHANNEL, name: 'Stories', min_views: 10, is_active: true },
  'PUT /api/v1/channels/:id': { channel_id: CHANNEL, name: 'Stories', min_views: 10 },
  'POST /api/v1/chatgpt/config': { api_key: 'sk-test-0123456789abcdef', base_url: `${NOWHERE}/v1`, model: 'gpt-4o-mini' },
  'PUT /api/v1/chatgpt/config': { api_key: 'sk-test-0123456789abcdef', model: 'gpt-4o-mini' },
  'POST /api/v1/chatgpt/test': { api_key: 'sk-test-0123456789abcdef' },
  'POST /api/v1/youtube-apis': {
    name: 'Main',
    channel_id: CHANNEL,
    client_id: 'client.apps.googleusercontent.com',
    client_secret: 'secret',
  },
  'PUT /api/v1/youtube-apis/:id': { name: 'Main', client_secret: 'secret', api_key: null },
  'POST /api/v1/platform-accounts': { platform: 'tiktok', name: 'Stories', client_id: 'client-key', client_secret: 'secret' },
  'PUT /api/v1/platform-accounts/:id': { name: 'Stories' },
  'POST /api/v1/proxies': { name: 'Office', url: 'http://user:pass@127.0.0.1:1' },
  'PUT /api/v1/proxies/:id': { name: 'Office', url: 'http://127.0.0.1:1' },
  'POST /api/v1/prompts': { name: 'Mystery', description: 'Short mysteries', content: 'Write a mystery', category: 'mystery' },
  'POST /api/v1/prompts/full': {
    name: 'Mystery',
    description: 'Short mysteries',
    content: 'Write a mystery',
    category: null,
    languages: { pt: { title: 'Um título', premise: 'Uma premissa' }, en: { title: 'A title' } },
  },
  'PUT /api/v1/prompts/:id': { description: 'New description' },
  'POST /api/v1/voices': {
    name: 'Helena',
    type: 'narrator',
    sample_url: '/api/v1/voice-samples/{id}.wav',
    language: 'pt',
    gender: 'female',
    provider: 'espeak',
    provider_voice_id: 'pt-br+f3',
  },
  'PUT /api/v1/voices/:id': { name: 'Helena', provider: 'espeak', provider_voice_id: 'pt-br' },
  'POST /api/v1/processes': {
    name: 'Nightly',
    channel_id: '00000000-0000-4000-8000-000000000001',
    youtube_api_id: '00000000-0000-4000-8000-000000000002',
    prompt_id: '5ebd8341-10e8-4ab7-85f4-5694d6a6f88b',
    language: 'pt',
    voice_id: '387bfe25-192a-4eb3-aa8b-be1f9e202b9a',
    publication_time: '18:30',
  },
  'PUT /api/v1/processes/:id': { name: 'Nightly', publication_time: '07:05', is_active: false },
  'POST /api/v1/publications': { video_title: 'A video', status: 'published', visibility: 'public', published_at: null },
  'PUT /api/v1/subscription': { plan: 'basic', billing_period: 'annual' },
};

/** A valid body with one field changed: set to a nasty value, a nasty string added to its text, or removed. */
function mutated(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(valid);
  return fc.tuple(fc.constantFrom(...keys), nastyValue, nastyString, fc.nat(2)).map(([key, value, text, how]) => {
    const copy: Record<string, unknown> = { ...valid };
    if (how === 0) copy[key] = value;
    else if (how === 1 && typeof copy[key] === 'string') copy[key] = `${copy[key] as string}${text}`;
    else delete copy[key];
    return copy;
  });
}

/** A body: the declared fields (some left out, sometimes an extra one), or not an object at all. */
function bodyFor(schema: FastifySchema | undefined, valid?: Record<string, unknown>): fc.Arbitrary<unknown> {
  if (valid) return fc.oneof({ weight: 3, arbitrary: mutated(valid) }, { weight: 1, arbitrary: bodyFor(schema) });
  const fields = declared(schema?.body);
  const object = fc
    .record(Object.fromEntries(Object.entries(fields).map(([field, property]) => [field, valueFor(property)])), {
      requiredKeys: [],
    })
    .chain((record) =>
      fc.oneof(
        { weight: 6, arbitrary: fc.constant(record) },
        { weight: 1, arbitrary: fc.tuple(nastyString, nastyValue).map(([key, value]) => ({ ...record, [key]: value })) },
        { weight: 1, arbitrary: fc.constant({ ...record, __proto__: { is_admin: true } }) },
      ),
    );
  return fc.oneof({ weight: 8, arbitrary: object }, { weight: 1, arbitrary: nastyValue });
}

/** Percent-encodes every byte of the UTF-8 (a lone surrogate becomes U+FFFD, as a browser sends it). */
const percent = (value: string) =>
  [...Buffer.from(value, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');

/** A query string: declared and made-up keys with values as text, some not URL-safe. */
function queryFor(schema: FastifySchema | undefined): fc.Arbitrary<string> {
  const keys = [...Object.keys(declared(schema?.querystring)), 'skip', 'limit', 'x'];
  return fc
    .array(fc.tuple(fc.constantFrom(...keys), fc.oneof(nastyString, nastyNumber.map(String))), { maxLength: 4 })
    .map((pairs) => pairs.map(([key, value]) => `${percent(key)}=${percent(value)}`).join('&'));
}

/** A path for the route's URL with each `:param` replaced by something nasty (sometimes raw, unencoded). */
function pathFor(url: string): fc.Arbitrary<string> {
  const params = url.match(/:[A-Za-z_]+/g) ?? [];
  return fc
    .tuple(
      ...params.map(() =>
        fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...knownIds) },
          { weight: 2, arbitrary: fc.uuid() },
          { weight: 2, arbitrary: nastyString.map(percent) },
          { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%00', 'a'.repeat(300), 'x.wav', '..') },
        ),
      ),
    )
    .map((values) => {
      let path = url;
      values.forEach((value, i) => (path = path.replace(params[i]!, value || 'x')));
      return path.replace(/\*$/, 'x');
    });
}

describe('bad input to every route: a clear 4xx, never a 5xx, nothing changed', () => {
  test('the app has routes to try', () => {
    expect(ctx.app.routeTable.length).toBeGreaterThan(50);
  });

  test('generated bodies, paths and queries (property)', async () => {
    const routes = ctx.app.routeTable.filter((route) => route.method !== 'HEAD' && route.url.startsWith('/api/v1'));
    const failures: string[] = [];
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(
          pathFor(route.url),
          queryFor(route.schema),
          bodyFor(route.schema, VALID_BODIES[`${route.method} ${route.url.replace(/\/$/, '')}`]),
          fc.constantFrom('user', 'admin', 'none'),
          fc.oneof(
            { weight: 8, arbitrary: fc.constant('application/json') },
            {
              weight: 1,
              arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1'),
            },
          ),
          async (path, query, body, who, contentType) => {
            const before = await snapshot();
            const withBody = route.method !== 'GET' && route.method !== 'DELETE';
            const response = await ctx.app.inject({
              method: route.method as 'GET',
              url: query ? `${path}?${query}` : path,
              headers: {
                ...(who === 'user' ? { authorization: `Bearer ${userToken}` } : {}),
                ...(who === 'admin' ? { authorization: `Bearer ${adminToken}` } : {}),
                ...(withBody ? { 'content-type': contentType } : {}),
              },
              ...(withBody ? { payload: JSON.stringify(body) ?? 'null' } : {}),
            });
            const where = `${route.method} ${path.slice(0, 80)}?${query.slice(0, 60)} (${who}, ${contentType}) -> ${response.statusCode} ${response.body.slice(0, 160)}`;
            if (response.statusCode >= 500) failures.push(where);
            if (response.statusCode >= 400) {
              let detail: unknown;
              try {
                detail = (response.json() as { detail?: unknown }).detail;
              } catch {
                detail = undefined;
              }
              if (typeof detail !== 'string') failures.push(`${where} (no detail)`);
              if ((await snapshot()) !== before) failures.push(`${where} (changed rows)`);
            }
          },
        ),
        { numRuns: 30 },
      );
    }
    // Every failure at once, so one run shows them all.
    expect(failures).toEqual([]);
  }, 600_000);

  test('a body over the limit answers 413 with a detail, in the caller’s language', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: 'x'.repeat(5 * 1024 * 1024),
      headers: { 'content-type': 'application/json', 'accept-language': 'pt-BR' },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ detail: 'O corpo da requisição é grande demais' });
  });

  test('an overlong path segment answers 414, a broken one 400, both with a detail', async () => {
    const userToken = (await signUp(ctx.app)).token;
    const long = await call(ctx.app, 'GET', `/api/v1/channels/${'a'.repeat(5000)}`, { token: userToken });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ detail: 'The address is too long' });
    const broken = await call(ctx.app, 'GET', '/api/v1/channels/%zz', { token: userToken });
    expect(broken.statusCode).toBe(400);
    expect(typeof broken.json().detail).toBe('string');
  });

  test('numbers stay numbers: a key sent as a number is refused, not stored as text', async () => {
    // The generated requests may have signed the first user out, or changed its password: a new one.
    const userToken = (await signUp(ctx.app)).token;
    const response = await call(ctx.app, 'POST', '/api/v1/chatgpt/config', { token: userToken, body: { api_key: 123 } });
    expect(response.statusCode).toBe(400);
    expect((await call(ctx.app, 'GET', '/api/v1/chatgpt/config', { token: userToken })).statusCode).toBe(404);
  });

  test('a NUL byte in any text is refused before it reaches the database', async () => {
    const userToken = (await signUp(ctx.app)).token;
    for (const [method, url, body] of [
      ['POST', '/api/v1/channels/', { channel_id: 'UC0123456789abcdefghijkl', name: 'a\u0000b' }],
      ['POST', '/api/v1/auth/login', { email: 'a\u0000@b.c', password: 'x' }],
      [
        'POST',
        '/api/v1/youtube-apis/',
        { name: 'n', client_id: 'c\u0000', client_secret: 's', channel_id: 'UC0123456789abcdefghijkl' },
      ],
    ] as const) {
      const response = await call(ctx.app, method, url, { token: userToken, body });
      expect(response.statusCode).toBe(400);
      expect(response.json().detail).toMatch(/control character/);
    }
    const search = await call(ctx.app, 'GET', '/api/v1/publications/?search=%00', { token: userToken });
    expect(search.statusCode).toBe(400);
  });

  test('paging past any list, or with a number no database takes, is a 400', async () => {
    const userToken = (await signUp(ctx.app)).token;
    for (const skip of ['1e400', '18446744073709551616', '-1', 'abc']) {
      const response = await call(ctx.app, 'GET', `/api/v1/channels/?skip=${skip}`, { token: userToken });
      expect(response.statusCode).toBe(400);
      expect(typeof response.json().detail).toBe('string');
    }
  });

  test('a plan name is one of the catalogue’s own keys, never an inherited one', async () => {
    const userToken = (await signUp(ctx.app)).token;
    for (const plan of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const response = await call(ctx.app, 'PUT', '/api/v1/subscription/', { token: userToken, body: { plan } });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
    }
    expect((await call(ctx.app, 'GET', '/api/v1/subscription/', { token: userToken })).statusCode).toBe(200);
  });
});
