import { ROUTE_SUMMARIES } from '../src/routes/openapi';
import { buildTestApp, call, type TestContext } from './helper';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => {
  await ctx.close();
});

interface Operation {
  summary?: string;
  tags?: string[];
  security?: unknown[];
  responses?: Record<string, unknown>;
}

/** "/api/v1/channels/{id}" → "/api/v1/channels/:id", as the routes spell it. */
const routeOf = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

describe('the API reference', () => {
  test('/api/v1/openapi.json documents every API route, each with a summary, a tag and its answers', async () => {
    const response = await call(ctx.app, 'GET', '/api/v1/openapi.json');
    expect(response.statusCode).toBe(200);
    const document = response.json() as { openapi: string; paths: Record<string, Record<string, Operation>> };
    expect(document.openapi).toBe('3.1.0');

    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${routeOf(path)}`, operation })),
    );
    const routes = ctx.app.routeTable
      .filter((route) => route.method !== 'HEAD' && route.url.startsWith('/api/v1/') && route.url !== '/api/v1/openapi.json')
      .map((route) => `${route.method} ${route.url}`);
    expect(documented.map((entry) => entry.key).sort()).toEqual([...new Set(routes)].sort());

    for (const { key, operation } of documented) {
      const summary = ROUTE_SUMMARIES[key] ?? ROUTE_SUMMARIES[`${key}/`];
      expect({ key, summary: operation.summary }).toEqual({ key, summary: expect.stringMatching(/^\S.{4,}/) });
      expect(operation.summary).toBe(summary);
      expect({ key, tags: operation.tags?.length }).toEqual({ key, tags: 1 });
      expect(Object.keys(operation.responses ?? {}).length).toBeGreaterThan(0);
    }
    // A route that needs a session says so; a public one does not.
    const get = (key: string) => documented.find((entry) => entry.key === key)!.operation;
    expect(get('GET /api/v1/channels').security).toEqual([{ bearer: [] }]);
    expect(get('POST /api/v1/auth/login').security).toEqual([]);
    // The errors a caller can get are documented with their {detail}.
    expect(Object.keys(get('POST /api/v1/channels').responses!)).toEqual(expect.arrayContaining(['201', '400', '401']));
  });

  test('/api/docs is the reference page, served from the package (no outside address), with its own script policy', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).not.toMatch(/(src|href)="https?:\/\//);
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'");
    const script = page.body.match(/src="\.\/([^"]+\.js)"/)?.[1];
    expect(script).toBeDefined();
    expect((await ctx.app.inject({ method: 'GET', url: `/api/docs/${script}` })).statusCode).toBe(200);
  });
});

test('every route the reference marks public answers without a session, and every other one asks for it', async () => {
  const document = (await call(ctx.app, 'GET', '/api/v1/openapi.json')).json() as {
    paths: Record<string, Record<string, Operation>>;
  };
  const wrong: string[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    const url = path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');
    for (const [method, operation] of Object.entries(operations)) {
      // Reads, and deletions of a row that does not exist: nothing is changed, and no body is needed.
      if ((method !== 'get' && method !== 'delete') || (operation as { requestBody?: unknown }).requestBody) continue;
      const response = await call(ctx.app, method.toUpperCase() as 'GET', url);
      const secured = (operation.security ?? []).length > 0;
      if (secured !== (response.statusCode === 401))
        wrong.push(`${method.toUpperCase()} ${path}: security ${secured}, answered ${response.statusCode}`);
    }
  }
  expect(wrong).toEqual([]);
});

test('the document passes Redocly’s recommended errors: it names its server, and every operation declares its security', async () => {
  const document = (await call(ctx.app, 'GET', '/api/v1/openapi.json')).json() as {
    servers?: Array<{ url: string }>;
    paths: Record<string, Record<string, Operation>>;
  };
  // no-empty-servers: the console's own address; the paths carry /api/v1 themselves.
  expect(document.servers).toEqual([{ url: 'http://console.test', description: expect.any(String) }]);
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
  );
  // security-defined: every operation says it, public ones with an empty list (no global default to inherit).
  expect(operations.filter(({ operation }) => !Array.isArray(operation.security)).map(({ key }) => key)).toEqual([]);
  const publicOnes = operations.filter(({ operation }) => operation.security!.length === 0).map(({ key }) => key);
  // Derived from the routes' guards, not from a list: the ones that need no session.
  expect(publicOnes).toEqual(
    expect.arrayContaining([
      'GET /api/v1/health',
      'POST /api/v1/auth/register',
      'POST /api/v1/auth/login',
      'POST /api/v1/auth/reset-password',
      'GET /api/v1/youtube-auth/callback',
      'GET /api/v1/media/{execution}/{file}',
    ]),
  );
  for (const guarded of [
    'GET /api/v1/auth/me',
    'POST /api/v1/channels',
    'POST /api/v1/proxies/{id}/test',
    'PUT /api/v1/voices/{id}',
  ]) {
    expect({ guarded, security: operations.find(({ key }) => key === guarded)?.operation.security }).toEqual({
      guarded,
      security: [{ bearer: [] }],
    });
  }
  // Every other operation answers at least one error a caller can meet (operation-4xx-response), health aside.
  const withoutErrors = operations
    .filter(({ operation }) => !Object.keys(operation.responses ?? {}).some((code) => code.startsWith('4')))
    .map(({ key }) => key);
  expect(withoutErrors.every((key) => key.startsWith('GET /api/v1/health'))).toBe(true);
});
