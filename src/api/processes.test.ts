/** The processes, executions and publications endpoints: paging, tags and the optimistic execute. */
import { makeStore } from '../app/store';
import { processFixture } from '../testing/fixtures';
import { deferred, mockApi, reply, type ApiMock } from '../testing/mockApi';
import { api, EXECUTION_STEP_KEYS } from '.';
import type { Execution, Process } from './types';
// The server's list of steps (a leaf with no imports): the web app's keys must come in its order.
import { PROCESS_STEPS } from '../../server/src/runLayout';

function storeWith() {
  return makeStore({ auth: { token: 'stored-token' }, preferences: { language: 'en' } });
}

async function requested(server: ApiMock, route: string, count: number) {
  for (let i = 0; i < 100 && server.calls(route).length < count; i += 1) await new Promise((r) => setTimeout(r, 10));
  expect(server.calls(route)).toHaveLength(count);
}

const process: Process = processFixture({
  voice_name: 'Ana',
  status: 'completed',
  last_execution: '2025-03-01T12:00:00.000Z',
  next_execution: '2025-03-04T12:00:00.000Z',
  latest_execution_id: 'ex-0',
  created_at: '2025-03-01T12:00:00.000Z',
  updated_at: '2025-03-01T12:00:00.000Z',
});

const execution = (status: Execution['status']): Execution => ({
  id: 'ex-1',
  process_id: 'p-1',
  status,
  trigger: 'manual',
  current_step: 6,
  steps: [],
  story_title: null,
  error: null,
  queued_at: '2025-03-07T12:00:00.000Z',
  started_at: '2025-03-07T12:00:00.000Z',
  finished_at: null,
  queue_position: null,
  estimated_seconds_left: null,
  video_url: null,
  thumbnail_url: null,
  video_duration_seconds: null,
  warnings: [],
  progress: null,
  created_at: '2025-03-07T12:00:00.000Z',
});

describe('processes endpoints', () => {
  it('lists the execution steps in the server’s order (the type check holds the keys themselves)', () => {
    expect(EXECUTION_STEP_KEYS).toEqual(PROCESS_STEPS);
  });

  it('pages the lists and passes their filters', async () => {
    const server = mockApi({
      'GET /processes/': reply(200, { processes: [], total: 0 }),
      'GET /processes/p-1/executions': reply(200, { executions: [], total: 0 }),
      'GET /publications/': reply(200, { publications: [], total: 0 }),
    });
    const store = storeWith();

    await store.dispatch(api.endpoints.getProcesses.initiate({ active_only: true, limit: 3 }));
    await store.dispatch(api.endpoints.getProcessExecutions.initiate({ processId: 'p-1' }));
    await store.dispatch(api.endpoints.getPublications.initiate({ limit: 5 }));

    const query = (route: string) => Object.fromEntries(server.calls(route)[0].url.searchParams);
    expect(query('GET /processes/')).toEqual({ skip: '0', limit: '3', active_only: 'true' });
    expect(query('GET /processes/p-1/executions')).toEqual({ skip: '0', limit: '100' });
    expect(query('GET /publications/')).toEqual({ skip: '0', limit: '5' });
  });

  it('execute marks every cached copy queued at once, then refetches the process, the lists and the stats', async () => {
    const answer = deferred();
    const server = mockApi({
      'GET /processes/': reply(200, { processes: [process], total: 1 }),
      'GET /processes/p-1': reply(200, process),
      'GET /processes/stats': reply(200, { total: 1, active: 1, inactive: 0, queued: 0, running: 0, connected_channels: 1 }),
      'POST /processes/p-1/execute': answer.handler,
    });
    const store = storeWith();
    store.dispatch(api.endpoints.getProcesses.initiate());
    store.dispatch(api.endpoints.getProcess.initiate('p-1'));
    store.dispatch(api.endpoints.getProcessStats.initiate());
    await requested(server, 'GET /processes/stats', 1);
    await requested(server, 'GET /processes/p-1', 1);

    const started = store.dispatch(api.endpoints.executeProcess.initiate('p-1'));
    const running = { status: 'queued', execution_step: 0, execution_steps: [...EXECUTION_STEP_KEYS] };
    expect(api.endpoints.getProcess.select('p-1')(store.getState()).data).toMatchObject(running);
    expect(api.endpoints.getProcesses.select()(store.getState()).data?.processes[0]).toMatchObject(running);

    // The server now answers the process queued (its run has not ended: nothing else is fetched).
    const queued = { ...process, ...running, latest_execution_id: 'ex-1' };
    server.on({
      'GET /processes/': reply(200, { processes: [queued], total: 1 }),
      'GET /processes/p-1': reply(200, queued),
    });
    answer.resolve(reply(202, { execution_id: 'ex-1', process: queued }));
    await started;
    expect(api.endpoints.getProcess.select('p-1')(store.getState()).data?.latest_execution_id).toBe('ex-1');
    await requested(server, 'GET /processes/', 2);
    await requested(server, 'GET /processes/p-1', 2);
    await requested(server, 'GET /processes/stats', 2);
  });

  it('a failed execute leaves the cached process in error with its steps cleared', async () => {
    const server = mockApi({
      'GET /processes/p-1': reply(200, process),
      'POST /processes/p-1/execute': reply(409, { detail: 'The process is already running' }),
    });
    const store = storeWith();
    store.dispatch(api.endpoints.getProcess.initiate('p-1'));
    await requested(server, 'GET /processes/p-1', 1);
    await new Promise((r) => setTimeout(r, 10));

    const result = await store.dispatch(api.endpoints.executeProcess.initiate('p-1'));

    expect('error' in result).toBe(true);
    expect(api.endpoints.getProcess.select('p-1')(store.getState()).data).toMatchObject({
      status: 'error',
      execution_step: null,
      execution_steps: null,
      last_error: 'The process is already running',
    });
    await new Promise((r) => setTimeout(r, 30));
    expect(server.calls('GET /processes/p-1')).toHaveLength(1);
  });

  it('refetches the process, its lists, the stats and the publications when a polled run ends', async () => {
    const server = mockApi({
      'GET /executions/ex-1': reply(200, execution('running')),
      'GET /processes/': reply(200, { processes: [process], total: 1 }),
      'GET /processes/stats': reply(200, { total: 1, active: 1, inactive: 0, queued: 0, running: 0, connected_channels: 1 }),
      'GET /publications/': reply(200, { publications: [], total: 0 }),
    });
    const store = storeWith();
    store.dispatch(api.endpoints.getProcesses.initiate());
    store.dispatch(api.endpoints.getProcessStats.initiate());
    store.dispatch(api.endpoints.getPublications.initiate());
    await store.dispatch(api.endpoints.getExecution.initiate('ex-1'));
    await requested(server, 'GET /publications/', 1);

    // Still running: nothing else refetches.
    await store.dispatch(api.endpoints.getExecution.initiate('ex-1', { forceRefetch: true }));
    await new Promise((r) => setTimeout(r, 30));
    expect(server.calls('GET /processes/')).toHaveLength(1);

    server.on({ 'GET /executions/ex-1': reply(200, execution('completed')) });
    await store.dispatch(api.endpoints.getExecution.initiate('ex-1', { forceRefetch: true }));
    await requested(server, 'GET /processes/', 2);
    await requested(server, 'GET /processes/stats', 2);
    await requested(server, 'GET /publications/', 2);
  });

  it('retry refetches the execution and the process list', async () => {
    const server = mockApi({
      'GET /executions/ex-1': reply(200, execution('error')),
      'GET /processes/': reply(200, { processes: [process], total: 1 }),
      'POST /executions/ex-1/retry': reply(202, { execution_id: 'ex-1', process: { ...process, status: 'running' } }),
    });
    const store = storeWith();
    store.dispatch(api.endpoints.getProcesses.initiate());
    store.dispatch(api.endpoints.getExecution.initiate('ex-1'));
    await requested(server, 'GET /executions/ex-1', 1);

    await store.dispatch(api.endpoints.retryExecution.initiate('ex-1'));
    await requested(server, 'GET /executions/ex-1', 2);
    await requested(server, 'GET /processes/', 2);
  });

  it('refetches the processes when a channel or an API configuration they use is deleted', async () => {
    const server = mockApi({
      'GET /processes/': reply(200, { processes: [process], total: 1 }),
      'DELETE /channels/ch-1': reply(204),
      'DELETE /youtube-apis/yt-1': reply(204),
    });
    const store = storeWith();
    store.dispatch(api.endpoints.getProcesses.initiate());
    await requested(server, 'GET /processes/', 1);

    await store.dispatch(api.endpoints.deleteChannel.initiate('ch-1'));
    await requested(server, 'GET /processes/', 2);
    await store.dispatch(api.endpoints.deleteYoutubeApi.initiate('yt-1'));
    await requested(server, 'GET /processes/', 3);
  });
});
