import { isDatabaseUnavailable, isUniqueViolation } from '../src/db/errors';
import { buildTestApp, call, signUp, type TestContext } from './helper';

/** What a database outage looks like to the API (issue 21): a short 503 in the caller's language. */

/** A refused connection as node-postgres reports it, wrapped as drizzle wraps a failed query. */
function refused(): Error {
  const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  return Object.assign(new Error('Failed query: select ...'), { cause });
}

test('connection failures are told apart from wrong statements', () => {
  expect(isDatabaseUnavailable(refused())).toBe(true);
  expect(
    isDatabaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })),
  ).toBe(true);
  expect(isDatabaseUnavailable(Object.assign(new Error('the database system is starting up'), { code: '57P03' }))).toBe(true);
  expect(isDatabaseUnavailable(Object.assign(new Error('connection failure'), { code: '08006' }))).toBe(true);
  expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  expect(isDatabaseUnavailable(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]))).toBe(true);

  const duplicate = Object.assign(new Error('duplicate key'), { code: '23505' });
  expect(isDatabaseUnavailable(duplicate)).toBe(false);
  expect(isUniqueViolation(duplicate)).toBe(true);
  expect(isDatabaseUnavailable(Object.assign(new Error('syntax error'), { code: '42601' }))).toBe(false);
  expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
  expect(isDatabaseUnavailable(undefined)).toBe(false);
  // A cycle of causes ends.
  const loop: { message: string; cause?: unknown } = { message: 'loop' };
  loop.cause = loop;
  expect(isDatabaseUnavailable(loop)).toBe(false);
});

describe('the API while the database is unreachable', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp();
  }, 60_000);
  afterAll(async () => {
    await ctx.close();
  });

  test('answers 503 with a detail in the caller’s language and Retry-After, never a 500', async () => {
    const { token } = await signUp(ctx.app);
    const spy = jest.spyOn(ctx.app.services.auth, 'authenticateSession').mockRejectedValue(refused());
    try {
      const english = await call(ctx.app, 'GET', '/api/v1/processes/', { token });
      expect(english.statusCode).toBe(503);
      expect(english.json()).toEqual({ detail: 'The database is not reachable; try again in a moment' });
      expect(english.headers['retry-after']).toBe('5');
      const portuguese = await call(ctx.app, 'GET', '/api/v1/processes/', { token, headers: { 'accept-language': 'pt-BR' } });
      expect(portuguese.statusCode).toBe(503);
      expect(portuguese.json()).toEqual({ detail: 'O banco de dados não está acessível; tente novamente em instantes' });
    } finally {
      spy.mockRestore();
    }
    // Back: answers as before.
    expect((await call(ctx.app, 'GET', '/api/v1/processes/', { token })).statusCode).toBe(200);
  });
});
