import { asc, count, eq, like, sql } from 'drizzle-orm';
import { executions, processes } from '../src/db/schema';
import { QUEUES } from '../src/jobs';
import { QUEUE_SCHEMA, startQueue } from '../src/queue';
import { CLAIM_BATCH, INTERVAL_MS, createExecutionRunService } from '../src/services/executionRuns';
import { createEngine } from '../src/pipeline/engine';
import { buildTestApp, signUp, type TestContext } from './helper';

/**
 * The scheduler's claim (issue 20): one statement per batch, each due slot taken exactly once even
 * by schedulers claiming at the same moment, and times stored with any precision compared as they are.
 */

let ctx: TestContext;
let userId: string;
/** Owners of the bulk processes: claims that move many owners' processes at once must not deadlock. */
let owners: string[];

beforeAll(async () => {
  ctx = await buildTestApp({}, { enqueue: async () => null });
  userId = (await signUp(ctx.app)).user.id;
  owners = [userId];
  for (let i = 0; i < 11; i += 1) owners.push((await signUp(ctx.app)).user.id);
}, 120_000);

afterAll(async () => {
  await ctx.close();
});

function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}

/** Inserts `count` active processes of the test user due at `due` (a SQL timestamp literal). */
async function insertDue(count: number, due: string, name = 'bulk', spread = false): Promise<void> {
  const ids = spread ? owners : [userId];
  await ctx.database.db.execute(sql`
    insert into processes (user_id, name, is_active, next_execution)
    select (${`{${ids.join(',')}}`}::uuid[])[1 + n % ${ids.length}], ${name} || '-' || n, true, ${due}::timestamptz
    from generate_series(1, ${count}) as n`);
}

async function clear(): Promise<void> {
  await ctx.database.db.execute(sql`delete from processes where user_id = any(${`{${owners.join(',')}}`}::uuid[])`);
}

describe('claiming due processes', () => {
  afterEach(clear);

  test('three schedulers claiming at once take every due slot of many owners exactly once, in batches', async () => {
    const count = 3 * CLAIM_BATCH + 500;
    await insertDue(count, '2026-01-01T09:00:00Z', 'bulk', true);
    const at = new Date('2026-01-01T09:00:30Z');
    const first = createExecutionRunService({ db: ctx.database.db, now: () => at });
    const second = createExecutionRunService({ db: ctx.database.db, now: () => at });
    const third = createExecutionRunService({ db: ctx.database.db, now: () => at });

    // On PostgreSQL they run in parallel on separate connections (no deadlock, no slot twice).
    const [a, b, c] = await Promise.all([first.claimDue(), second.claimDue(), third.claimDue()]);
    const ids = [...a, ...b, ...c].map((claim) => claim.processId);
    expect(ids).toHaveLength(count);
    expect(new Set(ids).size).toBe(count);
    expect([...a, ...b, ...c].every((claim) => !claim.running)).toBe(true);

    // Every one moved to its next slot; nothing is due any more.
    const [left] = rowsOf<{ due: number; next: string }>(
      await ctx.database.db.execute(sql`
        select count(*) filter (where next_execution <= ${at.toISOString()}::timestamptz)::int as due,
               min(next_execution)::text as next
        from processes where name like 'bulk-%'`),
    );
    expect(left!.due).toBe(0);
    expect(new Date(left!.next).getTime()).toBe(Date.parse('2026-01-01T09:00:00Z') + INTERVAL_MS);
    expect(await first.claimDue()).toEqual([]);
  }, 120_000);

  test('a time written with microseconds by SQL is claimed at its slot and keeps its rhythm', async () => {
    // What a migration, a restore or an operator's fix may write; a JavaScript Date has milliseconds only.
    await insertDue(1, '2026-03-01 09:00:00.123456+00', 'micro');
    await insertDue(1, '2026-03-01 09:00:00.123+00', 'milli');
    const runs = (at: string) => createExecutionRunService({ db: ctx.database.db, now: () => new Date(at) });

    expect(await runs('2026-03-01T09:00:00.123Z').claimDue()).toHaveLength(1); // the millisecond one only
    const claimed = await runs('2026-03-01T09:00:01Z').claimDue();
    expect(claimed).toHaveLength(1);
    const [row] = rowsOf<{ next: string }>(
      await ctx.database.db.execute(
        sql`select to_char(next_execution at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') as next from processes where name = 'micro-1'`,
      ),
    );
    expect(row!.next).toBe('2026-03-04 09:00:00.123456');
  }, 60_000);

  test('a process down for several slots runs once, at the next slot after now', async () => {
    await insertDue(1, '2026-05-01T09:00:00Z', 'late');
    const at = new Date(Date.parse('2026-05-01T09:00:00Z') + 10 * 24 * 3600 * 1000);
    const runs = createExecutionRunService({ db: ctx.database.db, now: () => at });
    expect(await runs.claimDue()).toHaveLength(1);
    expect(await runs.claimDue()).toHaveLength(0);
    const [row] = rowsOf<{ next: string }>(
      await ctx.database.db.execute(sql`select next_execution::text as next from processes where name = 'late-1'`),
    );
    expect(new Date(row!.next).toISOString()).toBe('2026-05-13T09:00:00.000Z');
  }, 60_000);

  test('a process switched off or whose run is under way is not claimed as a new run', async () => {
    await insertDue(3, '2026-06-01T09:00:00Z', 'state');
    await ctx.database.db.execute(sql`update processes set is_active = false where name = 'state-1'`);
    await ctx.database.db.execute(sql`update processes set status = 'queued' where name = 'state-2'`);
    const runs = createExecutionRunService({ db: ctx.database.db, now: () => new Date('2026-06-01T09:01:00Z') });
    const claimed = await runs.claimDue();
    expect(claimed).toHaveLength(2);
    expect(claimed.filter((claim) => claim.running)).toHaveLength(1); // the queued one skips this slot
  }, 60_000);
});

describe('queueing the scheduled runs', () => {
  afterEach(clear);

  test('a tick queues a burst in one batch: one run per free process, each with its waiting job, taken in queue order', async () => {
    const queue = await startQueue(ctx.database, { supervise: false });
    try {
      await insertDue(40, '2026-08-01T09:00:00Z', 'burst', true);
      // Its run is under way: the slot is skipped, not queued twice.
      await ctx.database.db.execute(sql`update processes set status = 'running' where name = 'burst-1'`);
      ctx.clock.now = new Date('2026-08-01T09:00:10Z');
      const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
      const engine = createEngine({ services: ctx.app.services, config: ctx.config, log: silent, queue });
      expect(await engine.tick()).toBe(39);
      expect(await engine.tick()).toBe(0);

      const runs = await ctx.database.db
        .select({ id: executions.id, status: executions.status, trigger: executions.trigger, jobId: executions.jobId })
        .from(executions)
        .innerJoin(processes, eq(processes.id, executions.processId))
        .where(like(processes.name, 'burst-%'))
        .orderBy(asc(executions.queuedAt), asc(executions.id));
      expect(runs).toHaveLength(39);
      expect(runs.every((run) => run.status === 'queued' && run.trigger === 'schedule' && run.jobId)).toBe(true);
      const states = await ctx.database.db
        .select({ status: processes.status, n: count() })
        .from(processes)
        .where(like(processes.name, 'burst-%'))
        .groupBy(processes.status);
      expect(Object.fromEntries(states.map((row) => [row.status, row.n]))).toEqual({ queued: 39, running: 1 });

      // Each run's job waits in pg-boss under the id the run holds, and pg-boss hands them out in the
      // order queue_position counts (queued time, then execution id).
      const jobs = rowsOf<{ id: string; execution_id: string }>(
        await ctx.database.db.execute(sql`
          select id::text as id, data->>'executionId' as execution_id from ${sql.identifier(QUEUE_SCHEMA)}.job
          where name = ${QUEUES.execution} and state = 'created' and data->>'executionId' = any(${`{${runs.map((run) => run.id).join(',')}}`}::text[])
          order by priority desc, created_on, id`),
      );
      expect(jobs.map((job) => job.execution_id)).toEqual(runs.map((run) => run.id));
      expect(jobs.map((job) => job.id)).toEqual(runs.map((run) => run.jobId));
    } finally {
      await queue.stop();
    }
  }, 120_000);
});

describe('finding runs that lost their worker', () => {
  afterEach(clear);

  test('one statement finds stale running runs and queued runs whose job no longer waits, and nothing else', async () => {
    const queue = await startQueue(ctx.database, { supervise: false });
    try {
      await insertDue(1, '2026-07-01T09:00:00Z', 'orphans');
      const [process] = await ctx.database.db.select({ id: processes.id }).from(processes).where(eq(processes.name, 'orphans-1'));
      const at = new Date('2026-07-01T12:00:00Z');
      const old = new Date(at.getTime() - 10 * 60_000);
      const recent = new Date(at.getTime() - 10_000);
      const waitingJob = await queue.boss.send(QUEUES.execution, { executionId: 'x' });
      const failedJob = await queue.boss.send(QUEUES.execution, { executionId: 'y' }, { retryLimit: 0 });
      await queue.boss.fail(QUEUES.execution, failedJob!);
      const run = (name: string, values: Partial<typeof executions.$inferInsert>) =>
        ctx.database.db
          .insert(executions)
          .values({ processId: process!.id, userId, language: 'pt', storyTitle: name, ...values })
          .returning({ id: executions.id })
          .then(([row]) => row!.id);
      const waiting = await run('waiting', { status: 'queued', queuedAt: old, jobId: waitingJob });
      const jobFailed = await run('job failed', { status: 'queued', queuedAt: old, jobId: failedJob });
      const neverQueued = await run('never queued', { status: 'queued', queuedAt: old, jobId: null });
      const justQueued = await run('just queued', { status: 'queued', queuedAt: recent, jobId: null });
      const stale = await run('stale', { status: 'running', queuedAt: old, heartbeatAt: old, leaseOwner: 'gone' });
      const alive = await run('alive', { status: 'running', queuedAt: old, heartbeatAt: recent, leaseOwner: 'here' });
      await run('done', { status: 'completed', queuedAt: old });

      const runs = createExecutionRunService({ db: ctx.database.db, now: () => at });
      const before = new Date(at.getTime() - 90_000);
      const found = (await runs.orphans(before, QUEUE_SCHEMA)).map((row) => row.id).sort();
      expect(found).toEqual([jobFailed, neverQueued, stale].sort());
      expect(found).not.toContain(waiting);
      // At the start of the only worker: every running run, and every queued one whose job does not wait.
      const exclusive = (await runs.orphans(undefined, QUEUE_SCHEMA)).map((row) => row.id).sort();
      expect(exclusive).toEqual([jobFailed, neverQueued, justQueued, stale, alive].sort());
    } finally {
      await queue.stop();
    }
  }, 120_000);
});

describe('moving from one step to the next', () => {
  afterEach(clear);

  test('one write ends a step and starts the next, on the execution and its process; a lost lease moves neither', async () => {
    await insertDue(1, '2026-08-01T09:00:00Z', 'steps');
    const [process] = await ctx.database.db.select({ id: processes.id }).from(processes).where(eq(processes.name, 'steps-1'));
    const [queued] = await ctx.database.db
      .insert(executions)
      .values({ processId: process!.id, userId, language: 'pt', status: 'queued', queuedAt: new Date('2026-08-01T09:00:00Z') })
      .returning();
    let at = new Date('2026-08-01T09:00:05Z');
    const runs = createExecutionRunService({ db: ctx.database.db, now: () => at });
    const claimed = await runs.claim(queued!.id, null, 'test-worker');
    expect(claimed?.process?.id).toBe(process!.id);
    const { lease } = claimed!;
    const started = await runs.stepStarted(lease, claimed!.row, 0);
    at = new Date('2026-08-01T09:00:07Z');

    const moved = await runs.stepFinished(lease, started, 0, { format: 'landscape' }, 1);
    expect(moved.currentStep).toBe(1);
    expect(moved.checkpoint).toEqual({ format: 'landscape' });
    expect(moved.stepTimes).toEqual({
      starting: { startedAt: '2026-08-01T09:00:05.000Z', finishedAt: '2026-08-01T09:00:07.000Z' },
      generating_texts: { startedAt: '2026-08-01T09:00:07.000Z' },
    });
    const processNow = async () => (await ctx.database.db.select().from(processes).where(eq(processes.id, process!.id)))[0]!;
    expect(await processNow()).toMatchObject({ executionStep: 1, status: 'running' });

    // The last step ends without starting another.
    at = new Date('2026-08-01T09:00:09Z');
    const last = await runs.stepFinished(lease, moved, 1, { format: 'landscape' });
    expect(last.currentStep).toBe(1);
    expect(last.stepTimes.generating_texts).toEqual({
      startedAt: '2026-08-01T09:00:07.000Z',
      finishedAt: '2026-08-01T09:00:09.000Z',
    });

    // A worker whose lease was taken over writes nothing, on the execution or the process.
    const stale = { ...lease, fence: lease.fence - 1 };
    await expect(runs.stepFinished(stale, last, 1, { format: 'portrait' }, 2)).rejects.toThrow(/no longer/i);
    const [row] = await ctx.database.db.select().from(executions).where(eq(executions.id, queued!.id));
    expect(row).toMatchObject({ currentStep: 1, checkpoint: { format: 'landscape' } });
    expect(await processNow()).toMatchObject({ executionStep: 1 });
  }, 60_000);
});
