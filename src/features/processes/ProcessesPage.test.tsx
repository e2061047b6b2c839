import { screen, waitFor, within } from '@testing-library/react';
import { channelFixture, deferred, never as pending, reply, youtubeApiFixture, youtubeApiList } from '../../testing';
import { formatDate } from '../../lib/dates';
import type { Process } from '../../api';
import { daysBefore, processFixture, processList, renderProcesses } from './testing';

const idle = processFixture({ id: 'p-1', name: 'Waiting one', is_active: true, last_execution: null });
const never = processFixture({ id: 'p-2', name: 'Switched off', is_active: false, last_execution: null, language: 'en' });
const running = processFixture({
  id: 'p-3',
  name: 'Busy one',
  status: 'running',
  execution_step: 2,
  execution_steps: [
    'starting',
    'generating_texts',
    'creating_story',
    'generating_audios',
    'generating_images',
    'generating_video',
    'publishing_video',
  ],
  last_execution: daysBefore(3),
  latest_execution_id: 'ex-3',
});
const completed = processFixture({ id: 'p-4', name: 'Done one', status: 'completed', last_execution: daysBefore(1) });
const failed = processFixture({
  id: 'p-5',
  name: 'Broken one',
  status: 'error',
  last_error: 'The chat model refused the request',
  last_execution: daysBefore(5),
  latest_execution_id: 'ex-5',
});
// A status this version does not know (a newer server's): shown as it is.
const odd = processFixture({ id: 'p-6', name: 'Odd one', status: 'paused' as Process['status'] });
const lacking = processFixture({
  id: 'p-7',
  name: 'Lacking one',
  is_active: false,
  channel_id: null,
  channel_name: null,
  needs: ['channel', 'voice_inactive', 'language'],
});

describe('ProcessesPage: the list', () => {
  it('shows skeletons, then a card per process with its status, channel, language, voice and dates', async () => {
    const answer = deferred();
    renderProcesses({ 'GET /processes/': answer.handler });

    expect(await screen.findByRole('heading', { level: 1, name: 'Processes' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'Each process generates a video not yet generated for the selected language. The video is published the day after execution at the chosen time or, when the process asks for your review, once you approve it.',
      ),
    ).toBeInTheDocument();
    answer.resolve(processList(idle, never, running, completed, failed, odd));

    const first = await screen.findByRole('article', { name: 'Waiting one' });
    expect(within(first).getByText('Idle')).toBeInTheDocument();
    expect(within(first).getByText('Main channel')).toBeInTheDocument();
    expect(within(first).getByText('Portuguese')).toBeInTheDocument();
    // Its flag is a decorative picture beside the name, not an emoji (drawn as boxes without an emoji font).
    expect(within(first).getByText('Portuguese').querySelector('img[alt=""]')).not.toBeNull();
    expect(first.textContent).not.toMatch(/[\u{1F1E6}-\u{1F1FF}]/u);
    expect(within(first).getByText('Ana Narradora')).toBeInTheDocument();
    expect(within(first).getByText('09:00')).toBeInTheDocument();
    expect(within(first).getByText('Waiting for first execution')).toBeInTheDocument();
    expect(within(first).getByText('03/10/2025')).toBeInTheDocument();

    const off = screen.getByRole('article', { name: 'Switched off' });
    expect(within(off).getByText('Never executed')).toBeInTheDocument();
    expect(within(off).getByText('Disabled')).toBeInTheDocument();
    expect(within(off).getByText('English')).toBeInTheDocument();
    expect(within(off).getByRole('button', { name: 'Enable Switched off' })).toBeInTheDocument();

    const busy = screen.getByRole('article', { name: 'Busy one' });
    expect(within(busy).getByText('Running')).toBeInTheDocument();
    expect(within(busy).getByText('Step 3 of 7: Creating story')).toBeInTheDocument();
    expect(
      within(busy).getByText(`${formatDate(running.last_execution!, { locale: 'en-US' })} (3 days ago)`),
    ).toBeInTheDocument();
    expect(within(busy).getByRole('button', { name: 'Execute Busy one' })).toBeDisabled();
    expect(within(busy).getByRole('button', { name: 'Running: show the execution status of Busy one' })).toBeInTheDocument();

    const done = screen.getByRole('article', { name: 'Done one' });
    expect(within(done).getByText('Completed')).toBeInTheDocument();
    expect(
      within(done).getByText(`${formatDate(completed.last_execution!, { locale: 'en-US' })} (yesterday)`),
    ).toBeInTheDocument();
    expect(within(done).getByRole('button', { name: 'Execute Done one' })).toBeEnabled();

    const broken = screen.getByRole('article', { name: 'Broken one' });
    expect(within(broken).getByText('Error')).toBeInTheDocument();
    expect(within(broken).getByText('Last error: The chat model refused the request')).toBeInTheDocument();
    expect(within(broken).getByRole('button', { name: 'Details of the last execution of Broken one' })).toBeInTheDocument();

    // An unknown status is shown as sent; only a running process's badge is a button.
    const oddCard = screen.getByRole('article', { name: 'Odd one' });
    expect(within(oddCard).getByText('paused')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^Running: show the execution status/ })).toHaveLength(1);
    expect(screen.queryByRole('status', { name: 'Loading…' })).not.toBeInTheDocument();
  });

  it('speaks Portuguese: statuses, never executed, waiting and days ago', async () => {
    renderProcesses({ 'GET /processes/': processList(idle, never, running, failed) }, { language: 'pt' });

    const first = await screen.findByRole('article', { name: 'Waiting one' });
    expect(within(first).getByText('Parado')).toBeInTheDocument();
    expect(within(first).getByText('Aguardando a primeira execução')).toBeInTheDocument();
    expect(within(first).getByText('Português')).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'Switched off' })).getByText('Nunca executado')).toBeInTheDocument();
    const busy = screen.getByRole('article', { name: 'Busy one' });
    expect(within(busy).getByText('Em execução')).toBeInTheDocument();
    expect(within(busy).getByText('Etapa 3 de 7: Criando história')).toBeInTheDocument();
    expect(within(busy).getByText(`${formatDate(running.last_execution!)} (há 3 dias)`)).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'Broken one' })).getByText('Erro')).toBeInTheDocument();
    expect(screen.getByText(/Cada processo gera um vídeo inédito no idioma selecionado/)).toBeInTheDocument();
  });

  it('shows a process whose video waits for review, and opens that video from its status', async () => {
    const reviewing = processFixture({
      id: 'p-8',
      name: 'Careful one',
      status: 'awaiting_review',
      publish_mode: 'review',
      publication_time: '18:30',
      last_execution: daysBefore(1),
      latest_execution_id: 'ex-8',
    });
    const { user } = renderProcesses({
      'GET /processes/': processList(reviewing, completed),
      'GET /executions/ex-8': pending(),
    });

    const card = await screen.findByRole('article', { name: 'Careful one' });
    expect(within(card).getByText('Awaiting review')).toBeInTheDocument();
    expect(within(card).getByText('A video waits for your review.')).toBeInTheDocument();
    expect(within(card).getByText('Publishes at').nextElementSibling).toHaveTextContent('18:30, after your review');
    expect(within(card).getByRole('button', { name: 'Execute Careful one' })).toBeEnabled();
    // A process in automatic mode just shows its time.
    const done = screen.getByRole('article', { name: 'Done one' });
    expect(within(done).getByText('Publishes at').nextElementSibling).toHaveTextContent(/^09:00$/);
    expect(within(done).queryByRole('button', { name: /^Awaiting review/ })).not.toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Awaiting review: review the video of Careful one' }));
    expect(await screen.findByRole('dialog', { name: 'Execution of “Careful one”' })).toBeInTheDocument();
  });

  it('names a process awaiting review in Portuguese', async () => {
    renderProcesses(
      {
        'GET /processes/': processList(
          processFixture({ id: 'p-8', name: 'Careful one', status: 'awaiting_review', latest_execution_id: 'ex-8' }),
        ),
      },
      { language: 'pt' },
    );

    const card = await screen.findByRole('article', { name: 'Careful one' });
    expect(within(card).getByText('Aguardando revisão')).toBeInTheDocument();
    expect(within(card).getByText('Um vídeo aguarda a sua revisão.')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Aguardando revisão: revisar o vídeo de Careful one' })).toBeInTheDocument();
  });

  it('says a process whose last run was cancelled is cancelled, in both languages', async () => {
    const cancelled = processFixture({ id: 'p-9', name: 'Stopped one', status: 'cancelled', last_execution: daysBefore(1) });
    const { unmount } = renderProcesses({ 'GET /processes/': processList(cancelled) });
    expect(within(await screen.findByRole('article', { name: 'Stopped one' })).getByText('Cancelled')).toBeInTheDocument();
    unmount();

    renderProcesses({ 'GET /processes/': processList(cancelled) }, { language: 'pt' });
    expect(within(await screen.findByRole('article', { name: 'Stopped one' })).getByText('Cancelado')).toBeInTheDocument();
  });

  it('follows a queued run until a worker has finished it, without the status dialog open', async () => {
    const queued = processFixture({ id: 'p-q', name: 'Waiting run', status: 'queued', execution_step: 0, execution_steps: [] });
    let current = queued;
    const { server } = renderProcesses({ 'GET /processes/': () => processList(current) });
    const card = await screen.findByRole('article', { name: 'Waiting run' });
    expect(within(card).getByText('Queued')).toBeInTheDocument();

    current = { ...queued, status: 'completed', execution_step: null, execution_steps: null };
    await waitFor(() => expect(within(card).getByText('Completed')).toBeInTheDocument(), { timeout: 15_000 });
    const fetched = server.calls('GET /processes/').length;
    expect(fetched).toBeGreaterThanOrEqual(2);
    // Nothing under way any more: no more polling.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(server.calls('GET /processes/')).toHaveLength(fetched);
  }, 60_000);

  it('says what a process lacks to run', async () => {
    renderProcesses({ 'GET /processes/': processList(lacking) });

    const card = await screen.findByRole('article', { name: 'Lacking one' });
    expect(
      within(card).getByText(
        'Cannot run yet: its channel was removed; its voice is inactive; its prompt has no texts in this language.',
      ),
    ).toBeInTheDocument();
    expect(within(card).getByText('Channel').nextElementSibling).toHaveTextContent('—');
  });

  it('says when its channel is disabled or its configuration uploads to another channel (en and pt)', async () => {
    const stopped = processFixture({ id: 'p-8', name: 'Stopped one', needs: ['channel_disabled', 'channel_mismatch'] });
    renderProcesses({ 'GET /processes/': processList(stopped) }, { language: 'pt' });

    const card = await screen.findByRole('article', { name: 'Stopped one' });
    expect(
      within(card).getByText(/o canal está desativado; a configuração de API envia para outro canal do YouTube\.$/),
    ).toBeInTheDocument();
  });

  it('offers to create a process when there is none', async () => {
    const { user } = renderProcesses({
      'GET /processes/': processList(),
      'GET /channels/': reply(200, { channels: [], total: 0 }),
    });

    expect(await screen.findByText(/No process yet/)).toBeInTheDocument();
    const buttons = screen.getAllByRole('button', { name: 'New process' });
    expect(buttons).toHaveLength(2);
    await user.click(buttons[1]);
    expect(await screen.findByRole('dialog', { name: 'New process' })).toBeInTheDocument();
  });

  it('shows an empty list with an error and a retry when loading fails', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, server } = renderProcesses({ 'GET /processes/': reply(503, { detail: 'Database unavailable' }) });

    expect(await screen.findByText('Your processes could not be loaded. Database unavailable')).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    expect(log).toHaveBeenCalled();

    server.on({ 'GET /processes/': processList(idle) });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Waiting one' })).toBeInTheDocument();
    log.mockRestore();
  });

  it('asks for the list with skip 0, limit 100 and active_only false', async () => {
    const { server } = renderProcesses({ 'GET /processes/': processList(idle) });
    await screen.findByRole('article', { name: 'Waiting one' });
    expect(Object.fromEntries(server.calls('GET /processes/')[0].url.searchParams)).toEqual({
      skip: '0',
      limit: '100',
      active_only: 'false',
    });
  });
});

describe('ProcessesPage: actions', () => {
  it('toggles a process', async () => {
    const { user, server } = renderProcesses({
      'GET /processes/': processList(idle),
      'PUT /processes/p-1/toggle': reply(200, { ...idle, is_active: false }),
    });
    await screen.findByRole('article', { name: 'Waiting one' });

    await user.click(screen.getByRole('button', { name: 'Disable Waiting one' }));

    expect(await screen.findByText('Process “Waiting one” disabled')).toBeInTheDocument();
    expect(server.calls('PUT /processes/p-1/toggle')).toHaveLength(1);
    await waitFor(() => expect(server.calls('GET /processes/')).toHaveLength(2));
  });

  it('shows why a process cannot be switched on', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderProcesses({
      'GET /processes/': processList(lacking),
      'PUT /processes/p-7/toggle': reply(422, { detail: 'The process cannot be enabled: channel' }),
    });
    await screen.findByRole('article', { name: 'Lacking one' });

    await user.click(screen.getByRole('button', { name: 'Enable Lacking one' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('The process cannot be enabled: channel');
    log.mockRestore();
  });

  it('deletes a process after a confirmation that names it', async () => {
    let processes = [idle, completed];
    const { user, server } = renderProcesses({
      'GET /processes/': () => processList(...processes),
      'DELETE /processes/p-1': () => {
        processes = [completed];
        return reply(204);
      },
    });
    await screen.findByRole('article', { name: 'Waiting one' });

    await user.click(screen.getByRole('button', { name: 'Delete Waiting one' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete the process “Waiting one”?' });
    expect(within(confirm).getByText(/Its executions and their files are deleted too/)).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.calls('DELETE /processes/p-1')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete Waiting one' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Process “Waiting one” deleted')).toBeInTheDocument();
    expect(server.calls('DELETE /processes/p-1')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Waiting one' })).not.toBeInTheDocument());
    expect(screen.getByRole('article', { name: 'Done one' })).toBeInTheDocument();
  });

  it('moves a process to another channel together with a configuration of that channel', async () => {
    const { user, server } = renderProcesses({
      'GET /processes/': processList(idle),
      'GET /channels/': reply(200, {
        channels: [
          channelFixture({ id: 'ch-1', name: 'Main channel', channel_id: 'UCmain' }),
          channelFixture({ id: 'ch-2', name: 'Second channel', channel_id: 'UCsecond' }),
        ],
        total: 2,
      }),
      'GET /youtube-apis/': reply(
        200,
        youtubeApiList([
          youtubeApiFixture({ id: 'yt-1', name: 'Main OAuth', channel_id: 'UCmain' }),
          youtubeApiFixture({ id: 'yt-2', name: 'Second OAuth', channel_id: 'UCsecond', is_active: false }),
        ]),
      ),
      'PUT /processes/p-1': reply(200, { ...idle, channel_id: 'ch-2', channel_name: 'Second channel', youtube_api_id: 'yt-2' }),
    });
    await screen.findByRole('article', { name: 'Waiting one' });

    await user.click(screen.getByRole('button', { name: 'Change the channel of Waiting one' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change the channel of “Waiting one”' });
    const select = within(dialog).getByRole('combobox', { name: /^Channel/ });
    await waitFor(() => expect(select).toHaveTextContent('Main channel'));
    const config = within(dialog).getByRole('combobox', { name: /^API configuration/ });
    await waitFor(() => expect(config).toHaveTextContent('Main OAuth'));
    await user.click(select);
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Second channel' }));
    // The configuration follows: only the second channel's own is offered.
    await waitFor(() => expect(config).toHaveTextContent('Second OAuth'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Channel of “Waiting one” changed')).toBeInTheDocument();
    expect(server.calls('PUT /processes/p-1')[0].body).toEqual({ channel_id: 'ch-2', youtube_api_id: 'yt-2' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
