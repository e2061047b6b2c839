import { and, eq, inArray } from 'drizzle-orm';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google';
import { executions, processes, rateLimits } from '../src/db/schema';
import { buildTestApp, call, type TestContext } from './helper';
import { runnableProcess, runnableUser, type RunnableUser } from './runnable';

jest.setTimeout(120_000);

/**
 * Per-user ceilings on runs (issue 28): one user cannot fill the shared queue. "Run now" and
 * "retry" answer 429 past MAX_ACTIVE_RUNS_PER_USER runs queued or running, or past
 * MAX_MANUAL_RUNS_PER_HOUR of them in the hour; the scheduler's runs count toward the first
 * ceiling but are never refused (docs/decisions.md, "Run ceilings").
 */

let google: FakeGoogle;
let ctx: TestContext;
const queued: string[] = [];

beforeAll(async () => {
  google = await startFakeGoogle();
  ctx = await buildTestApp(
    { MAX_ACTIVE_RUNS_PER_USER: '3', MAX_MANUAL_RUNS_PER_HOUR: '5' },
    {
      // No worker: the runs stay queued, as they do behind a busy queue.
      enqueue: async (id) => {
        queued.push(id);
        return null;
      },
    },
  );
});

afterAll(async () => {
  await ctx.close();
  await google.close();
});

const execute = (user: { token: string }, processId: string, language = 'en') =>
  call(ctx.app, 'POST', `/api/v1/processes/${processId}/execute`, {
    token: user.token,
    headers: { 'accept-language': language },
  });
const retry = (user: { token: string }, executionId: string) =>
  call(ctx.app, 'POST', `/api/v1/executions/${executionId}/retry`, { token: user.token });
const processOf = async (user: { token: string }, id: string) =>
  (await call(ctx.app, 'GET', `/api/v1/processes/${id}`, { token: user.token })).json();
const executionsOf = async (user: RunnableUser) =>
  ctx.database.db.select().from(executions).where(eq(executions.userId, user.userId));

async function processesOf(user: RunnableUser, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) ids.push(await runnableProcess(ctx, user, { name: `Conto ${i + 1}` }));
  return ids;
}

/** The runs fail (as a worker would record it), so they can be retried. */
async function failRuns(ids: string[]) {
  const rows = await ctx.database.db
    .update(executions)
    .set({ status: 'error', error: 'boom', finishedAt: ctx.clock.now })
    .where(inArray(executions.id, ids))
    .returning({ processId: executions.processId });
  await ctx.database.db
    .update(processes)
    .set({ status: 'error' })
    .where(
      inArray(
        processes.id,
        rows.map((row) => row.processId),
      ),
    );
}

test('"run now" past the ceiling of runs waiting or running answers 429, says how many, and changes nothing', async () => {
  const user = await runnableUser(ctx, google, 'UC_limits_active');
  const ids = await processesOf(user, 4);
  const started: string[] = [];
  for (const id of ids.slice(0, 3)) {
    const response = await execute(user, id);
    expect(response.statusCode).toBe(202);
    started.push(response.json().execution_id);
  }
  const refused = await execute(user, ids[3]!);
  expect(refused.statusCode).toBe(429);
  expect(refused.json().detail).toBe('You have 3 runs waiting or running, your limit. Try again when one of them finishes.');
  // Not a matter of time: no Retry-After to promise.
  expect(refused.headers['retry-after']).toBeUndefined();
  const pt = await execute(user, ids[3]!, 'pt-BR');
  expect(pt.statusCode).toBe(429);
  expect(pt.json().detail).toBe(
    'Você tem 3 execuções na fila ou em andamento, o seu limite. Tente de novo quando uma delas terminar.',
  );
  expect((await processOf(user, ids[3]!)).status).toBe('idle');
  expect(await executionsOf(user)).toHaveLength(3);

  // Another user is not held back by this one's queue.
  const other = await runnableUser(ctx, google, 'UC_limits_other');
  const [theirs] = await processesOf(other, 1);
  expect((await execute(other, theirs!)).statusCode).toBe(202);

  // One of the runs ends (cancelled here): there is room again.
  expect((await call(ctx.app, 'POST', `/api/v1/executions/${started[0]}/cancel`, { token: user.token })).statusCode).toBe(200);
  expect((await execute(user, ids[3]!)).statusCode).toBe(202);
});

test('parallel "run now" requests cannot pass the ceiling together', async () => {
  const user = await runnableUser(ctx, google, 'UC_limits_parallel');
  const ids = await processesOf(user, 6);
  const answers = await Promise.all(ids.map((id) => execute(user, id)));
  expect(answers.filter((answer) => answer.statusCode === 202)).toHaveLength(3);
  expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(3);
  const active = await ctx.database.db
    .select()
    .from(executions)
    .where(and(eq(executions.userId, user.userId), inArray(executions.status, ['queued', 'running'])));
  expect(active).toHaveLength(3);
});

test('"run now" and "retry" past the hourly ceiling answer 429 with Retry-After; a refusal spends nothing', async () => {
  const user = await runnableUser(ctx, google, 'UC_limits_hourly');
  const ids = await processesOf(user, 3);
  // Three runs, failed, then two retries: five in this hour.
  const runs: string[] = [];
  for (const id of ids) runs.push((await execute(user, id)).json().execution_id);
  await failRuns(runs);
  for (const id of runs.slice(0, 2)) expect((await retry(user, id)).statusCode).toBe(202);
  await failRuns(runs.slice(0, 2));

  const refused = await retry(user, runs[2]!);
  expect(refused.statusCode).toBe(429);
  const seconds = Number(refused.headers['retry-after']);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(3600);
  const minutes = Math.ceil(seconds / 60);
  expect(refused.json().detail).toBe(
    `You reached your limit of 5 runs and retries an hour. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  );
  expect((await execute(user, ids[0]!)).statusCode).toBe(429);
  // Nothing changed: the run is still failed, the process too.
  const [row] = await ctx.database.db.select().from(executions).where(eq(executions.id, runs[2]!));
  expect(row!.status).toBe('error');
  expect((await processOf(user, ids[2]!)).status).toBe('error');

  // Refusals did not count: the hour's counter still says five.
  const [counter] = await ctx.database.db
    .select()
    .from(rateLimits)
    .where(eq(rateLimits.key, `runs:user:${user.userId}`));
  expect(counter!.count).toBe(5);
  // Once the hour has turned, runs are allowed again.
  ctx.clock.advance(seconds * 1000);
  try {
    expect((await retry(user, runs[2]!)).statusCode).toBe(202);
  } finally {
    ctx.clock.advance(-seconds * 1000);
  }
});

test('the scheduler’s due runs are never refused, and count toward the ceiling', async () => {
  const user = await runnableUser(ctx, google, 'UC_limits_schedule');
  const ids = await processesOf(user, 5);
  const due = ids.slice(0, 4);
  // Four processes due now: more than the ceiling of 3.
  await ctx.database.db
    .update(processes)
    .set({ isActive: true, nextExecution: new Date(ctx.clock.now.getTime() - 60_000) })
    .where(inArray(processes.id, due));
  const { runs } = ctx.app.services;
  const claimed = (await runs.claimDue()).filter((row) => due.includes(row.processId));
  expect(claimed).toHaveLength(4);
  const created = await runs.startScheduled(
    claimed.map((row) => row.processId),
    false,
  );
  expect(created.map((row) => row.processId).sort()).toEqual([...due].sort());

  // The user's queue is full with them: "run now" of the fifth waits.
  const refused = await execute(user, ids[4]!);
  expect(refused.statusCode).toBe(429);
  expect(refused.json().detail).toMatch(/^You have 4 runs waiting or running/);

  // Scheduled runs took nothing of the hourly budget of manual ones: five manual starts still pass.
  const cancel = (id: string) => call(ctx.app, 'POST', `/api/v1/executions/${id}/cancel`, { token: user.token });
  for (const row of created) expect((await cancel(row.executionId)).statusCode).toBe(200);
  for (const round of [ids.slice(0, 3), ids.slice(3, 5)]) {
    const started: string[] = [];
    for (const id of round) {
      const response = await execute(user, id);
      expect(response.statusCode).toBe(202);
      started.push(response.json().execution_id);
    }
    for (const id of started) expect((await cancel(id)).statusCode).toBe(200);
  }
  expect((await execute(user, ids[0]!)).statusCode).toBe(429);
});
