import { screen, waitFor, within } from '@testing-library/react';
import { channelFixture, deferred, mockApi, renderApp, reply, signedInState, testUser, type MockHandler } from '../../testing';

const main = channelFixture();
const unnamed = channelFixture({
  id: 'ch-2',
  channel_id: 'UCsecond0000000000000002',
  name: null,
  is_active: false,
  process_count: 1,
  min_views: 0,
  subscriber_count: null,
  video_count: null,
  view_count: null,
});

function list(...channels: ReturnType<typeof channelFixture>[]) {
  return reply(200, { channels, total: channels.length });
}

function renderChannels(handlers: Record<string, MockHandler>, language: 'en' | 'pt' = 'en') {
  const server = mockApi({ 'GET /auth/me': reply(200, testUser), ...handlers });
  const rendered = renderApp('/channels', { preloadedState: { ...signedInState, preferences: { language } } });
  return { server, ...rendered };
}

describe('ChannelsPage', () => {
  it('shows skeletons while loading, then a card per channel with its figures', async () => {
    const answer = deferred();
    const { server } = renderChannels({ 'GET /channels/': answer.handler });

    expect(await screen.findByRole('heading', { level: 1, name: 'Channels' })).toBeInTheDocument();
    expect(await screen.findByRole('status', { name: 'Loading…' })).toBeInTheDocument();
    answer.resolve(list(main, unnamed));

    const card = await screen.findByRole('article', { name: 'Main channel' });
    expect(within(card).getByRole('heading', { name: 'Main channel' })).toBeInTheDocument();
    expect(within(card).getByText('2 connected processes')).toBeInTheDocument();
    expect(within(card).getByText('Enabled')).toBeInTheDocument();
    expect(within(card).getByText('1,000')).toBeInTheDocument();
    expect(within(card).getByText('UCmainchannel000000000001')).toBeInTheDocument();
    expect(within(card).getByText('1,234,567')).toBeInTheDocument();
    expect(within(card).getByText('321')).toBeInTheDocument();
    expect(within(card).getByText('98,765,432')).toBeInTheDocument();

    // Unnamed: shown by its channel id; statistics not known yet; disabled.
    const second = screen.getByRole('article', { name: 'UCsecond0000000000000002' });
    expect(within(second).getByText('1 connected process')).toBeInTheDocument();
    expect(within(second).getByText('Disabled')).toBeInTheDocument();
    expect(within(second).getAllByText('—')).toHaveLength(3);
    expect(within(second).getByRole('button', { name: 'Enable UCsecond0000000000000002' })).toBeInTheDocument();

    expect(screen.queryByRole('status', { name: 'Loading…' })).not.toBeInTheDocument();
    const request = server.calls('GET /channels/')[0];
    expect(request.url.searchParams.get('skip')).toBe('0');
    expect(request.url.searchParams.get('limit')).toBe('100');
  });

  it('formats the figures for the Portuguese locale', async () => {
    renderChannels({ 'GET /channels/': list(main) }, 'pt');

    const card = await screen.findByRole('article', { name: 'Main channel' });
    expect(within(card).getByText('1.234.567')).toBeInTheDocument();
    expect(within(card).getByText('2 processos conectados')).toBeInTheDocument();
    expect(within(card).getByText('Ativado')).toBeInTheDocument();
  });

  it('says zero processes in the plural in Portuguese', async () => {
    renderChannels({ 'GET /channels/': list({ ...main, process_count: 0 }) }, 'pt');

    const card = await screen.findByRole('article', { name: 'Main channel' });
    expect(within(card).getByText('0 processos conectados')).toBeInTheDocument();
  });

  it('offers to connect a channel when there is none', async () => {
    const { user } = renderChannels({ 'GET /channels/': list() });

    expect(await screen.findByText(/No channel connected yet/)).toBeInTheDocument();
    const buttons = screen.getAllByRole('button', { name: 'Connect channel' });
    expect(buttons).toHaveLength(2); // the header's and the empty state's
    await user.click(buttons[1]);

    expect(await screen.findByRole('dialog', { name: 'Connect a channel' })).toBeInTheDocument();
  });

  it('requires the channel id when connecting', async () => {
    const { user, server } = renderChannels({ 'GET /channels/': list() });
    await screen.findByText(/No channel connected yet/);

    await user.click(screen.getAllByRole('button', { name: 'Connect channel' })[0]);
    const dialog = await screen.findByRole('dialog', { name: 'Connect a channel' });
    await user.click(within(dialog).getByRole('button', { name: 'Connect' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Please fill in all fields');
    expect(within(dialog).getByLabelText(/Channel ID/)).toHaveAttribute('aria-invalid', 'true');
    expect(server.calls('POST /channels/')).toHaveLength(0);
  });

  it('connects a channel: blank name left out, blank minimum views sent as 0', async () => {
    let channels = [main];
    const created = channelFixture({ id: 'ch-9', channel_id: 'UCnew0000000000000000009', name: null, min_views: 0 });
    const { user, server } = renderChannels({
      'GET /channels/': () => list(...channels),
      'POST /channels/': () => {
        channels = [main, created];
        return reply(201, created);
      },
    });
    await screen.findByRole('article', { name: 'Main channel' });

    await user.click(screen.getByRole('button', { name: 'Connect channel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect a channel' });
    await user.type(within(dialog).getByLabelText(/Channel ID/), ' UCnew0000000000000000009 ');
    expect(within(dialog).getByText('Optional. The channel ID is used as the name when empty.')).toBeInTheDocument();
    const minViews = within(dialog).getByLabelText('Minimum views');
    expect(minViews).toHaveValue(0);
    await user.clear(minViews);
    await user.click(within(dialog).getByRole('button', { name: 'Connect' }));

    expect(await screen.findByText('Channel “UCnew0000000000000000009” connected')).toBeInTheDocument();
    expect(server.calls('POST /channels/')[0].body).toEqual({ channel_id: 'UCnew0000000000000000009', min_views: 0 });
    expect(await screen.findByRole('article', { name: 'UCnew0000000000000000009' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.calls('GET /channels/')).toHaveLength(2);
  });

  it('never sends a negative minimum', async () => {
    const { user, server } = renderChannels({
      'GET /channels/': list(),
      'POST /channels/': reply(201, channelFixture({ min_views: 0 })),
    });
    await screen.findByText(/No channel connected yet/);

    await user.click(screen.getAllByRole('button', { name: 'Connect channel' })[0]);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Channel ID/), 'UCabc');
    await user.type(within(dialog).getByLabelText('Name'), 'Stories');
    const minViews = within(dialog).getByLabelText('Minimum views');
    await user.clear(minViews);
    await user.type(minViews, '-50');
    await user.click(within(dialog).getByRole('button', { name: 'Connect' }));

    await waitFor(() => expect(server.calls('POST /channels/')).toHaveLength(1));
    expect(server.calls('POST /channels/')[0].body).toEqual({ channel_id: 'UCabc', name: 'Stories', min_views: 0 });
  });

  it('shows the server’s message at the top of the form, else “Erro ao salvar canal”', async () => {
    const { user, server } = renderChannels(
      {
        'GET /channels/': list(),
        'POST /channels/': reply(409, { detail: 'Este canal já está conectado' }),
      },
      'pt',
    );
    await screen.findByText(/Nenhum canal conectado ainda/);

    await user.click(screen.getAllByRole('button', { name: 'Conectar canal' })[0]);
    const dialog = await screen.findByRole('dialog', { name: 'Conectar um canal' });
    await user.type(within(dialog).getByLabelText(/ID do canal/), 'UCdup');
    await user.click(within(dialog).getByRole('button', { name: 'Conectar' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Este canal já está conectado');

    server.on({ 'POST /channels/': reply(500, { message: 'boom' }) });
    await user.click(within(dialog).getByRole('button', { name: 'Conectar' }));
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('Erro ao salvar canal'));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('edits a channel with its channel id read-only', async () => {
    const { user, server } = renderChannels({
      'GET /channels/': list(main),
      'PUT /channels/ch-1': reply(200, { ...main, name: 'Renamed', min_views: 50 }),
    });
    await screen.findByRole('article', { name: 'Main channel' });

    await user.click(screen.getByRole('button', { name: 'Edit Main channel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit channel' });
    const channelId = within(dialog).getByLabelText('Channel ID');
    expect(channelId).toHaveValue('UCmainchannel000000000001');
    expect(channelId).toHaveAttribute('readonly');
    expect(within(dialog).getByText('The channel ID cannot be changed.')).toBeInTheDocument();

    const name = within(dialog).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Renamed');
    const minViews = within(dialog).getByLabelText('Minimum views');
    await user.clear(minViews);
    await user.type(minViews, '50');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Channel “Renamed” updated')).toBeInTheDocument();
    expect(server.calls('PUT /channels/ch-1')[0].body).toEqual({ name: 'Renamed', min_views: 50 });
  });

  it('says how many of how many it shows past 100 channels, and pages through them', async () => {
    const many = (from: number, count: number) =>
      Array.from({ length: count }, (_, index) =>
        channelFixture({ id: `ch-${from + index}`, name: `Channel ${from + index}`, channel_id: `UC${from + index}` }),
      );
    const { user, server } = renderChannels({
      'GET /channels/': (request) =>
        request.url.searchParams.get('skip') === '100'
          ? reply(200, { channels: many(101, 40), total: 140 })
          : reply(200, { channels: many(1, 100), total: 140 }),
    });
    await screen.findByRole('article', { name: 'Channel 1' });
    const pager = screen.getByRole('navigation', { name: 'Pages of the list' });
    expect(within(pager).getByText('1–100 of 140')).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Previous' })).toBeDisabled();

    await user.click(within(pager).getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('article', { name: 'Channel 140' })).toBeInTheDocument();
    expect(within(pager).getByText('101–140 of 140')).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(Object.fromEntries(server.calls('GET /channels/').at(-1)!.url.searchParams)).toMatchObject({
      skip: '100',
      limit: '100',
    });
  });

  it('toggles a channel', async () => {
    const { user, server } = renderChannels({
      'GET /channels/': list(main),
      'PUT /channels/ch-1/toggle': reply(200, { ...main, is_active: false }),
    });
    await screen.findByRole('article', { name: 'Main channel' });

    await user.click(screen.getByRole('button', { name: 'Disable Main channel' }));

    expect(await screen.findByText('Channel “Main channel” disabled')).toBeInTheDocument();
    expect(server.calls('PUT /channels/ch-1/toggle')).toHaveLength(1);
  });

  it('asks before switching off a channel that active processes use, saying how many stop (en and pt)', async () => {
    const busy = { ...main, active_process_count: 2 };
    const { user, server } = renderChannels({
      'GET /channels/': list(busy),
      'PUT /channels/ch-1/toggle': reply(200, { ...busy, is_active: false }),
    });
    await screen.findByRole('article', { name: 'Main channel' });

    await user.click(screen.getByRole('button', { name: 'Disable Main channel' }));
    const confirm = await screen.findByRole('dialog', { name: 'Switch off “Main channel”?' });
    expect(
      within(confirm).getByText(
        '2 active processes use it. They will stop running until this is switched on again or they use another.',
      ),
    ).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.calls('PUT /channels/ch-1/toggle')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Disable Main channel' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Switch off' }));
    expect(await screen.findByText('Channel “Main channel” disabled')).toBeInTheDocument();
    expect(server.calls('PUT /channels/ch-1/toggle')).toHaveLength(1);
  });

  it('says in Portuguese how many processes stop', async () => {
    const { user } = renderChannels({ 'GET /channels/': list({ ...main, active_process_count: 1 }) }, 'pt');
    await screen.findByRole('article', { name: 'Main channel' });
    await user.click(screen.getByRole('button', { name: /Desativar Main channel/ }));
    const confirm = await screen.findByRole('dialog', { name: 'Desativar “Main channel”?' });
    expect(within(confirm).getByText(/^1 processo ativo usa este item/)).toBeInTheDocument();
  });

  it('removes a channel after a confirmation that names it', async () => {
    let channels = [main, unnamed];
    const { user, server } = renderChannels({
      'GET /channels/': () => list(...channels),
      'DELETE /channels/ch-1': () => {
        channels = [unnamed];
        return reply(204);
      },
    });
    await screen.findByRole('article', { name: 'Main channel' });

    await user.click(screen.getByRole('button', { name: 'Remove Main channel' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove the channel “Main channel”?' });
    expect(server.calls('DELETE /channels/ch-1')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));

    expect(await screen.findByText('Channel “Main channel” removed')).toBeInTheDocument();
    expect(server.calls('DELETE /channels/ch-1')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Main channel' })).not.toBeInTheDocument());
  });

  it('logs a failed removal and says so', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderChannels({
      'GET /channels/': list(main),
      'DELETE /channels/ch-1': reply(500, {}),
    });
    await screen.findByRole('article', { name: 'Main channel' });

    await user.click(screen.getByRole('button', { name: 'Remove Main channel' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }));

    expect(await screen.findByText('Failed to remove the channel')).toBeInTheDocument();
    expect(log).toHaveBeenCalledWith('Failed to delete channel', expect.objectContaining({ status: 500 }));
    expect(await screen.findByRole('article', { name: 'Main channel' })).toBeInTheDocument();
    log.mockRestore();
  });

  it('shows an empty list with an error and a retry when loading fails', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, server } = renderChannels({ 'GET /channels/': reply(503, { detail: 'Database unavailable' }) });

    expect(await screen.findByText('Your channels could not be loaded. Database unavailable')).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    expect(log).toHaveBeenCalled();

    server.on({ 'GET /channels/': list(main) });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Main channel' })).toBeInTheDocument();
    log.mockRestore();
  });
});
