import { languageChanged } from '../app/preferencesSlice';
import { makeStore } from '../app/store';
import {
  channelFixture,
  chatModelConfigFixture,
  promptFixture,
  promptSummaryOf,
  proxyFixture,
  testUser,
  authResult,
  voiceFixture,
  youtubeApiFixture,
  youtubeApiList,
} from '../testing/fixtures';
import { mockApi, reply, type ApiMock } from '../testing/mockApi';
import { api } from '.';
import { loggedOut } from './authSlice';
import { errorDetail, errorMessage, errorStatus } from './baseQuery';

function storeWith(token: string | null = 'stored-token', language: 'pt' | 'en' = 'en') {
  return makeStore({ auth: { token }, preferences: { language } });
}

describe('api slice: requests', () => {
  it('sends the stored token as a bearer token and the UI language as Accept-Language', async () => {
    const server = mockApi({ 'GET /auth/me': reply(200, testUser) });
    const store = storeWith('abc', 'pt');

    const result = await store.dispatch(api.endpoints.me.initiate());

    expect(result.data).toEqual(testUser);
    const [request] = server.calls('GET /auth/me');
    expect(request.url.pathname).toBe('/api/v1/auth/me');
    expect(request.headers.get('authorization')).toBe('Bearer abc');
    expect(request.headers.get('accept-language')).toBe('pt');
  });

  it('sends no authorization header without a token, and follows a language change', async () => {
    const server = mockApi({ 'POST /auth/reset-password': reply(202, { detail: 'sent' }) });
    const store = storeWith(null, 'en');

    await store.dispatch(api.endpoints.requestPasswordReset.initiate({ email: 'a@b.co' }));
    store.dispatch(languageChanged('pt'));
    await store.dispatch(api.endpoints.requestPasswordReset.initiate({ email: 'a@b.co' }));

    const [first, second] = server.calls('POST /auth/reset-password');
    expect(first.headers.get('authorization')).toBeNull();
    expect(first.headers.get('accept-language')).toBe('en');
    expect(second.headers.get('accept-language')).toBe('pt');
    expect(first.headers.get('content-type')).toMatch(/application\/json/);
    expect(first.body).toEqual({ email: 'a@b.co' });
  });
});

describe('api slice: errors', () => {
  it('takes the message from the answer’s detail', async () => {
    mockApi({ 'POST /auth/register': reply(409, { detail: 'An account with this email already exists' }) });
    const store = storeWith(null);

    const result = await store.dispatch(
      api.endpoints.register.initiate({ name: 'A', email: 'a@b.co', password: 'secret1', plan: 'monthly', time_zone: 'UTC' }),
    );

    expect('error' in result && result.error).toBeTruthy();
    const error = 'error' in result ? result.error : undefined;
    expect(errorMessage(error)).toBe('An account with this email already exists');
    expect(errorDetail(error)).toBe('An account with this email already exists');
    expect(errorStatus(error)).toBe(409);
  });

  it('falls back to "HTTP {status}: {statusText}" when there is no detail', async () => {
    mockApi({ 'POST /auth/reset-password': reply(500, { message: 'boom' }) });
    const store = storeWith(null);

    const result = await store.dispatch(api.endpoints.requestPasswordReset.initiate({ email: 'a@b.co' }));

    const error = 'error' in result ? result.error : undefined;
    expect(errorMessage(error)).toBe('HTTP 500: Internal Server Error');
    expect(errorDetail(error)).toBeUndefined();
  });

  it('keeps a non-JSON error answer as text and still builds the HTTP message', async () => {
    mockApi({ 'POST /auth/reset-password': reply(502, '<html>Bad gateway</html>', { contentType: 'text/html' }) });
    const store = storeWith(null);

    const result = await store.dispatch(api.endpoints.requestPasswordReset.initiate({ email: 'a@b.co' }));

    const error = 'error' in result ? result.error : undefined;
    expect(errorMessage(error)).toBe('HTTP 502: Bad Gateway');
    expect(error).toMatchObject({ status: 502, data: '<html>Bad gateway</html>' });
  });

  it('returns a non-JSON success answer as text', async () => {
    mockApi({ 'POST /auth/reset-password': reply(202, 'queued', { contentType: 'text/plain' }) });
    const store = storeWith(null);

    const result = await store.dispatch(api.endpoints.requestPasswordReset.initiate({ email: 'a@b.co' }));

    expect(result.data).toBe('queued');
  });

  it('reports a network failure with the fallback a screen gives', async () => {
    globalThis.fetch = jest.fn(() => Promise.reject(new TypeError('Failed to fetch'))) as unknown as typeof fetch;
    const store = storeWith(null);

    const result = await store.dispatch(api.endpoints.requestPasswordReset.initiate({ email: 'a@b.co' }));

    const error = 'error' in result ? result.error : undefined;
    expect(errorStatus(error)).toBeUndefined();
    expect(errorMessage(error)).toMatch(/Failed to fetch/);
    expect(errorMessage(error, 'Could not reach the server')).toBe('Could not reach the server');
  });
});

describe('api slice: session', () => {
  it('stores the token of a successful login and caches the user', async () => {
    mockApi({ 'POST /auth/login': reply(200, authResult(testUser, 'fresh')) });
    const store = storeWith(null);

    await store.dispatch(api.endpoints.login.initiate({ email: 'ana@example.com', password: 'secret1' }));

    expect(store.getState().auth.token).toBe('fresh');
    expect(api.endpoints.me.select()(store.getState()).data).toEqual(testUser);
  });

  it('clears the token when a call answers 401 (session expired)', async () => {
    mockApi({ 'GET /auth/me': reply(401, { detail: 'Your session has expired; please sign in again' }) });
    const store = storeWith('old');

    await store.dispatch(api.endpoints.me.initiate());

    expect(store.getState().auth.token).toBeNull();
    expect(store.getState().auth.ended).toBe(true);
  });

  it('keeps the token when login answers 401 (wrong credentials)', async () => {
    mockApi({ 'POST /auth/login': reply(401, { detail: 'Invalid credentials' }) });
    const store = storeWith('still-valid');

    const result = await store.dispatch(api.endpoints.login.initiate({ email: 'a@b.co', password: 'nope' }));

    expect(errorStatus('error' in result ? result.error : undefined)).toBe(401);
    expect(store.getState().auth.token).toBe('still-valid');
  });

  it('clears the token when /auth/me fails for another reason', async () => {
    mockApi({ 'GET /auth/me': reply(500, { detail: 'Internal server error' }) });
    const store = storeWith('old');

    await store.dispatch(api.endpoints.me.initiate());

    expect(store.getState().auth.token).toBeNull();
  });

  it('replaces the stored token with the one a password change returns', async () => {
    const server = mockApi({
      'PUT /auth/password': reply(200, { ...authResult(testUser, 'new-token'), detail: 'Password updated successfully' }),
    });
    const store = storeWith('old-token');

    await store.dispatch(api.endpoints.changePassword.initiate({ current_password: 'secret1', new_password: 'secret2' }));

    expect(server.calls('PUT /auth/password')[0].headers.get('authorization')).toBe('Bearer old-token');
    expect(store.getState().auth.token).toBe('new-token');
  });

  it('drops every cached answer when the user signs out', async () => {
    mockApi({ 'GET /auth/me': reply(200, testUser) });
    const store = storeWith('abc');
    await store.dispatch(api.endpoints.me.initiate());
    expect(api.endpoints.me.select()(store.getState()).data).toEqual(testUser);

    store.dispatch(loggedOut());

    expect(store.getState().auth.token).toBeNull();
    expect(api.endpoints.me.select()(store.getState()).data).toBeUndefined();
  });
});

describe('api slice: connections (tags)', () => {
  /** Waits until `route` was requested `count` times. */
  async function requested(server: ApiMock, route: string, count: number) {
    for (let i = 0; i < 50 && server.calls(route).length < count; i += 1) await new Promise((r) => setTimeout(r, 10));
    expect(server.calls(route)).toHaveLength(count);
  }

  it('pages every list with skip 0 and limit 100, and passes the filters', async () => {
    const server = mockApi({
      'GET /channels/': reply(200, { channels: [], total: 0 }),
      'GET /youtube-apis/': reply(200, youtubeApiList([])),
      'GET /proxies/': reply(200, { proxies: [], total: 0 }),
    });
    const store = storeWith();

    await store.dispatch(api.endpoints.listChannels.initiate());
    await store.dispatch(api.endpoints.listYoutubeApis.initiate({ enabled_only: true }));
    await store.dispatch(api.endpoints.listProxies.initiate());

    const query = (route: string) => Object.fromEntries(server.calls(route)[0].url.searchParams);
    expect(query('GET /channels/')).toEqual({ skip: '0', limit: '100' });
    expect(query('GET /youtube-apis/')).toEqual({ skip: '0', limit: '100', enabled_only: 'true' });
    expect(query('GET /proxies/')).toEqual({ skip: '0', limit: '100', active_only: 'false' });
  });

  it('refetches the list after a create, and only the touched row’s holders after an update or toggle', async () => {
    const main = channelFixture();
    const server = mockApi({
      'GET /channels/': reply(200, { channels: [main], total: 1 }),
      'GET /channels/ch-1': reply(200, main),
      'GET /channels/ch-2': reply(200, channelFixture({ id: 'ch-2' })),
      'POST /channels/': reply(201, channelFixture({ id: 'ch-3' })),
      'PUT /channels/ch-1/toggle': reply(200, { ...main, is_active: false }),
      'PUT /channels/ch-2': reply(404, { detail: 'Channel not found' }),
    });
    const store = storeWith();
    store.dispatch(api.endpoints.listChannels.initiate());
    store.dispatch(api.endpoints.getChannel.initiate('ch-1'));
    store.dispatch(api.endpoints.getChannel.initiate('ch-2'));
    await requested(server, 'GET /channels/', 1);

    await store.dispatch(api.endpoints.createChannel.initiate({ channel_id: 'UCx' }));
    await requested(server, 'GET /channels/', 2);
    expect(server.calls('GET /channels/ch-1')).toHaveLength(1);

    await store.dispatch(api.endpoints.toggleChannel.initiate('ch-1'));
    await requested(server, 'GET /channels/', 3);
    await requested(server, 'GET /channels/ch-1', 2);
    expect(server.calls('GET /channels/ch-2')).toHaveLength(1);

    // A failed call changed nothing: nothing refetches.
    await store.dispatch(api.endpoints.updateChannel.initiate({ id: 'ch-2', name: 'x' }));
    await new Promise((r) => setTimeout(r, 30));
    expect(server.calls('GET /channels/')).toHaveLength(3);
    expect(server.calls('GET /channels/ch-2')).toHaveLength(1);
  });

  it('refetches the whole YouTube API list after set-active and after a delete', async () => {
    const server = mockApi({
      'GET /youtube-apis/': reply(200, youtubeApiList([youtubeApiFixture()])),
      'PUT /youtube-apis/yt-2/set-active': reply(200, youtubeApiFixture({ id: 'yt-2' })),
      'DELETE /youtube-apis/yt-1': reply(204),
      'POST /youtube-apis/yt-1/authorize': reply(200, { url: 'http://x/auth' }),
    });
    const store = storeWith();
    store.dispatch(api.endpoints.listYoutubeApis.initiate());
    await requested(server, 'GET /youtube-apis/', 1);

    await store.dispatch(api.endpoints.setActiveYoutubeApi.initiate('yt-2'));
    await requested(server, 'GET /youtube-apis/', 2);
    await store.dispatch(api.endpoints.authorizeYoutubeApi.initiate('yt-1'));
    await store.dispatch(api.endpoints.deleteYoutubeApi.initiate('yt-1'));
    await requested(server, 'GET /youtube-apis/', 3);
  });

  it('reads a missing chat-model configuration (404) as null, and other failures as errors', async () => {
    const server = mockApi({ 'GET /chatgpt/config': reply(404, { detail: 'No configuration' }) });
    const store = storeWith();

    const missing = await store.dispatch(api.endpoints.getChatModelConfig.initiate());
    expect(missing.data).toBeNull();
    expect(missing.isError).toBe(false);

    server.on({ 'GET /chatgpt/config': reply(500, { detail: 'Database unavailable' }) });
    const failed = await store.dispatch(api.endpoints.getChatModelConfig.initiate(undefined, { forceRefetch: true }));
    expect(failed.isError).toBe(true);
    expect(errorMessage(failed.error)).toBe('Database unavailable');
  });

  it('reloads the chat-model configuration after a successful test or a test of the stored key only', async () => {
    const server = mockApi({
      'GET /chatgpt/config': reply(200, chatModelConfigFixture()),
      'POST /chatgpt/test': (request) =>
        reply(200, {
          is_connected: (request.body as { api_key?: string }).api_key !== 'sk-wrong',
          last_tested: '2025-03-08T10:00:00.000Z',
          detail: null,
        }),
    });
    const store = storeWith();
    store.dispatch(api.endpoints.getChatModelConfig.initiate());
    await requested(server, 'GET /chatgpt/config', 1);

    await store.dispatch(api.endpoints.testChatModel.initiate({ api_key: 'sk-wrong' }));
    await new Promise((r) => setTimeout(r, 30));
    expect(server.calls('GET /chatgpt/config')).toHaveLength(1);

    await store.dispatch(api.endpoints.testChatModel.initiate({ api_key: 'sk-right' }));
    await requested(server, 'GET /chatgpt/config', 2);

    await store.dispatch(api.endpoints.testChatModel.initiate({}));
    await requested(server, 'GET /chatgpt/config', 3);
  });

  it('refetches a proxy’s holders after its test', async () => {
    const server = mockApi({
      'GET /proxies/': reply(200, { proxies: [proxyFixture()], total: 1 }),
      'POST /proxies/px-1/test': reply(200, { is_connected: true, last_tested: 'x', detail: null, latency_ms: 5 }),
    });
    const store = storeWith();
    store.dispatch(api.endpoints.listProxies.initiate());
    await requested(server, 'GET /proxies/', 1);

    await store.dispatch(api.endpoints.testProxy.initiate('px-1'));
    await requested(server, 'GET /proxies/', 2);
  });

  it('refetches the catalogue: a row after toggles and updates, the list after a create, processes after a delete', async () => {
    // The processes feature comes later; a stand-in query provides its list's tag.
    const withProcesses = api.injectEndpoints({
      endpoints: (builder) => ({
        processesStandIn: builder.query<unknown, void>({
          query: () => '/processes/',
          providesTags: [{ type: 'Process', id: 'LIST' }],
        }),
      }),
    });
    const prompt = promptFixture();
    const voice = voiceFixture();
    const server = mockApi({
      'GET /prompts/': reply(200, { prompts: [promptSummaryOf(prompt)], total: 1 }),
      'GET /voices/': reply(200, { voices: [voice], total: 1 }),
      'GET /processes/': reply(200, []),
      'GET /prompts/pr-1': reply(200, prompt),
      'PUT /prompts/pr-1/toggle': reply(200, prompt),
      'PUT /prompts/pr-1': reply(200, prompt),
      'PUT /prompts/pr-1/full': reply(200, prompt),
      'POST /prompts/full': reply(201, promptFixture({ id: 'pr-2' })),
      'DELETE /prompts/pr-1': reply(200, { detail: 'deleted', affected_processes: 1 }),
      'PUT /voices/vo-1/toggle': reply(200, voice),
      'DELETE /voices/vo-1': reply(200, { detail: 'deleted', affected_processes: 0 }),
    });
    const store = storeWith();
    store.dispatch(api.endpoints.listPrompts.initiate());
    store.dispatch(api.endpoints.getPrompt.initiate('pr-1'));
    store.dispatch(api.endpoints.listVoices.initiate());
    store.dispatch(withProcesses.endpoints.processesStandIn.initiate());
    await requested(server, 'GET /prompts/', 1);
    await requested(server, 'GET /processes/', 1);
    expect(Object.fromEntries(server.calls('GET /voices/')[0].url.searchParams)).toEqual({
      skip: '0',
      limit: '100',
      active_only: 'false',
    });

    await store.dispatch(api.endpoints.togglePrompt.initiate('pr-1'));
    await requested(server, 'GET /prompts/', 2);
    await requested(server, 'GET /prompts/pr-1', 2);
    await store.dispatch(api.endpoints.updatePromptDescription.initiate({ id: 'pr-1', description: 'New' }));
    await requested(server, 'GET /prompts/pr-1', 3);
    expect(server.calls('PUT /prompts/pr-1')[0].body).toEqual({ description: 'New' });
    await store.dispatch(
      api.endpoints.updatePromptFull.initiate({ id: 'pr-1', name: 'N', description: 'D', content: 'C', languages: { en: {} } }),
    );
    await requested(server, 'GET /prompts/pr-1', 4);
    await store.dispatch(
      api.endpoints.createPromptFull.initiate({ name: 'N', description: 'D', content: 'C', languages: { pt: {} } }),
    );
    await requested(server, 'GET /prompts/', 5);
    expect(server.calls('GET /prompts/pr-1')).toHaveLength(4);
    expect(server.calls('GET /processes/')).toHaveLength(1);

    const deleted = await store.dispatch(api.endpoints.deletePrompt.initiate('pr-1'));
    expect(deleted.data).toEqual({ detail: 'deleted', affected_processes: 1 });
    await requested(server, 'GET /prompts/', 6);
    await requested(server, 'GET /processes/', 2);

    await store.dispatch(api.endpoints.toggleVoice.initiate('vo-1'));
    await requested(server, 'GET /voices/', 2);
    expect(server.calls('GET /processes/')).toHaveLength(2);
    await store.dispatch(api.endpoints.deleteVoice.initiate('vo-1'));
    await requested(server, 'GET /voices/', 3);
    await requested(server, 'GET /processes/', 3);
  });
});
