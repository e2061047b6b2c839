import { screen, waitFor, within } from '@testing-library/react';
import type { Session } from '../../../api';
import { deferred, reply } from '../../../testing';
import { renderSettings } from '../testing';
import { deviceName, timeAgo } from './sessionDevice';

// Full screens on a busy 2-core machine: generous time per test.
jest.setTimeout(90_000);

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

function session(fields: Partial<Session> & Pick<Session, 'id'>): Session {
  return { created_at: ago(86_400_000 * 2), last_used_at: ago(0), user_agent: '', ip: '', current: false, ...fields };
}

const HERE = session({
  id: '11111111-1111-4111-8111-111111111111',
  user_agent: FIREFOX_LINUX,
  ip: '198.51.100.4',
  current: true,
});
const OFFICE = session({
  id: '22222222-2222-4222-8222-222222222222',
  user_agent: CHROME_WINDOWS,
  ip: '203.0.113.9',
  last_used_at: ago(5 * 60_000 + 5_000),
});
const PHONE = session({
  id: '33333333-3333-4333-8333-333333333333',
  user_agent: SAFARI_IPHONE,
  ip: '2001:db8::17',
  last_used_at: ago(2 * 3_600_000 + 5_000),
});
const LIST = 'GET /auth/sessions';

describe('Security › signed-in devices', () => {
  it('lists each device by browser and system, with its address, last activity and “This device”', async () => {
    renderSettings('security', { [LIST]: reply(200, { sessions: [HERE, OFFICE, PHONE] }) });

    const list = await screen.findByRole('list', { name: 'Signed-in devices' });
    const here = within(list).getByRole('listitem', { name: 'Firefox on Linux' });
    expect(here).toHaveTextContent('This device');
    expect(here).toHaveTextContent('198.51.100.4 · Active now');
    const office = within(list).getByRole('listitem', { name: 'Chrome on Windows' });
    expect(office).toHaveTextContent('203.0.113.9 · Last active 5 minutes ago');
    expect(office).not.toHaveTextContent('This device');
    expect(within(list).getByRole('listitem', { name: 'Safari on iOS' })).toHaveTextContent('Last active 2 hours ago');
    expect(screen.getByRole('button', { name: 'Sign out Chrome on Windows (203.0.113.9)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign out everywhere else' })).toBeInTheDocument();
  });

  it('speaks Portuguese', async () => {
    renderSettings('security', { [LIST]: reply(200, { sessions: [HERE, PHONE] }) }, { language: 'pt' });

    const list = await screen.findByRole('list', { name: 'Dispositivos conectados' });
    expect(within(list).getByRole('listitem', { name: 'Firefox no Linux' })).toHaveTextContent('Este dispositivo');
    expect(within(list).getByRole('listitem', { name: 'Safari no iOS' })).toHaveTextContent('Última atividade há 2 horas');
    expect(screen.getByRole('button', { name: 'Desconectar de todos os outros' })).toBeInTheDocument();
  });

  it('signs one device out after a confirmation naming it, and lists the devices again', async () => {
    let sessions = [HERE, OFFICE];
    const { user, server, store } = renderSettings('security', {
      [LIST]: () => reply(200, { sessions }),
      [`DELETE /auth/sessions/${OFFICE.id}`]: () => {
        sessions = [HERE];
        return reply(204);
      },
    });

    await user.click(await screen.findByRole('button', { name: 'Sign out Chrome on Windows (203.0.113.9)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out “Chrome on Windows”?' });
    expect(dialog).toHaveTextContent('That device (203.0.113.9) will have to sign in again.');
    expect(server.calls(`DELETE /auth/sessions/${OFFICE.id}`)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Sign out' }));

    expect(await screen.findByText('“Chrome on Windows” was signed out.')).toBeInTheDocument();
    expect(server.calls(`DELETE /auth/sessions/${OFFICE.id}`)).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Chrome on Windows' })).not.toBeInTheDocument());
    expect(server.calls(LIST).length).toBeGreaterThanOrEqual(2);
    expect(store.getState().auth.token).not.toBeNull();
    // No other device left: nothing to sign out "everywhere else".
    expect(screen.queryByRole('button', { name: 'Sign out everywhere else' })).not.toBeInTheDocument();
  });

  it('cancelling the confirmation signs nothing out', async () => {
    const { user, server } = renderSettings('security', { [LIST]: reply(200, { sessions: [HERE, OFFICE] }) });
    await user.click(await screen.findByRole('button', { name: 'Sign out Chrome on Windows (203.0.113.9)' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.calls(`DELETE /auth/sessions/${OFFICE.id}`)).toHaveLength(0);
  });

  it('signing this device out signs out here', async () => {
    const { user, server, store } = renderSettings('security', {
      [LIST]: reply(200, { sessions: [HERE, OFFICE] }),
      [`DELETE /auth/sessions/${HERE.id}`]: reply(204),
    });
    await user.click(await screen.findByRole('button', { name: 'Sign out Firefox on Linux (198.51.100.4)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out “Firefox on Linux”?' });
    expect(dialog).toHaveTextContent('This is the device you are using: you will be signed out here.');
    await user.click(within(dialog).getByRole('button', { name: 'Sign out' }));

    await waitFor(() => expect(store.getState().auth.token).toBeNull());
    expect(server.calls(`DELETE /auth/sessions/${HERE.id}`)).toHaveLength(1);
  });

  it('signs out everywhere else after a confirmation, and shows the server’s answer', async () => {
    let sessions = [HERE, OFFICE, PHONE];
    const { user, server } = renderSettings('security', {
      [LIST]: () => reply(200, { sessions }),
      'POST /auth/sessions/revoke-others': () => {
        sessions = [HERE];
        return reply(200, { detail: 'Signed out of 2 other sessions.', revoked: 2 });
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere else' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere else?' });
    expect(dialog).toHaveTextContent('This browser stays signed in.');
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere else' }));

    expect(await screen.findByText('Signed out of 2 other sessions.')).toBeInTheDocument();
    expect(server.calls('POST /auth/sessions/revoke-others')).toHaveLength(1);
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Signed-in devices' })).getAllByRole('listitem')).toHaveLength(1),
    );
  });

  it('shows a failure to sign out, and keeps the device listed', async () => {
    const { user } = renderSettings('security', {
      [LIST]: reply(200, { sessions: [HERE, OFFICE] }),
      [`DELETE /auth/sessions/${OFFICE.id}`]: reply(404, { detail: 'This session does not exist or has already ended' }),
    });
    await user.click(await screen.findByRole('button', { name: 'Sign out Chrome on Windows (203.0.113.9)' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('This session does not exist or has already ended')).toBeInTheDocument();
    expect(await screen.findByRole('listitem', { name: 'Chrome on Windows' })).toBeInTheDocument();
  });

  it('shows skeletons while loading, then an error with a retry', async () => {
    const answer = deferred();
    let fail = true;
    const { user } = renderSettings('security', {
      [LIST]: () => (fail ? answer.handler() : reply(200, { sessions: [HERE] })),
    });
    expect(await screen.findByRole('status', { name: 'Loading…' })).toBeInTheDocument();
    answer.resolve(reply(500, { detail: 'Internal error' }));
    expect(await screen.findByText(/Could not load your signed-in devices\./)).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('listitem', { name: 'Firefox on Linux' })).toBeInTheDocument();
  });

  it('says so when no device is listed', async () => {
    renderSettings('security', { [LIST]: reply(200, { sessions: [] }) });
    expect(await screen.findByText('No device is signed in.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign out everywhere else' })).not.toBeInTheDocument();
  });
});

describe('deviceName and timeAgo', () => {
  it('names common browsers and systems, and other clients by their own name', () => {
    expect(deviceName(FIREFOX_LINUX)).toEqual({ browser: 'Firefox', system: 'Linux' });
    expect(deviceName(CHROME_WINDOWS)).toEqual({ browser: 'Chrome', system: 'Windows' });
    expect(deviceName(SAFARI_IPHONE)).toEqual({ browser: 'Safari', system: 'iOS' });
    expect(
      deviceName(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
      ),
    ).toEqual({ browser: 'Edge', system: 'macOS' });
    expect(
      deviceName(
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
      ),
    ).toEqual({ browser: 'Chrome', system: 'Android' });
    expect(deviceName('curl/8.5.0')).toEqual({ browser: 'curl', system: null });
    expect(deviceName('')).toEqual({ browser: null, system: null });
  });

  it('says how long ago in the interface language', () => {
    const now = Date.parse('2026-11-27T12:00:00Z');
    expect(timeAgo('2026-11-27T11:59:30Z', 'en-US', now)).toBeNull();
    expect(timeAgo('2026-11-27T11:55:00Z', 'en-US', now)).toBe('5 minutes ago');
    expect(timeAgo('2026-11-27T09:00:00Z', 'pt-BR', now)).toBe('há 3 horas');
    expect(timeAgo('2026-11-24T12:00:00Z', 'en-US', now)).toBe('3 days ago');
    expect(timeAgo('2026-11-26T11:00:00Z', 'pt-BR', now)).toBe('ontem');
  });
});
