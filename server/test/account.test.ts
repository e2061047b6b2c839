import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import {
  apiCalls,
  channels,
  chatModelConfigs,
  executions,
  processes,
  prompts,
  publications,
  users,
  youtubeApis,
} from '../src/db/schema';
import { addMonths, billingPeriodAt } from '../src/services/subscription';
import { TEST_ADMIN_EMAIL, buildTestApp, call, signUp, type TestContext } from './helper';

let ctx: TestContext;
const BUILTIN_DRAMA = '5ebd8341-10e8-4ab7-85f4-5694d6a6f88b';
const HELENA = '387bfe25-192a-4eb3-aa8b-be1f9e202b9a';

beforeAll(async () => {
  ctx = await buildTestApp();
});

afterAll(async () => {
  await ctx.close();
});

const texts = { title: 't', premise: 'p', narrative_prompt: 'n', chapter_1: 'c1', next_chapters: 'cn', final_chapter: 'cf' };

/** A user with a channel, a configuration, a chat-model key, a process with an execution and its media, and a publication. */
type Account = Awaited<ReturnType<typeof signUp>>;

async function populated(as?: Account, promptId = BUILTIN_DRAMA) {
  const who = as ?? (await signUp(ctx.app));
  const { token } = who;
  const suffix = Math.random().toString(36).slice(2, 8);
  const channel = (
    await call(ctx.app, 'POST', '/api/v1/channels/', { token, body: { channel_id: `UC_acc_${suffix}`, name: 'Mine' } })
  ).json();
  const config = (
    await call(ctx.app, 'POST', '/api/v1/youtube-apis/', {
      token,
      body: { name: 'Cfg', channel_id: `UC_acc_${suffix}`, client_id: 'a.apps.googleusercontent.com', client_secret: 'GOCSPX-a' },
    })
  ).json();
  expect(
    (await call(ctx.app, 'POST', '/api/v1/chatgpt/config', { token, body: { api_key: 'sk-account-0123456789abcdef' } }))
      .statusCode,
  ).toBe(201);
  const process = (
    await call(ctx.app, 'POST', '/api/v1/processes/', {
      token,
      body: {
        name: 'P',
        channel_id: channel.id,
        youtube_api_id: config.id,
        prompt_id: promptId,
        language: 'pt',
        voice_id: HELENA,
      },
    })
  ).json();
  const [execution] = await ctx.database.db
    .insert(executions)
    .values({
      processId: process.id,
      userId: who.user.id,
      language: 'pt',
      status: 'completed',
      checkpoint: { video: { file: 'video.mp4' } },
    })
    .returning();
  const media = path.join(ctx.config.mediaDir, execution!.id);
  fs.mkdirSync(media, { recursive: true });
  fs.writeFileSync(path.join(media, 'video.mp4'), 'not really a video');
  await call(ctx.app, 'POST', '/api/v1/publications/', {
    token,
    body: { video_title: 'Old one', process_id: process.id, channel_id: channel.id },
  });
  return { ...who, channel, config, process, execution: execution!, media };
}

const rowsOf = async (
  table:
    | typeof channels
    | typeof youtubeApis
    | typeof chatModelConfigs
    | typeof processes
    | typeof executions
    | typeof publications
    | typeof apiCalls,
  userId: string,
) =>
  (
    await ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(table)
      .where(eq(table.userId, userId))
  )[0]!.n;

describe('deleting the account', () => {
  test('needs the right password, and a refusal changes nothing', async () => {
    const mine = await populated();
    const missing = await call(ctx.app, 'DELETE', '/api/v1/auth/account', { token: mine.token, body: { password: '' } });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual({ detail: 'Enter your password to confirm' });
    const wrong = await call(ctx.app, 'DELETE', '/api/v1/auth/account', {
      token: mine.token,
      body: { password: 'not-it' },
      headers: { 'accept-language': 'pt' },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({ detail: 'A senha está incorreta' });
    expect((await call(ctx.app, 'DELETE', '/api/v1/auth/account', { token: mine.token })).statusCode).toBe(400);
    expect((await call(ctx.app, 'DELETE', '/api/v1/auth/account', { body: { password: mine.password } })).statusCode).toBe(401);
    expect((await call(ctx.app, 'GET', '/api/v1/auth/me', { token: mine.token })).statusCode).toBe(200);
    expect(await rowsOf(processes, mine.user.id)).toBe(1);
    expect(fs.existsSync(mine.media)).toBe(true);
  });

  test('removes the user and everything they own, media included; nobody else’s data changes', async () => {
    const mine = await populated();
    const theirs = await populated();
    const deleted = await call(ctx.app, 'DELETE', '/api/v1/auth/account', {
      token: mine.token,
      body: { password: mine.password },
    });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ detail: 'Your account and everything in it were deleted' });

    expect((await call(ctx.app, 'GET', '/api/v1/auth/me', { token: mine.token })).statusCode).toBe(401);
    const login = await call(ctx.app, 'POST', '/api/v1/auth/login', {
      body: { email: mine.user.email, password: mine.password },
    });
    expect(login.statusCode).toBe(401);
    expect(await ctx.database.db.select().from(users).where(eq(users.id, mine.user.id))).toHaveLength(0);
    for (const table of [channels, youtubeApis, chatModelConfigs, processes, executions, publications]) {
      expect(await rowsOf(table, mine.user.id)).toBe(0);
      expect(await rowsOf(table, theirs.user.id)).toBe(1);
    }
    expect(fs.existsSync(mine.media)).toBe(false);
    expect(fs.existsSync(theirs.media)).toBe(true);
    expect((await call(ctx.app, 'GET', '/api/v1/processes/', { token: theirs.token })).json().processes).toHaveLength(1);
  });

  test('an admin’s prompts stay when someone else’s process uses them, the others go', async () => {
    const admin = await signUp(ctx.app, { email: TEST_ADMIN_EMAIL });
    const made = async (name: string) =>
      (
        await call(ctx.app, 'POST', '/api/v1/prompts/full', {
          token: admin.token,
          body: { name, description: 'd', content: 'c', languages: { pt: texts } },
        })
      ).json().id as string;
    const used = await made('Used by someone');
    const unused = await made('Used by nobody else');
    const ownUse = await made('Used by the admin only');
    await populated(undefined, used);
    await populated(admin, ownUse);
    const deleted = await call(ctx.app, 'DELETE', '/api/v1/auth/account', {
      token: admin.token,
      body: { password: admin.password },
    });
    expect(deleted.statusCode).toBe(200);
    const left = await ctx.database.db.select({ id: prompts.id, userId: prompts.userId }).from(prompts);
    expect(left).toContainEqual({ id: used, userId: null });
    expect(left.map((p) => p.id)).not.toContain(unused);
    expect(left.map((p) => p.id)).not.toContain(ownUse);
    expect(left.map((p) => p.id)).toContain(BUILTIN_DRAMA);
  });
});

describe('the subscription', () => {
  test('answers the plan, the next billing date and real usage of this month', async () => {
    const mine = await signUp(ctx.app);
    await ctx.database.db
      .update(users)
      .set({ createdAt: new Date('2026-01-31T12:00:00.000Z') })
      .where(eq(users.id, mine.user.id));
    ctx.clock.now = new Date('2026-03-10T15:00:00.000Z');
    const token = (
      await call(ctx.app, 'POST', '/api/v1/auth/login', { body: { email: mine.user.email, password: mine.password } })
    ).json().access_token;
    const fresh = await call(ctx.app, 'GET', '/api/v1/subscription/', { token });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json()).toEqual({
      plan: 'starter',
      plan_name: 'Starter',
      billing_period: 'monthly',
      channels_limit: 1,
      period_start: '2026-02-28T12:00:00.000Z',
      next_billing_date: '2026-03-31T12:00:00.000Z',
      usage: { channels: 0, videos_this_month: 0, api_calls_this_month: 0, month_start: '2026-03-01T00:00:00.000Z' },
    });

    const mine2 = await populated({ ...mine, token });
    await ctx.database.db.update(executions).set({ createdAt: ctx.clock.now }).where(eq(executions.id, mine2.execution.id));
    // One call this month, one last month.
    await ctx.database.db.insert(apiCalls).values([
      { userId: mine.user.id, service: 'openai', operation: 'chat.completions', createdAt: new Date('2026-03-02T10:00:00.000Z') },
      { userId: mine.user.id, service: 'openai', operation: 'chat.completions', createdAt: new Date('2026-02-27T10:00:00.000Z') },
    ]);
    const used = (await call(ctx.app, 'GET', '/api/v1/subscription/', { token })).json();
    expect(used.usage).toMatchObject({ channels: 1, videos_this_month: 1, api_calls_this_month: 1 });
  });

  test('a plan change is recorded (no charge), shows in the session user, and bad choices change nothing', async () => {
    const mine = await signUp(ctx.app);
    const changed = await call(ctx.app, 'PUT', '/api/v1/subscription/', {
      token: mine.token,
      body: { plan: 'professional', billing_period: 'annual' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      plan: 'professional',
      plan_name: 'Professional',
      billing_period: 'annual',
      channels_limit: 5,
    });
    expect((await call(ctx.app, 'GET', '/api/v1/auth/me', { token: mine.token })).json()).toMatchObject({
      plan: 'professional',
      plan_name: 'Professional',
      billing_period: 'annual',
    });
    const unknown = await call(ctx.app, 'PUT', '/api/v1/subscription/', { token: mine.token, body: { plan: 'platinum' } });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().detail).toMatch(/^Unknown plan/);
    const badBilling = await call(ctx.app, 'PUT', '/api/v1/subscription/', {
      token: mine.token,
      body: { plan: 'basic', billing_period: 'weekly' },
      headers: { 'accept-language': 'pt' },
    });
    expect(badBilling.json()).toEqual({ detail: 'O período de cobrança deve ser mensal ou anual' });
    expect((await call(ctx.app, 'GET', '/api/v1/subscription/', { token: mine.token })).json()).toMatchObject({
      plan: 'professional',
      billing_period: 'annual',
    });
    expect((await call(ctx.app, 'GET', '/api/v1/subscription/')).statusCode).toBe(401);
  });

  test('billing periods count calendar months from the account’s creation', () => {
    expect(addMonths(new Date('2026-01-31T12:00:00Z'), 1).toISOString()).toBe('2026-02-28T12:00:00.000Z');
    expect(addMonths(new Date('2024-01-31T12:00:00Z'), 1).toISOString()).toBe('2024-02-29T12:00:00.000Z');
    const anchor = new Date('2025-05-15T08:00:00Z');
    expect(billingPeriodAt(anchor, 'monthly', new Date('2025-05-15T08:00:00Z'))).toEqual({
      start: new Date('2025-05-15T08:00:00Z'),
      next: new Date('2025-06-15T08:00:00Z'),
    });
    expect(billingPeriodAt(anchor, 'monthly', new Date('2026-11-23T00:00:00Z')).next).toEqual(new Date('2026-12-15T08:00:00Z'));
    expect(billingPeriodAt(anchor, 'annual', new Date('2026-11-23T00:00:00Z'))).toEqual({
      start: new Date('2026-05-15T08:00:00Z'),
      next: new Date('2027-05-15T08:00:00Z'),
    });
  });
});
