import { screen, waitFor, within } from '@testing-library/react';
import { adminUser, mockApi, proxyFixture, renderWithProviders, reply, signedInState, testUser } from '../../../testing';
import { isDimmed, renderSettings } from '../testing';
import { ProxiesPanel } from './ProxiesPanel';

const office = proxyFixture();
const failing = proxyFixture({
  id: 'px-2',
  name: 'Datacenter',
  url: 'socks5://dc.example.com:1080',
  has_password: false,
  is_connected: false,
  last_tested: '2025-03-06T09:00:00.000Z',
});
const fresh = proxyFixture({
  id: 'px-3',
  name: 'Fresh',
  url: 'https://fresh.example.com:443',
  has_password: false,
  is_connected: false,
  last_tested: null,
});
const inactive = proxyFixture({
  id: 'px-4',
  name: 'Spare',
  url: 'http://spare.example.com:3128',
  has_password: false,
  is_active: false,
});

function list(...proxies: ReturnType<typeof proxyFixture>[]) {
  return reply(200, { proxies, total: proxies.length });
}

const noBanner = { show: () => undefined, clear: () => undefined };

describe('Proxies panel', () => {
  it('renders nothing, and asks nothing, for a user who is not an admin', async () => {
    const server = mockApi({ 'GET /auth/me': reply(200, testUser) });
    const { container } = renderWithProviders(<ProxiesPanel banner={noBanner} />, { preloadedState: signedInState });

    await waitFor(() => expect(server.calls('GET /auth/me')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(container).toBeEmptyDOMElement();
    expect(server.calls('GET /proxies/')).toHaveLength(0);
  });

  it('lists name, URL (password masked), connection status and the last test', async () => {
    const { server } = renderSettings(
      'proxies',
      { 'GET /proxies/': list(office, failing, fresh, inactive) },
      { user: adminUser },
    );

    const items = await screen.findByRole('list', { name: 'Proxies' });
    const first = within(items).getByRole('listitem', { name: 'Office proxy' });
    expect(within(first).getByText('http://user:••••••••abcd@proxy.example.com:8080')).toBeInTheDocument();
    expect(within(first).getByText('Connected')).toBeInTheDocument();
    expect(within(first).getByText(/^Last tested \d\d\/\d\d\/2025 \d\d:\d\d$/)).toBeInTheDocument();
    expect(within(items).getByRole('listitem', { name: 'Datacenter' })).toHaveTextContent('Disconnected');
    const notTested = within(items).getByRole('listitem', { name: 'Fresh' });
    expect(notTested).toHaveTextContent('Not tested');
    expect(notTested).toHaveTextContent('Never tested');

    const spare = within(items).getByRole('listitem', { name: 'Spare' });
    expect(within(spare).getByText('Disabled')).toBeInTheDocument();
    expect(isDimmed(within(spare).getByRole('heading'), spare)).toBe(true);
    expect(within(spare).getByRole('button', { name: 'Test Spare' })).toBeDisabled();
    expect(within(first).getByRole('button', { name: 'Test Office proxy' })).toBeEnabled();

    const request = server.calls('GET /proxies/')[0];
    expect(Object.fromEntries(request.url.searchParams)).toEqual({ skip: '0', limit: '100', active_only: 'false' });
  });

  it('tests a proxy: disabled while testing, then the result', async () => {
    let answer: (value: ReturnType<typeof reply>) => void = () => undefined;
    const { user, server } = renderSettings(
      'proxies',
      {
        'GET /proxies/': list(office),
        'POST /proxies/px-1/test': () => new Promise((resolve) => (answer = resolve)),
      },
      { user: adminUser },
    );

    const test = await screen.findByRole('button', { name: 'Test Office proxy' });
    await user.click(test);
    expect(test).toBeDisabled();
    expect(test).toHaveTextContent('Testing…');
    answer(reply(200, { is_connected: true, last_tested: '2025-03-08T10:00:00.000Z', detail: null, latency_ms: 182 }));

    expect(await screen.findByRole('status')).toHaveTextContent('Connected through “Office proxy” in 182 ms');
    await waitFor(() => expect(server.calls('GET /proxies/')).toHaveLength(2));

    server.on({
      'POST /proxies/px-1/test': reply(200, {
        is_connected: false,
        last_tested: '2025-03-08T10:00:00.000Z',
        detail: null,
        latency_ms: null,
      }),
    });
    await user.click(screen.getByRole('button', { name: 'Test Office proxy' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to connect to proxy. Check the URL.');

    server.on({ 'POST /proxies/px-1/test': reply(422, { detail: 'The proxy is disabled' }) });
    jest.spyOn(console, 'error').mockImplementationOnce(() => undefined);
    await user.click(screen.getByRole('button', { name: 'Test Office proxy' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('The proxy is disabled'));
  });

  it('checks the URL format and shows the accepted forms', async () => {
    const { user, server } = renderSettings(
      'proxies',
      { 'GET /proxies/': list(), 'POST /proxies/': reply(201, proxyFixture({ id: 'px-9', name: 'New' })) },
      { user: adminUser },
    );

    expect(await screen.findByText(/No proxy yet/)).toBeInTheDocument();
    await user.click(screen.getAllByRole('button', { name: 'Add proxy' })[1]);
    const dialog = await screen.findByRole('dialog', { name: 'Add a proxy' });
    const examples = within(dialog).getByRole('list', { name: 'Accepted formats:' });
    expect(
      within(examples)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['http://host:port', 'http://user:password@host:port', 'https://host:port', 'socks5://user:password@host:port']);

    await user.type(within(dialog).getByLabelText(/^Name/), 'New');
    await user.type(within(dialog).getByLabelText(/^URL/), 'proxy.example.com:8080');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('Enter a URL such as http://host:port: http, https or socks5, with a host and a port'),
    ).toBeInTheDocument();
    expect(server.calls('POST /proxies/')).toHaveLength(0);

    const url = within(dialog).getByLabelText(/^URL/);
    await user.clear(url);
    await user.type(url, 'socks5://bob:pw@proxy.example.com:1080');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Proxy saved')).toBeInTheDocument();
    expect(server.calls('POST /proxies/')[0].body).toEqual({ name: 'New', url: 'socks5://bob:pw@proxy.example.com:1080' });
  });

  it('edits with the masked URL kept, and shows the server’s message or the generic one on failure', async () => {
    const { user, server } = renderSettings(
      'proxies',
      { 'GET /proxies/': list(office), 'PUT /proxies/px-1': reply(409, { detail: 'A proxy with this name exists' }) },
      { user: adminUser },
    );

    await user.click(await screen.findByRole('button', { name: 'Edit Office proxy' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the proxy' });
    expect(within(dialog).getByLabelText(/^URL/)).toHaveValue('http://user:••••••••abcd@proxy.example.com:8080');
    expect(within(dialog).getByText(/leave it as is to keep it/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('A proxy with this name exists');
    expect(server.calls('PUT /proxies/px-1')[0].body).toEqual({
      name: 'Office proxy',
      url: 'http://user:••••••••abcd@proxy.example.com:8080',
    });

    server.on({ 'PUT /proxies/px-1': reply(500, {}) });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('Failed to save proxy'));
  });

  it('reports failed toggles and deletions with the spec’s messages', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, server } = renderSettings(
      'proxies',
      {
        'GET /proxies/': list(office),
        'PUT /proxies/px-1/toggle': reply(500, {}),
        'DELETE /proxies/px-1': reply(500, {}),
      },
      { user: adminUser, language: 'pt' },
    );

    await user.click(await screen.findByRole('button', { name: 'Desativar Office proxy' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Erro ao alterar status do proxy');

    await user.click(screen.getByRole('button', { name: 'Excluir Office proxy' }));
    const confirm = await screen.findByRole('dialog', { name: 'Excluir o proxy “Office proxy”?' });
    await user.click(within(confirm).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Erro ao excluir proxy'));
    expect(server.calls('DELETE /proxies/px-1')).toHaveLength(1);
    log.mockRestore();
  });

  it('leaves the list empty, with a retry, when it fails to load', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderSettings('proxies', { 'GET /proxies/': reply(500, {}) }, { user: adminUser });

    expect(await screen.findByText(/The proxies could not be loaded/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(within(screen.getByRole('tabpanel')).queryByRole('listitem')).not.toBeInTheDocument();
    expect(log).toHaveBeenCalledWith('Failed to load proxies', expect.anything());
    log.mockRestore();
  });
});
