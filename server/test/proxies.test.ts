import net from 'node:net';
import selfsigned from 'selfsigned';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { SecretBox } from '../src/lib/secrets';
import { checkProxy } from '../src/providers/proxyCheck';
import { OUTBOUND_URLS_TTL_MS, createProxyService } from '../src/services/proxies';
import {
  closedPort,
  startHttpProxy,
  startSilentServer,
  startSocks5Proxy,
  startTarget,
  startTlsTarget,
  type ProxyLog,
  type Running,
} from '../fakes/proxies';
import { TEST_ADMIN_EMAIL, UPSTREAM_HTML, buildTestApp, call, expectNoUpstreamText, signUp, type TestContext } from './helper';

const HTTP_USER = 'proxyuser';
const HTTP_PASSWORD = 'http-Secret:P@ss/1';
const SOCKS_USER = 'socksuser';
const SOCKS_PASSWORD = 'socks-Secret-W0rd';
/** Every plaintext password used here: none may ever appear in an answer. */
const PASSWORDS = [HTTP_PASSWORD, encodeURIComponent(HTTP_PASSWORD), SOCKS_PASSWORD, 'wrong-password-123', 'another-Secret-456'];

let ctx: TestContext;
let admin: string;
let user: string;
let target: Running & { requests: { method: string; url: string; host: string }[] };
let httpProxy: Running & ProxyLog;
let socksProxy: Running & ProxyLog;
let silent: Running;
let deadPort: number;
const answers: string[] = [];

beforeAll(async () => {
  target = await startTarget();
  httpProxy = await startHttpProxy({ username: HTTP_USER, password: HTTP_PASSWORD });
  socksProxy = await startSocks5Proxy({ username: SOCKS_USER, password: SOCKS_PASSWORD });
  silent = await startSilentServer();
  deadPort = await closedPort();
  ctx = await buildTestApp({ PROXY_CHECK_URL: `http://localhost:${target.port}/generate_204?from=test` });
  admin = (await signUp(ctx.app, { email: TEST_ADMIN_EMAIL })).token;
  user = (await signUp(ctx.app)).token;
});

afterAll(async () => {
  await ctx.close();
  await Promise.all([target.close(), httpProxy.close(), socksProxy.close(), silent.close()]);
});

/** Calls the API (as the admin unless told otherwise) and keeps every answer's raw text. */
async function api(
  method: InjectOptions['method'],
  url: string,
  options: { body?: unknown; token?: string | null; headers?: Record<string, string> } = {},
) {
  const token = options.token === null ? undefined : (options.token ?? admin);
  const response = await call(ctx.app, method, `/api/v1/proxies${url}`, { body: options.body, token, headers: options.headers });
  answers.push(response.body);
  return response;
}

const httpUrl = (password = HTTP_PASSWORD) => `http://${HTTP_USER}:${encodeURIComponent(password)}@127.0.0.1:${httpProxy.port}`;
const socksUrl = (password = SOCKS_PASSWORD) =>
  `socks5://${SOCKS_USER}:${encodeURIComponent(password)}@127.0.0.1:${socksProxy.port}`;

async function createProxy(name: string, url: string): Promise<{ id: string; url: string; has_password: boolean }> {
  const response = await api('POST', '/', { body: { name, url } });
  expect(response.statusCode).toBe(201);
  return response.json();
}

async function stored(
  id: string,
): Promise<{ url: string; password_enc: string | null; is_connected: boolean; last_tested: unknown }> {
  const result = await ctx.database.db.execute(
    sql`select url, password_enc, is_connected, last_tested from proxies where id = ${id}`,
  );
  return (
    result as unknown as { rows: { url: string; password_enc: string | null; is_connected: boolean; last_tested: unknown }[] }
  ).rows[0]!;
}

async function proxyCount(): Promise<number> {
  const result = await ctx.database.db.execute(sql`select count(*)::int as n from proxies`);
  return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

describe('access', () => {
  let id: string;
  beforeAll(async () => {
    ({ id } = await createProxy('Access check', `http://127.0.0.1:${deadPort}`));
  });

  const calls: [InjectOptions['method'], string, unknown][] = [
    ['GET', '/', undefined],
    ['GET', '/:id', undefined],
    ['POST', '/', { name: 'x', url: 'http://10.0.0.1:8080' }],
    ['PUT', '/:id', { name: 'renamed' }],
    ['PUT', '/:id/toggle', undefined],
    ['POST', '/:id/test', undefined],
    ['DELETE', '/:id', undefined],
  ];

  test.each(calls)('%s /proxies%s: 403 for a normal user, 401 without a session', async (method, path, body) => {
    const before = await proxyCount();
    const forbidden = await api(method, path.replace(':id', id), { body, token: user });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ detail: 'Only administrators can do this' });
    const anonymous = await api(method, path.replace(':id', id), { body, token: null });
    expect(anonymous.statusCode).toBe(401);
    expect(await proxyCount()).toBe(before);
    expect((await api('GET', `/${id}`)).json()).toMatchObject({ name: 'Access check', is_active: true, last_tested: null });
  });
});

describe('create, read, list', () => {
  test('creates a proxy: the password is sealed apart and answered masked', async () => {
    const response = await api('POST', '/', { body: { name: '  Office proxy  ', url: `  ${httpUrl()}/ ` } });
    expect(response.statusCode).toBe(201);
    const proxy = response.json();
    expect(proxy).toEqual({
      id: expect.any(String),
      name: 'Office proxy',
      url: `http://${HTTP_USER}:••••@127.0.0.1:${httpProxy.port}`,
      has_password: true,
      is_active: true,
      is_connected: false,
      last_tested: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(response.body).not.toContain(HTTP_PASSWORD);
    const row = await stored(proxy.id);
    expect(row.url).toBe(`http://${HTTP_USER}@127.0.0.1:${httpProxy.port}`);
    expect(row.password_enc).toMatch(/^v1:/);
    expect(row.password_enc).not.toContain(HTTP_PASSWORD);
    expect(row.password_enc).not.toContain(encodeURIComponent(HTTP_PASSWORD));
    expect(new SecretBox(ctx.config.appSecret).open(row.password_enc!)).toBe(HTTP_PASSWORD);
  });

  test.each([
    ['HTTP://Proxy.Example.COM:8080/', 'http://proxy.example.com:8080', false],
    ['http://10.0.0.1:80', 'http://10.0.0.1:80', false],
    ['https://gate.example.com:443', 'https://gate.example.com:443', false],
    ['socks5://Socks.Example.com:1080', 'socks5://socks.example.com:1080', false],
    ['socks5://onlyuser@10.0.0.2:1080', 'socks5://onlyuser@10.0.0.2:1080', false],
    ['http://u:p@[2001:db8::1]:3128', 'http://u:••••@[2001:db8::1]:3128', true],
  ])('accepts %s as %s', async (input, answered, hasPassword) => {
    const proxy = await createProxy('Form', input);
    expect(proxy.url).toBe(answered);
    expect(proxy.has_password).toBe(hasPassword);
  });

  test.each([
    [
      { name: 'x', url: 'ftp://10.0.0.1:21' },
      422,
      /^Invalid proxy URL\. Use http:\/\/, https:\/\/ or socks5:\/\/ with host and port/,
    ],
    [{ name: 'x', url: 'socks4://10.0.0.1:1080' }, 422, /^Invalid proxy URL/],
    [{ name: 'x', url: 'http://10.0.0.1' }, 422, /^Invalid proxy URL/],
    [{ name: 'x', url: 'socks5://proxy.example.com' }, 422, /^Invalid proxy URL/],
    [{ name: 'x', url: 'http://:8080' }, 422, /^Invalid proxy URL/],
    [{ name: 'x', url: 'socks5://user:pass@:1080' }, 422, /^Invalid proxy URL/],
    [{ name: 'x', url: 'http://10.0.0.1:0' }, 422, /^Invalid proxy URL/],
    [{ name: 'x', url: 'http://10.0.0.1:70000' }, 422, /^Invalid proxy URL/],
    [{ name: 'x', url: 'http://10.0.0.1:8080/path' }, 422, /^Invalid proxy URL/],
    [{ name: 'x', url: 'http://10.0.0.1:8080?a=1' }, 422, /^Invalid proxy URL/],
    [{ name: 'x', url: 'not a url' }, 422, /^Invalid proxy URL/],
    [{ name: 'x', url: '10.0.0.1:8080' }, 422, /^Invalid proxy URL/],
    [{ name: 'x', url: '   ' }, 422, /^The proxy URL is required$/],
    [{ name: '   ', url: 'http://10.0.0.1:8080' }, 422, /^The proxy name is required$/],
    [{ url: 'http://10.0.0.1:8080' }, 400, /name/],
    [{ name: 'x' }, 400, /url/],
    [{ name: 'x', url: 'http://10.0.0.1:8080', is_active: false }, 400, /additional/],
  ])('refuses %j and creates nothing', async (body, status, detail) => {
    const before = await proxyCount();
    const response = await api('POST', '/', { body });
    expect(response.statusCode).toBe(status);
    expect(response.json().detail).toMatch(detail);
    expect(await proxyCount()).toBe(before);
  });

  test('answers validation messages in Portuguese', async () => {
    const response = await api('POST', '/', {
      body: { name: 'x', url: 'http://10.0.0.1' },
      headers: { 'accept-language': 'pt-BR' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toBe(
      'URL de proxy inválida. Use http://, https:// ou socks5:// com host e porta, por exemplo socks5://usuario:senha@10.0.0.1:1080',
    );
  });

  test('gets one proxy; unknown is 404, a malformed id 400', async () => {
    const { id } = await createProxy('Get me', `socks5://127.0.0.1:${deadPort}`);
    const one = await api('GET', `/${id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id, name: 'Get me', url: `socks5://127.0.0.1:${deadPort}`, has_password: false });
    const missing = await api('GET', '/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Proxy not found' });
    const missingPt = await api('GET', '/00000000-0000-4000-8000-000000000000', { headers: { 'accept-language': 'pt' } });
    expect(missingPt.json()).toEqual({ detail: 'Proxy não encontrado' });
    expect((await api('GET', '/not-a-uuid')).statusCode).toBe(400);
  });

  test('lists all proxies (shared by the admins, whoever created them), paged, with active_only', async () => {
    // A proxy whose creator is gone (user_id null) is still everyone's.
    await ctx.database.db.execute(sql`insert into proxies (name, url) values ('Orphan', 'http://10.9.9.9:3128')`);
    const all = await api('GET', '/');
    expect(all.statusCode).toBe(200);
    const { proxies, total } = all.json() as { proxies: { id: string; is_active: boolean }[]; total: number };
    expect(total).toBe(await proxyCount());
    expect(proxies).toHaveLength(total);
    expect(proxies).toContainEqual(expect.objectContaining({ name: 'Orphan', url: 'http://10.9.9.9:3128', has_password: false }));

    const page = await api('GET', '/?skip=1&limit=2');
    expect(page.json().proxies.map((p: { id: string }) => p.id)).toEqual(proxies.slice(1, 3).map((p) => p.id));
    expect(page.json().total).toBe(total);

    await api('PUT', `/${proxies[0]!.id}/toggle`);
    const active = await api('GET', '/?active_only=true');
    expect(active.json().total).toBe(total - 1);
    expect(active.json().proxies.every((p: { is_active: boolean }) => p.is_active)).toBe(true);
    await api('PUT', `/${proxies[0]!.id}/toggle`);

    expect((await api('GET', '/?limit=0')).statusCode).toBe(400);
    expect((await api('GET', '/?mine=true')).statusCode).toBe(400);
  });
});

describe('test through real proxies', () => {
  test('through the HTTP CONNECT proxy with Basic credentials', async () => {
    const { id } = await createProxy('HTTP ok', httpUrl());
    ctx.clock.advance(60_000);
    const tunnelsBefore = httpProxy.tunnels.length;
    const requestsBefore = target.requests.length;
    const response = await api('POST', `/${id}/test`);
    expect(response.statusCode).toBe(200);
    const result = response.json();
    expect(result).toEqual({
      is_connected: true,
      last_tested: ctx.clock.now.toISOString(),
      detail: expect.stringMatching(/^Proxy connected successfully \(\d+ ms\)$/),
      latency_ms: expect.any(Number),
    });
    expect(httpProxy.tunnels.slice(tunnelsBefore)).toEqual([`localhost:${target.port}`]);
    expect(target.requests.slice(requestsBefore)).toEqual([
      { method: 'HEAD', url: '/generate_204?from=test', host: `localhost:${target.port}` },
    ]);
    expect((await api('GET', `/${id}`)).json()).toMatchObject({ is_connected: true, last_tested: ctx.clock.now.toISOString() });
  });

  test('through the SOCKS5 proxy with username and password, asking for the target by name', async () => {
    const { id } = await createProxy('SOCKS ok', socksUrl());
    const before = socksProxy.addressTypes.length;
    const response = await api('POST', `/${id}/test`, { headers: { 'accept-language': 'pt-BR' } });
    expect(response.json()).toMatchObject({
      is_connected: true,
      detail: expect.stringMatching(/^Proxy conectado com sucesso \(\d+ ms\)$/),
    });
    expect(socksProxy.addressTypes.slice(before)).toEqual([3]);
    expect(socksProxy.tunnels).toContain(`localhost:${target.port}`);
  });

  test('a wrong HTTP proxy password: 407, stored as disconnected with last_tested', async () => {
    const { id } = await createProxy('HTTP wrong', httpUrl('wrong-password-123'));
    const refusals = httpProxy.refusals;
    ctx.clock.advance(1000);
    const response = await api('POST', `/${id}/test`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      is_connected: false,
      last_tested: ctx.clock.now.toISOString(),
      detail: 'Failed to connect to proxy. Check the URL. (proxy refused the tunnel: 407)',
      latency_ms: null,
    });
    expect(httpProxy.refusals).toBe(refusals + 1);
    const row = await stored(id);
    expect(row.is_connected).toBe(false);
    expect(row.last_tested).not.toBeNull();
  });

  test('a wrong SOCKS5 password fails the authentication', async () => {
    const { id } = await createProxy('SOCKS wrong', socksUrl('wrong-password-123'));
    const response = await api('POST', `/${id}/test`);
    expect(response.json()).toMatchObject({
      is_connected: false,
      detail: 'Failed to connect to proxy. Check the URL. (SOCKS5 authentication failed: check the username and password)',
    });
  });

  test('a SOCKS5 proxy that needs credentials, given none', async () => {
    const { id } = await createProxy('SOCKS none', `socks5://127.0.0.1:${socksProxy.port}`);
    const response = await api('POST', `/${id}/test`, { headers: { 'accept-language': 'pt' } });
    expect(response.json()).toMatchObject({
      is_connected: false,
      detail: 'Falha ao conectar ao proxy. Verifique a URL. (o proxy SOCKS5 exige usuário e senha)',
    });
  });

  test('a closed port: connection refused; a connected proxy becomes disconnected', async () => {
    const { id } = await createProxy('Closed', `http://127.0.0.1:${deadPort}`);
    await ctx.database.db.execute(sql`update proxies set is_connected = true where id = ${id}`);
    const response = await api('POST', `/${id}/test`);
    expect(response.json()).toMatchObject({
      is_connected: false,
      detail: 'Failed to connect to proxy. Check the URL. (connection refused)',
      latency_ms: null,
    });
    expect(await stored(id)).toMatchObject({ is_connected: false });
    const pt = await api('POST', `/${id}/test`, { headers: { 'accept-language': 'pt-BR' } });
    expect(pt.json().detail).toBe('Falha ao conectar ao proxy. Verifique a URL. (conexão recusada)');
  });

  test('a proxy refusing the tunnel with an HTML error page is reported by its status, never its page', async () => {
    const gateway = net.createServer((socket) => {
      socket.once('data', () => {
        socket.end(
          `HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/html\r\ncontent-length: ${Buffer.byteLength(UPSTREAM_HTML)}\r\n\r\n${UPSTREAM_HTML}`,
        );
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    try {
      const { id } = await createProxy('Gateway', `http://127.0.0.1:${(gateway.address() as net.AddressInfo).port}`);
      const en = await api('POST', `/${id}/test`);
      const pt = await api('POST', `/${id}/test`, { headers: { 'accept-language': 'pt-BR' } });
      expect(en.json()).toMatchObject({
        is_connected: false,
        detail: 'Failed to connect to proxy. Check the URL. (proxy refused the tunnel: 502)',
      });
      expect(pt.json().detail).toBe('Falha ao conectar ao proxy. Verifique a URL. (o proxy recusou o túnel: 502)');
      expectNoUpstreamText(en.body + pt.body + (await api('GET', '/')).body);
    } finally {
      await new Promise<void>((resolve) => gateway.close(() => resolve()));
    }
  });

  test('a disabled proxy cannot be tested (422) and keeps its state', async () => {
    const { id } = await createProxy('Disabled', httpUrl());
    const toggled = await api('PUT', `/${id}/toggle`);
    expect(toggled.statusCode).toBe(200);
    expect(toggled.json()).toMatchObject({ id, is_active: false });
    const response = await api('POST', `/${id}/test`);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: 'This proxy is disabled; enable it before testing it' });
    expect((await api('GET', `/${id}`)).json()).toMatchObject({ is_active: false, last_tested: null, is_connected: false });
    expect((await api('POST', '/00000000-0000-4000-8000-000000000000/test')).statusCode).toBe(404);
  });

  test('a proxy that accepts and never answers times out (short limit injected)', async () => {
    const { id } = await createProxy('Stuck', `socks5://127.0.0.1:${silent.port}`);
    const service = createProxyService({
      db: ctx.database.db,
      now: () => ctx.clock.now,
      secrets: new SecretBox(ctx.config.appSecret),
      proxyCheckUrl: ctx.config.proxyCheckUrl,
      checkTimeoutMs: 300,
      allowPrivate: true,
    });
    const started = Date.now();
    const result = await service.test(id, 'en');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result).toEqual({
      is_connected: false,
      last_tested: ctx.clock.now.toISOString(),
      detail: 'Failed to connect to proxy. Check the URL. (timed out after 0.3 s)',
      latency_ms: null,
    });
    expect(await stored(id)).toMatchObject({ is_connected: false, last_tested: expect.anything() });
  });
});

describe('update, toggle, delete', () => {
  test('renames without touching the URL, password or connection', async () => {
    const { id } = await createProxy('Before', httpUrl());
    await api('POST', `/${id}/test`);
    const sealed = (await stored(id)).password_enc;
    ctx.clock.advance(5000);
    const response = await api('PUT', `/${id}`, { body: { name: ' After ' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      name: 'After',
      has_password: true,
      is_connected: true,
      updated_at: ctx.clock.now.toISOString(),
    });
    expect((await stored(id)).password_enc).toBe(sealed);
  });

  test('a masked password keeps the stored one (proved by an authenticated test)', async () => {
    const { id, url } = await createProxy('Masked', httpUrl());
    const response = await api('PUT', `/${id}`, { body: { url } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ url, has_password: true });
    expect((await api('POST', `/${id}/test`)).json()).toMatchObject({ is_connected: true });
    // The URL percent-encoded by a browser is recognised too.
    const encoded = `http://${HTTP_USER}:${encodeURIComponent('••••')}@127.0.0.1:${httpProxy.port}`;
    expect((await api('PUT', `/${id}`, { body: { url: encoded } })).json()).toMatchObject({ is_connected: true });
    expect((await api('POST', `/${id}/test`)).json()).toMatchObject({ is_connected: true });
  });

  test('a blank password keeps the stored one', async () => {
    const { id } = await createProxy('Blank', socksUrl());
    for (const url of [
      `socks5://${SOCKS_USER}@127.0.0.1:${socksProxy.port}`,
      `socks5://${SOCKS_USER}:@127.0.0.1:${socksProxy.port}`,
    ]) {
      const response = await api('PUT', `/${id}`, { body: { url } });
      expect(response.json()).toMatchObject({
        url: `socks5://${SOCKS_USER}:••••@127.0.0.1:${socksProxy.port}`,
        has_password: true,
      });
      expect((await api('POST', `/${id}/test`)).json()).toMatchObject({ is_connected: true });
    }
  });

  test('a new password replaces the stored one and resets the connection', async () => {
    const { id } = await createProxy('Replace', httpUrl());
    expect((await api('POST', `/${id}/test`)).json()).toMatchObject({ is_connected: true });
    const wrong = await api('PUT', `/${id}`, { body: { url: httpUrl('another-Secret-456') } });
    expect(wrong.json()).toMatchObject({ is_connected: false, has_password: true });
    expect(new SecretBox(ctx.config.appSecret).open((await stored(id)).password_enc!)).toBe('another-Secret-456');
    expect((await api('POST', `/${id}/test`)).json()).toMatchObject({
      is_connected: false,
      detail: expect.stringContaining('407'),
    });
    await api('PUT', `/${id}`, { body: { url: httpUrl() } });
    expect((await api('POST', `/${id}/test`)).json()).toMatchObject({ is_connected: true });
  });

  test('changing the URL resets is_connected; the same URL again does not', async () => {
    const { id } = await createProxy('Move', socksUrl());
    expect((await api('POST', `/${id}/test`)).json()).toMatchObject({ is_connected: true });
    const same = await api('PUT', `/${id}`, { body: { url: socksUrl() } });
    expect(same.json()).toMatchObject({ is_connected: true });
    // A new address with the masked password is refused: the stored password never follows the
    // proxy to another host without being typed again.
    const sealed = (await stored(id)).password_enc;
    const masked = await api('PUT', `/${id}`, { body: { url: `socks5://${SOCKS_USER}:••••@localhost:${socksProxy.port}` } });
    expect(masked.statusCode).toBe(422);
    expect(masked.json()).toEqual({ detail: 'Type the proxy password again when you change its address.' });
    expect((await stored(id)).password_enc).toBe(sealed);
    const moved = await api('PUT', `/${id}`, {
      body: { url: `socks5://${SOCKS_USER}:${SOCKS_PASSWORD}@localhost:${socksProxy.port}` },
    });
    expect(moved.json()).toMatchObject({ is_connected: false, url: `socks5://${SOCKS_USER}:••••@localhost:${socksProxy.port}` });
    expect((await stored(id)).last_tested).not.toBeNull();
    expect((await api('POST', `/${id}/test`)).json()).toMatchObject({ is_connected: true });
  });

  test('a URL without credentials removes the password', async () => {
    const { id } = await createProxy('Drop', httpUrl());
    const response = await api('PUT', `/${id}`, { body: { url: `http://127.0.0.1:${httpProxy.port}` } });
    expect(response.json()).toMatchObject({
      url: `http://127.0.0.1:${httpProxy.port}`,
      has_password: false,
      is_connected: false,
    });
    expect((await stored(id)).password_enc).toBeNull();
  });

  test.each([
    [{ url: 'gopher://10.0.0.1:70' }, 422, /^Invalid proxy URL/],
    [{ url: 'http://10.0.0.1' }, 422, /^Invalid proxy URL/],
    [{ name: ' ' }, 422, /^The proxy name is required$/],
    [{ name: 'ok', url: '' }, 422, /^The proxy URL is required$/],
    [{ name: 'ok', is_active: true }, 400, /additional/],
  ])('refuses an update %j and changes nothing', async (body, status, detail) => {
    const { id } = await createProxy('Unchanged', httpUrl());
    const before = await stored(id);
    const response = await api('PUT', `/${id}`, { body });
    expect(response.statusCode).toBe(status);
    expect(response.json().detail).toMatch(detail);
    expect(await stored(id)).toEqual(before);
    expect((await api('GET', `/${id}`)).json()).toMatchObject({ name: 'Unchanged' });
  });

  test('an unknown proxy is 404 for update, toggle and delete', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await api('PUT', `/${missing}`, { body: { name: 'x' } })).statusCode).toBe(404);
    expect((await api('PUT', `/${missing}/toggle`)).statusCode).toBe(404);
    expect((await api('DELETE', `/${missing}`)).statusCode).toBe(404);
  });

  test('toggle flips is_active both ways', async () => {
    const { id } = await createProxy('Toggle', httpUrl());
    expect((await api('PUT', `/${id}/toggle`)).json()).toMatchObject({ is_active: false });
    expect((await api('PUT', `/${id}/toggle`)).json()).toMatchObject({ is_active: true });
  });

  test('deletes a proxy', async () => {
    const { id } = await createProxy('Delete me', httpUrl());
    const before = await proxyCount();
    const response = await api('DELETE', `/${id}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await proxyCount()).toBe(before - 1);
    expect((await api('GET', `/${id}`)).statusCode).toBe(404);
    expect((await api('DELETE', `/${id}`)).statusCode).toBe(404);
  });
});

describe("the runs' outbound list", () => {
  test('a process rereads it at most every few seconds; its own changes show at once, another process’s within that time', async () => {
    const serviceOf = () =>
      createProxyService({
        db: ctx.database.db,
        now: () => ctx.clock.now,
        secrets: new SecretBox(ctx.config.appSecret),
        proxyCheckUrl: ctx.config.proxyCheckUrl,
        allowPrivate: true,
      });
    const worker = serviceOf();
    const api = serviceOf();
    const before = await worker.outboundUrls();
    expect(await api.outboundUrls()).toEqual(before);
    const owner = (await signUp(ctx.app)).user.id;
    const created = await api.create(owner, {
      name: 'Outbound list',
      url: `http://lister:list-Secret-9@127.0.0.1:${httpProxy.port}`,
    });
    const url = `http://lister:list-Secret-9@127.0.0.1:${httpProxy.port}/`;
    expect(await api.outboundUrls()).toContain(url);
    // The worker's list was read just now: kept, not read again for every run.
    expect(await worker.outboundUrls()).toEqual(before);
    ctx.clock.advance(OUTBOUND_URLS_TTL_MS);
    expect(await worker.outboundUrls()).toContain(url);

    await api.toggle(created.id);
    expect(await api.outboundUrls()).not.toContain(url);
    ctx.clock.advance(OUTBOUND_URLS_TTL_MS);
    expect(await worker.outboundUrls()).not.toContain(url);
    await api.remove(created.id);
  });
});

describe('checkProxy', () => {
  test('a server that is not a SOCKS5 proxy', async () => {
    const result = await checkProxy({
      allowPrivate: true,
      url: new URL(`socks5://127.0.0.1:${target.port}`),
      target: ctx.config.proxyCheckUrl,
    });
    expect(result).toMatchObject({ ok: false, latencyMs: null, error: 'the server does not speak the SOCKS5 proxy protocol' });
  });

  test('a server that answers a CONNECT with something other than HTTP is not an HTTP proxy', async () => {
    const notHttp = net.createServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.2\r\n\r\n'));
    });
    await new Promise<void>((resolve) => notHttp.listen(0, '127.0.0.1', resolve));
    try {
      const result = await checkProxy({
        allowPrivate: true,
        url: new URL(`http://127.0.0.1:${(notHttp.address() as net.AddressInfo).port}`),
        target: ctx.config.proxyCheckUrl,
      });
      expect(result).toMatchObject({ ok: false, error: 'the server does not speak the HTTP proxy protocol' });
    } finally {
      await new Promise<void>((resolve) => notHttp.close(() => resolve()));
    }
  });

  test('a target that answers something other than HTTP through a working tunnel (HTTP and SOCKS5)', async () => {
    const garbage = net.createServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => socket.end('\u0000\u0001 not http at all\r\n\r\n'));
    });
    await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
    try {
      const target = `http://127.0.0.1:${(garbage.address() as net.AddressInfo).port}/`;
      for (const proxyUrl of [httpUrl(), socksUrl()]) {
        const result = await checkProxy({ allowPrivate: true, url: new URL(proxyUrl), target });
        expect(result).toMatchObject({ ok: false, error: 'the answer through the tunnel is not HTTP' });
      }
    } finally {
      await new Promise<void>((resolve) => garbage.close(() => resolve()));
    }
  });

  test('the timeout destroys the connection and says so', async () => {
    const started = Date.now();
    const result = await checkProxy({
      allowPrivate: true,
      url: new URL(`http://127.0.0.1:${silent.port}`),
      target: ctx.config.proxyCheckUrl,
      timeoutMs: 200,
    });
    expect(result).toEqual({ ok: false, latencyMs: null, error: 'timed out after 0.2 s', failure: expect.any(Object) });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test('a host that does not resolve', async () => {
    const result = await checkProxy({
      allowPrivate: true,
      url: new URL('http://no-such-host.invalid:8080'),
      target: ctx.config.proxyCheckUrl,
      timeoutMs: 5000,
    });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^proxy host no-such-host\.invalid not found$|^timed out/);
  });

  describe('TLS (self-signed certificate for localhost)', () => {
    // A self-signed certificate for localhost and 127.0.0.1, made for this run (no key is kept in the
    // repository, and no tool on the machine is needed).
    const tlsOptions = { key: '', cert: '' };
    beforeAll(async () => {
      const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
        keySize: 2048,
        extensions: [
          {
            name: 'subjectAltName',
            altNames: [
              { type: 2, value: 'localhost' },
              { type: 7, ip: '127.0.0.1' },
            ],
          },
        ],
      });
      tlsOptions.key = pems.private;
      tlsOptions.cert = pems.cert;
    }, 60_000);

    test('an https:// proxy and an https target through the tunnel', async () => {
      const tlsProxy = await startHttpProxy({ username: HTTP_USER, password: HTTP_PASSWORD, tlsOptions });
      const tlsTarget = await startTlsTarget(tlsOptions);
      try {
        const proxyUrl = new URL(`https://${HTTP_USER}@localhost:${tlsProxy.port}`);
        proxyUrl.password = HTTP_PASSWORD;
        const targetUrl = `https://localhost:${tlsTarget.port}/generate_204`;
        const ok = await checkProxy({ allowPrivate: true, url: proxyUrl, target: targetUrl, ca: tlsOptions.cert });
        expect(ok).toMatchObject({ ok: true, latencyMs: expect.any(Number) });
        expect(tlsTarget.requests).toBe(1);
        expect(tlsProxy.tunnels).toEqual([`localhost:${tlsTarget.port}`]);

        // Without trusting the certificate, the TLS handshake with the proxy fails.
        const untrusted = await checkProxy({ allowPrivate: true, url: proxyUrl, target: targetUrl });
        expect(untrusted.ok).toBe(false);
        expect(untrusted.error).toMatch(/^TLS handshake failed \(.+\)$/);

        // TLS to the target runs through a plain HTTP proxy's tunnel, and is verified.
        const plainProxy = new URL(`http://${HTTP_USER}@127.0.0.1:${httpProxy.port}`);
        plainProxy.password = HTTP_PASSWORD;
        expect(await checkProxy({ allowPrivate: true, url: plainProxy, target: targetUrl, ca: tlsOptions.cert })).toMatchObject({
          ok: true,
        });
        const unverified = await checkProxy({ allowPrivate: true, url: plainProxy, target: targetUrl });
        expect(unverified.error).toMatch(/^TLS handshake failed/);
        expect(tlsTarget.requests).toBe(2);
      } finally {
        await Promise.all([tlsProxy.close(), tlsTarget.close()]);
      }
    });
  });
});

test('no answer ever carried a password', () => {
  expect(answers.length).toBeGreaterThan(50);
  for (const body of answers) {
    for (const password of PASSWORDS) expect(body).not.toContain(password);
  }
});
