import { languageChanged } from '../app/preferencesSlice';
import { makeStore } from '../app/store';
import { authResult, testUser } from '../testing/fixtures';
import { mockApi, reply } from '../testing/mockApi';
import { api } from './apiSlice';
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
