import { makeStore } from '../app/store';
import { processFixture } from '../testing/fixtures';
import { mockApi, reply, type ApiMock } from '../testing/mockApi';
import { api } from '.';
import type { Process } from './types';

/**
 * Screens that refresh themselves (issue 15): lists come back when the user returns to the tab,
 * and a list that sees a run end brings the history, the executions and the counters with it.
 * Alone in its file: every store listens to the window, so one store per file keeps counts exact.
 */

async function requested(server: ApiMock, route: string, count: number) {
  for (let i = 0; i < 200 && server.calls(route).length < count; i += 1) await new Promise((r) => setTimeout(r, 10));
  expect(server.calls(route)).toHaveLength(count);
}

const store = makeStore({ auth: { token: 'stored-token' }, preferences: { language: 'en' } });
const running: Process = processFixture({ id: 'p-1', status: 'running', execution_step: 3, execution_steps: [] });
const stats = { total: 1, active: 1, inactive: 0, queued: 0, running: 1, connected_channels: 1 };

test('a list fetched again that shows a run ended fetches the history, the executions and the counters; focus fetches again', async () => {
  let current = running;
  const server = mockApi({
    'GET /processes/': () => reply(200, { processes: [current], total: 1 }),
    'GET /processes/stats': reply(200, stats),
    'GET /publications/': reply(200, { publications: [], total: 0 }),
  });
  store.dispatch(api.endpoints.getProcesses.initiate());
  store.dispatch(api.endpoints.getProcessStats.initiate());
  store.dispatch(api.endpoints.getPublications.initiate());
  await requested(server, 'GET /processes/', 1);
  await requested(server, 'GET /publications/', 1);
  await requested(server, 'GET /processes/stats', 1);

  // Fetched again while the run goes on: nothing else moves.
  await store.dispatch(api.endpoints.getProcesses.initiate(undefined, { forceRefetch: true }));
  await new Promise((r) => setTimeout(r, 100));
  expect(server.calls('GET /publications/')).toHaveLength(1);

  // The run ended: the history and the counters follow.
  current = { ...running, status: 'completed', execution_step: null, execution_steps: null };
  await store.dispatch(api.endpoints.getProcesses.initiate(undefined, { forceRefetch: true }));
  await requested(server, 'GET /publications/', 2);
  await requested(server, 'GET /processes/stats', 2);

  // Back to the tab: every list shown is fetched again.
  window.dispatchEvent(new Event('focus'));
  await requested(server, 'GET /processes/', 4);
  await requested(server, 'GET /publications/', 3);
});
