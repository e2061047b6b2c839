import { sql } from 'drizzle-orm';
import { processes } from '../src/db/schema';
import { buildTestApp, call, signUp, type TestContext } from './helper';

let ctx: TestContext;
let token: string;
beforeAll(async () => {
  ctx = await buildTestApp();
  ({ token } = await signUp(ctx.app));
});
afterAll(async () => {
  await ctx.close();
});

const create = (body: unknown, as = token) => call(ctx.app, 'POST', '/api/v1/channels/', { token: as, body });

async function channelCount(): Promise<number> {
  const result = await ctx.database.db.execute(sql`select count(*)::int as n from channels`);
  return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

test('connects a channel with defaults: no name, min views 0, enabled, no counts yet', async () => {
  const response = await create({ channel_id: 'UC_defaults_channel_0001', name: '  ', min_views: '' });
  expect(response.statusCode).toBe(201);
  expect(response.json()).toMatchObject({
    channel_id: 'UC_defaults_channel_0001',
    name: null,
    min_views: 0,
    is_active: true,
    subscriber_count: null,
    video_count: null,
    view_count: null,
    process_count: 0,
  });
});

test('lists only the caller’s channels, paged, as {channels}', async () => {
  const other = await signUp(ctx.app);
  await create({ channel_id: 'UC_other_user_channel_01' }, other.token);
  for (const n of [1, 2, 3]) await create({ channel_id: `UC_list_channel_${n}`, name: `List ${n}`, min_views: n * 10 });
  const all = await call(ctx.app, 'GET', '/api/v1/channels/', { token });
  expect(all.statusCode).toBe(200);
  const ids = all.json().channels.map((c: { channel_id: string }) => c.channel_id);
  expect(ids).not.toContain('UC_other_user_channel_01');
  expect(ids).toEqual(expect.arrayContaining(['UC_list_channel_1', 'UC_list_channel_2', 'UC_list_channel_3']));
  const page = await call(ctx.app, 'GET', '/api/v1/channels?skip=1&limit=2', { token });
  expect(page.json().channels).toHaveLength(2);
  expect(page.json().total).toBe(all.json().total);
  expect(page.json().channels[0].channel_id).toBe(ids[1]);
  const bad = await call(ctx.app, 'GET', '/api/v1/channels?limit=0', { token });
  expect(bad.statusCode).toBe(400);
});

test.each([
  [{ channel_id: '' }, 422, 'The channel id is required'],
  [{ channel_id: 'has spaces in it' }, 422, /may only contain/],
  [{ channel_id: 'UC_neg_min_views_000001', min_views: -1 }, 422, 'Minimum views must be a whole number of 0 or more'],
  [{ channel_id: 'UC_frac_min_views_00001', min_views: '2.5' }, 422, 'Minimum views must be a whole number of 0 or more'],
  [{ name: 'no id' }, 400, /channel_id/],
])('refuses %j and creates nothing', async (body, status, detail) => {
  const before = await channelCount();
  const response = await create(body);
  expect(response.statusCode).toBe(status);
  expect(response.json().detail).toEqual(typeof detail === 'string' ? detail : expect.stringMatching(detail));
  expect(await channelCount()).toBe(before);
});

test('the same channel twice is a conflict', async () => {
  expect((await create({ channel_id: 'UC_twice_channel_000001' })).statusCode).toBe(201);
  const again = await create({ channel_id: 'UC_twice_channel_000001' });
  expect(again.statusCode).toBe(409);
  expect(again.json()).toEqual({ detail: 'This channel is already connected' });
});

test('updates name and min views, never the channel id', async () => {
  const { id } = (await create({ channel_id: 'UC_update_channel_00001', name: 'Before' })).json();
  const ok = await call(ctx.app, 'PUT', `/api/v1/channels/${id}`, { token, body: { name: 'After', min_views: 500 } });
  expect(ok.statusCode).toBe(200);
  expect(ok.json()).toMatchObject({ name: 'After', min_views: 500, channel_id: 'UC_update_channel_00001' });
  const same = await call(ctx.app, 'PUT', `/api/v1/channels/${id}`, {
    token,
    body: { channel_id: 'UC_update_channel_00001', name: 'Same id' },
  });
  expect(same.statusCode).toBe(200);
  const changed = await call(ctx.app, 'PUT', `/api/v1/channels/${id}`, {
    token,
    body: { channel_id: 'UC_something_else_0001', name: 'Nope' },
  });
  expect(changed.statusCode).toBe(422);
  expect(changed.json()).toEqual({ detail: 'The channel id cannot be changed' });
  const got = await call(ctx.app, 'GET', `/api/v1/channels/${id}`, { token });
  expect(got.json()).toMatchObject({ name: 'Same id', channel_id: 'UC_update_channel_00001' });
});

test('toggle flips the enabled state and answers the channel', async () => {
  const { id } = (await create({ channel_id: 'UC_toggle_channel_00001' })).json();
  const off = await call(ctx.app, 'PUT', `/api/v1/channels/${id}/toggle`, { token });
  expect(off.json().is_active).toBe(false);
  const on = await call(ctx.app, 'PUT', `/api/v1/channels/${id}/toggle`, { token });
  expect(on.json().is_active).toBe(true);
});

test('another user’s channel answers 404 to every call and is left alone', async () => {
  const { id } = (await create({ channel_id: 'UC_private_channel_0001', name: 'Mine' })).json();
  const stranger = await signUp(ctx.app);
  for (const [method, url, body] of [
    ['GET', `/api/v1/channels/${id}`, undefined],
    ['PUT', `/api/v1/channels/${id}`, { name: 'Theirs' }],
    ['PUT', `/api/v1/channels/${id}/toggle`, undefined],
    ['DELETE', `/api/v1/channels/${id}`, undefined],
  ] as const) {
    const response = await call(ctx.app, method, url, { token: stranger.token, body });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Channel not found' });
  }
  const mine = await call(ctx.app, 'GET', `/api/v1/channels/${id}`, { token });
  expect(mine.json()).toMatchObject({ name: 'Mine', is_active: true });
});

test('counts the processes connected to a channel', async () => {
  const { id } = (await create({ channel_id: 'UC_counted_channel_0001' })).json();
  const other = (await create({ channel_id: 'UC_uncounted_channel_01' })).json();
  const me = (await call(ctx.app, 'GET', '/api/v1/auth/me', { token })).json();
  await ctx.database.db.insert(processes).values([
    { userId: me.id, name: 'First', channelId: id, nextExecution: new Date() },
    { userId: me.id, name: 'Second', channelId: id, nextExecution: new Date() },
  ]);
  expect((await call(ctx.app, 'GET', `/api/v1/channels/${id}`, { token })).json().process_count).toBe(2);
  expect((await call(ctx.app, 'GET', `/api/v1/channels/${other.id}`, { token })).json().process_count).toBe(0);
  const listed = (await call(ctx.app, 'GET', '/api/v1/channels/', { token })).json().channels;
  expect(listed.find((c: { id: string }) => c.id === id).process_count).toBe(2);
});

test('delete removes the channel', async () => {
  const { id } = (await create({ channel_id: 'UC_delete_channel_00001' })).json();
  const deleted = await call(ctx.app, 'DELETE', `/api/v1/channels/${id}`, { token });
  expect(deleted.statusCode).toBe(204);
  expect((await call(ctx.app, 'GET', `/api/v1/channels/${id}`, { token })).statusCode).toBe(404);
  expect((await call(ctx.app, 'DELETE', `/api/v1/channels/${id}`, { token })).statusCode).toBe(404);
});

test('a malformed id is a 400 and calls without a session are 401', async () => {
  expect((await call(ctx.app, 'GET', '/api/v1/channels/not-a-uuid', { token })).statusCode).toBe(400);
  expect((await call(ctx.app, 'GET', '/api/v1/channels/')).statusCode).toBe(401);
});
