import { startQueue } from '../src/queue';
import { freshDatabase } from './helper';

test('pg-boss runs jobs on the application database and stops cleanly', async () => {
  const database = await freshDatabase();
  const queue = await startQueue(database, { supervise: false });
  try {
    await queue.boss.createQueue('ping');
    const seen: unknown[] = [];
    await queue.boss.work<{ n: number }>('ping', { pollingIntervalSeconds: 0.5 }, async ([job]) => {
      seen.push(job!.data.n);
    });
    const id = await queue.boss.send('ping', { n: 42 });
    expect(id).toBeTruthy();
    const deadline = Date.now() + 10_000;
    while (seen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(seen).toEqual([42]);
    const job = await queue.boss.getJobById('ping', id!);
    expect(job?.state).toBe('completed');
  } finally {
    await queue.stop();
    expect(queue.isRunning()).toBe(false);
    await database.close();
  }
});
