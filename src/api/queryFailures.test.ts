import { makeStore } from '../app/store';
import { mockApi, never, reply } from '../testing/mockApi';
import { api } from '.';
import { queryLabel } from './queryFailures';

/** The store logs each failed query once, whoever reads it (spec §7: failures are logged). */

const store = makeStore({ auth: { token: 'stored-token' }, preferences: { language: 'en' } });

afterEach(() => jest.restoreAllMocks());

test('a failing query read by two screens is fetched and logged once', async () => {
  const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const server = mockApi({ 'GET /channels/': reply(500, { detail: 'The database is down.' }) });
  const first = store.dispatch(api.endpoints.listChannels.initiate());
  const second = store.dispatch(api.endpoints.listChannels.initiate());
  await Promise.all([first, second]);
  expect(server.calls('GET /channels/')).toHaveLength(1);
  expect(log).toHaveBeenCalledTimes(1);
  expect(log).toHaveBeenCalledWith(
    'Failed to load channels',
    expect.objectContaining({ status: 500, detail: 'The database is down.' }),
  );

  // Asked again (the user retries) and failing again: a new failure, a new line.
  await store.dispatch(api.endpoints.listChannels.initiate(undefined, { forceRefetch: true }));
  expect(log).toHaveBeenCalledTimes(2);
  first.unsubscribe();
  second.unsubscribe();
});

test('a query that succeeds logs nothing, nor does a failed mutation (its caller logs it with its message)', async () => {
  const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  mockApi({
    'GET /proxies/': reply(200, { proxies: [], total: 0 }),
    'DELETE /proxies/p-1': reply(500, { detail: 'No.' }),
  });
  const list = store.dispatch(api.endpoints.listProxies.initiate());
  await list;
  await store.dispatch(api.endpoints.deleteProxy.initiate('p-1'));
  expect(log).not.toHaveBeenCalled();
  list.unsubscribe();
});

test('a query abandoned on the way (aborted) is no failure', async () => {
  const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const server = mockApi({ 'GET /auth/sessions': never() });
  const sessions = store.dispatch(api.endpoints.listSessions.initiate());
  for (let i = 0; i < 100 && server.calls('GET /auth/sessions').length === 0; i += 1) await new Promise((r) => setTimeout(r, 10));
  expect(server.calls('GET /auth/sessions')).toHaveLength(1);
  sessions.abort();
  await sessions;
  expect(log).not.toHaveBeenCalled();
  sessions.unsubscribe();
});

test('names what a query loads', () => {
  expect(queryLabel('listVoices')).toBe('voices');
  expect(queryLabel('listYoutubeApis')).toBe('youtube apis');
  expect(queryLabel('getProcessStats')).toBe('process stats');
  expect(queryLabel('getChatModelConfig')).toBe('chat model config');
  expect(queryLabel('me')).toBe('me');
});
