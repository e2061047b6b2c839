import { buildTestApp, call, signUp, type TestContext } from './helper';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => {
  await ctx.close();
});

test('register then me', async () => {
  const { token, user } = await signUp(ctx.app, { email: 'Ana@Example.com', name: 'Ana' });
  expect(user.email).toBe('ana@example.com');
  const me = await call(ctx.app, 'GET', '/api/v1/auth/me', { token });
  expect(me.statusCode).toBe(200);
  expect(me.json()).toMatchObject({ name: 'Ana', plan: 'starter', plan_name: 'Starter', is_admin: false });
});
