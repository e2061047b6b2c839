import { screen, waitFor, within } from '@testing-library/react';
import { api, EXECUTION_STEP_KEYS, type Execution } from '../../api';
import { deferred, reply, type MockHandler } from '../../testing';
import { executionFixture, processFixture, processList, renderProcesses } from './testing';

const idle = processFixture({ id: 'p-1', name: 'Waiting one' });
const steps = [...EXECUTION_STEP_KEYS];
const running = processFixture({
  id: 'p-3',
  name: 'Busy one',
  status: 'running',
  execution_step: 2,
  execution_steps: steps,
  latest_execution_id: 'ex-3',
});
const failed = processFixture({
  id: 'p-5',
  name: 'Broken one',
  status: 'error',
  last_error: 'Old error',
  latest_execution_id: 'ex-5',
});

/** The step list's entry for `label` ("Generating audios"). */
function step(dialog: HTMLElement, label: string, list = 'Steps') {
  return within(within(dialog).getByRole('list', { name: list }))
    .getByText(label)
    .closest('li') as HTMLElement;
}

describe('execute (optimistic)', () => {
  it('shows the process queued at step 1 of 7 at once, before the server answers', async () => {
    const answer = deferred();
    let current = idle;
    const { user, server } = renderProcesses({
      'GET /processes/': () => processList(current),
      'POST /processes/p-1/execute': answer.handler,
    });
    const card = await screen.findByRole('article', { name: 'Waiting one' });

    await user.click(within(card).getByRole('button', { name: 'Execute Waiting one' }));

    // The run waits for a worker: queued, not running yet.
    expect(await within(card).findByText('Queued')).toBeInTheDocument();
    expect(within(card).getByText('Waiting for a worker to start it')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Execute Waiting one' })).toBeDisabled();
    expect(server.calls('POST /processes/p-1/execute')).toHaveLength(1);

    current = { ...idle, status: 'queued', execution_step: 0, execution_steps: steps, latest_execution_id: 'ex-9' };
    answer.resolve(reply(202, { execution_id: 'ex-9', process: current }));
    expect(await screen.findByText('Execution of “Waiting one” started')).toBeInTheDocument();
    await waitFor(() => expect(server.calls('GET /processes/')).toHaveLength(2));
    expect(within(card).getByText('Queued')).toBeInTheDocument();
  });

  it('on failure shows the error and leaves the process in error with its steps cleared', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const answer = deferred();
    const { user, server, store } = renderProcesses({
      'GET /processes/': processList(idle),
      'POST /processes/p-1/execute': answer.handler,
    });
    const card = await screen.findByRole('article', { name: 'Waiting one' });

    await user.click(within(card).getByRole('button', { name: 'Execute Waiting one' }));
    expect(await within(card).findByText('Waiting for a worker to start it')).toBeInTheDocument();
    answer.resolve(reply(409, { detail: 'The process is already running' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to execute “Waiting one”: The process is already running');
    expect(within(card).getByText('Error')).toBeInTheDocument();
    expect(within(card).queryByText('Waiting for a worker to start it')).not.toBeInTheDocument();
    expect(within(card).getByText('Last error: The process is already running')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Execute Waiting one' })).toBeEnabled();
    const cached = api.endpoints.getProcesses.select()(store.getState()).data?.processes[0];
    expect(cached).toMatchObject({ status: 'error', execution_step: null, execution_steps: null });
    // A failed call changed nothing on the server: the list is not fetched again.
    expect(server.calls('GET /processes/')).toHaveLength(1);
    log.mockRestore();
  });
});

describe('execution status dialog', () => {
  it('never promises "0 sec left" while a step that overran its usual time is still running', async () => {
    const { user } = renderProcesses({
      'GET /processes/': () => processList(running),
      'GET /executions/ex-3': reply(
        200,
        executionFixture({ id: 'ex-3', process_id: 'p-3', current_step: 6, estimated_seconds_left: 0 }),
      ),
    });
    await screen.findByRole('article', { name: 'Busy one' });

    await user.click(screen.getByRole('button', { name: 'Running: show the execution status of Busy one' }));
    const dialog = await screen.findByRole('dialog', { name: 'Execution of “Busy one”' });

    expect(await within(dialog).findByText('Taking longer than usual: the current step is still running')).toBeInTheDocument();
    expect(within(dialog).queryByText(/About 0 sec left/)).not.toBeInTheDocument();
  });

  it('shows step N of M, the progress and the time left, polls every 2 s and shows the video when done', async () => {
    let list = [running];
    const { user, server } = renderProcesses({
      'GET /processes/': () => processList(...list),
      'GET /executions/ex-3': reply(
        200,
        executionFixture({ id: 'ex-3', process_id: 'p-3', current_step: 2, estimated_seconds_left: 12 }),
      ),
    });
    await screen.findByRole('article', { name: 'Busy one' });

    await user.click(screen.getByRole('button', { name: 'Running: show the execution status of Busy one' }));
    const dialog = await screen.findByRole('dialog', { name: 'Execution of “Busy one”' });

    expect(await within(dialog).findByText('About 12 sec left')).toBeInTheDocument();
    expect(within(dialog).getByText('Step 3 of 7')).toBeInTheDocument();
    expect(within(dialog).getByRole('progressbar', { name: 'Execution progress' })).toHaveAttribute('aria-valuenow', '29');
    expect(step(dialog, 'Starting process')).toHaveTextContent('Done · 1.5 sec');
    expect(step(dialog, 'Generating texts')).toHaveTextContent('Done · 1.5 sec');
    expect(step(dialog, 'Creating story')).toHaveTextContent('In progress');
    expect(step(dialog, 'Creating story')).toHaveAttribute('aria-current', 'step');
    expect(step(dialog, 'Publishing video')).toHaveTextContent('Pending');
    expect(server.calls('GET /executions/ex-3')).toHaveLength(1);

    // The next poll finds the run finished, with its video.
    list = [{ ...running, status: 'completed', execution_step: null, execution_steps: null }];
    server.on({
      'GET /executions/ex-3': reply(
        200,
        executionFixture({
          id: 'ex-3',
          process_id: 'p-3',
          status: 'completed',
          current_step: 6,
          story_title: 'The last letter',
          finished_at: '2025-03-07T12:05:00.000Z',
          video_url: '/api/v1/media/ex-3/video.mp4?expires=1&signature=abc',
          thumbnail_url: '/api/v1/media/ex-3/thumbnail.jpg?expires=1&signature=abc',
        }),
      ),
    });
    const video = await within(dialog).findByLabelText('Video of “The last letter”', {}, { timeout: 4000 });
    expect(video.tagName).toBe('VIDEO');
    expect(video).toHaveAttribute('src', '/api/v1/media/ex-3/video.mp4?expires=1&signature=abc');
    expect(video).toHaveAttribute('poster', '/api/v1/media/ex-3/thumbnail.jpg?expires=1&signature=abc');
    expect(video).toHaveAttribute('controls');
    expect(within(dialog).getByText('Step 7 of 7')).toBeInTheDocument();
    expect(within(dialog).getByRole('progressbar', { name: 'Execution progress' })).toHaveAttribute('aria-valuenow', '100');
    expect(within(dialog).queryByText(/left$/)).not.toBeInTheDocument();
    expect(server.calls('GET /executions/ex-3')).toHaveLength(2);

    // The run ended: the list is fetched again, and polling stops.
    await waitFor(() => expect(server.calls('GET /processes/')).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(server.calls('GET /executions/ex-3')).toHaveLength(2);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(screen.getByRole('article', { name: 'Busy one' })).getByText('Completed')).toBeInTheDocument();
  }, 20000);

  it('estimates 2 seconds per remaining step when the server gives no estimate, in Portuguese too', async () => {
    const { user } = renderProcesses(
      {
        'GET /processes/': processList(running),
        'GET /executions/ex-3': reply(200, executionFixture({ id: 'ex-3', process_id: 'p-3', current_step: 2 })),
      },
      { language: 'pt' },
    );
    await screen.findByRole('article', { name: 'Busy one' });

    await user.click(screen.getByRole('button', { name: 'Em execução: ver o andamento de Busy one' }));
    const dialog = await screen.findByRole('dialog', { name: 'Execução de “Busy one”' });

    expect(await within(dialog).findByText('Cerca de 10 s restantes')).toBeInTheDocument();
    expect(within(dialog).getByText('Etapa 3 de 7')).toBeInTheDocument();
    expect(step(dialog, 'Iniciando processo', 'Etapas')).toHaveTextContent('Concluída · 1,5 s');
    expect(step(dialog, 'Gerando áudios', 'Etapas')).toHaveTextContent('Pendente');
  });

  it('shows the run from the process itself while its execution loads', async () => {
    const { user } = renderProcesses({
      'GET /processes/': processList(running),
      'GET /executions/ex-3': () => new Promise(() => undefined),
    });
    await screen.findByRole('article', { name: 'Busy one' });

    await user.click(screen.getByRole('button', { name: 'Running: show the execution status of Busy one' }));
    const dialog = await screen.findByRole('dialog', { name: 'Execution of “Busy one”' });

    expect(within(dialog).getByText('Step 3 of 7')).toBeInTheDocument();
    expect(within(dialog).getByText('About 10 sec left')).toBeInTheDocument();
    expect(step(dialog, 'Creating story')).toHaveTextContent('In progress');
  });

  it('shows a failed run’s error and retries it', async () => {
    const failure = executionFixture({
      id: 'ex-5',
      process_id: 'p-5',
      status: 'error',
      current_step: 3,
      error: 'The speech service timed out',
      finished_at: '2025-03-07T12:03:00.000Z',
    });
    const { user, server } = renderProcesses({
      'GET /processes/': processList(failed),
      'GET /executions/ex-5': reply(200, failure),
      'POST /executions/ex-5/retry': reply(202, {
        execution_id: 'ex-5',
        process: { ...failed, status: 'running', execution_step: 3, execution_steps: steps },
      }),
    });
    const card = await screen.findByRole('article', { name: 'Broken one' });
    expect(within(card).queryByRole('button', { name: /^Running: show/ })).not.toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Details of the last execution of Broken one' }));
    const dialog = await screen.findByRole('dialog', { name: 'Execution of “Broken one”' });

    expect(await within(dialog).findByText('The speech service timed out')).toBeInTheDocument();
    expect(within(dialog).getByText('Step 4 of 7')).toBeInTheDocument();
    expect(within(dialog).getAllByText('Failed')).toHaveLength(2); // the run's status chip and its failed step
    expect(step(dialog, 'Generating audios')).toHaveTextContent('Failed');
    expect(within(dialog).queryByLabelText(/^Video of/)).not.toBeInTheDocument();

    server.on({ 'GET /executions/ex-5': reply(200, { ...failure, status: 'running', error: null, finished_at: null }) });
    await user.click(within(dialog).getByRole('button', { name: 'Retry' }));

    expect(await screen.findByText('Execution of “Broken one” resumed')).toBeInTheDocument();
    expect(server.calls('POST /executions/ex-5/retry')).toHaveLength(1);
    await waitFor(() => expect(server.calls('GET /executions/ex-5')).toHaveLength(2));
    expect(await within(dialog).findByText('Running')).toBeInTheDocument();
    expect(within(dialog).queryByText('The speech service timed out')).not.toBeInTheDocument();
  });

  it('shows what the run warns about, even when it failed for another reason', async () => {
    const warning = 'No font on this server can draw some characters of this story (从 前)';
    const { user } = renderProcesses({
      'GET /processes/': processList(failed),
      'GET /executions/ex-5': reply(
        200,
        executionFixture({
          id: 'ex-5',
          process_id: 'p-5',
          status: 'error',
          current_step: 6,
          error: 'Upload refused',
          warnings: [warning],
        }),
      ),
    });
    const card = await screen.findByRole('article', { name: 'Broken one' });
    await user.click(within(card).getByRole('button', { name: 'Details of the last execution of Broken one' }));
    const dialog = await screen.findByRole('dialog', { name: 'Execution of “Broken one”' });
    expect(await within(dialog).findByText(warning)).toBeInTheDocument();
    expect(within(dialog).getByText('Upload refused')).toBeInTheDocument();
  });

  it.each([
    [3, { unit: 'chapters', done: 3, total: 5 }, 'Generating audios', 'In progress · 3 of 5 chapters narrated', 'en'],
    [4, { unit: 'images', done: 2, total: 10 }, 'Generating images', 'In progress · 2 of 10 images made', 'en'],
    [5, { unit: 'percent', done: 42, total: 100 }, 'Generating video', 'In progress · 42% rendered', 'en'],
    [6, { unit: 'percent', done: 70, total: 100 }, 'Publishing video', 'In progress · 70% uploaded', 'en'],
    [3, { unit: 'chapters', done: 1, total: 4 }, 'Gerando áudios', 'Em andamento · 1 de 4 capítulos narrados', 'pt'],
  ] as const)('shows how far step %i is within it (%j)', async (current, progress, label, text, language) => {
    const busy = { ...running, execution_step: current };
    const { user } = renderProcesses(
      {
        'GET /processes/': processList(busy),
        'GET /executions/ex-3': reply(200, executionFixture({ id: 'ex-3', process_id: 'p-3', current_step: current, progress })),
      },
      { language },
    );
    const card = await screen.findByRole('article', { name: 'Busy one' });
    const details =
      language === 'pt' ? 'Em execução: ver o andamento de Busy one' : 'Running: show the execution status of Busy one';
    await user.click(within(card).getByRole('button', { name: details }));
    const dialog = await screen.findByRole('dialog', {
      name: language === 'pt' ? 'Execução de “Busy one”' : 'Execution of “Busy one”',
    });
    await waitFor(() =>
      expect(within(step(dialog, label, language === 'pt' ? 'Etapas' : 'Steps')).getByText(text)).toBeInTheDocument(),
    );
  });

  it('keeps the dialog open with the reason when a retry is refused', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderProcesses({
      'GET /processes/': processList(failed),
      'GET /executions/ex-5': reply(200, executionFixture({ id: 'ex-5', process_id: 'p-5', status: 'error', current_step: 1 })),
      'POST /executions/ex-5/retry': reply(409, { detail: 'The process is already running' }),
    });
    await screen.findByRole('article', { name: 'Broken one' });

    await user.click(screen.getByRole('button', { name: 'Details of the last execution of Broken one' }));
    const dialog = await screen.findByRole('dialog', { name: 'Execution of “Broken one”' });
    // No error text from the server: the process's last error is shown.
    expect(await within(dialog).findByText('Old error')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Retry' }));

    expect(await within(dialog).findByText('The process is already running')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Execution of “Broken one”' })).toBeInTheDocument();
    log.mockRestore();
  });
});

describe('execution status dialog: the queue', () => {
  it('shows a queued run’s place in the queue and its wait, then the wait apart from the running time', async () => {
    const queuedAt = new Date(Date.now() - 65_000).toISOString();
    const waitingProcess = { ...running, status: 'queued' as const, execution_step: 0 };
    const { user, server } = renderProcesses({
      'GET /processes/': () => processList(waitingProcess),
      'GET /executions/ex-3': reply(
        200,
        executionFixture({
          id: 'ex-3',
          process_id: 'p-3',
          status: 'queued',
          current_step: 0,
          queued_at: queuedAt,
          started_at: null,
          queue_position: 3,
          estimated_seconds_left: 14,
        }),
      ),
    });
    const card = await screen.findByRole('article', { name: 'Busy one' });
    expect(within(card).getByText('Waiting for a worker to start it')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Queued: show the execution status of Busy one' }));
    const dialog = await screen.findByRole('dialog', { name: 'Execution of “Busy one”' });
    expect(await within(dialog).findByText(/^Number 3 in the queue, waiting for 1 min \d+ sec$/)).toBeInTheDocument();
    expect(within(dialog).getByText('Queued')).toBeInTheDocument();
    // A queued run can be cancelled too.
    expect(within(dialog).getByRole('button', { name: 'Cancel execution' })).toBeEnabled();

    // A worker took it 65 s after it was queued; it has run for 10 s.
    const startedAt = new Date(Date.parse(queuedAt) + 65_000).toISOString();
    server.on({
      'GET /executions/ex-3': reply(
        200,
        executionFixture({
          id: 'ex-3',
          process_id: 'p-3',
          status: 'completed',
          current_step: 6,
          queued_at: queuedAt,
          started_at: startedAt,
          finished_at: new Date(Date.parse(startedAt) + 10_000).toISOString(),
        }),
      ),
    });
    expect(
      await within(dialog).findByText('Waited 1 min 5 sec in the queue, ran for 10 sec', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
  }, 60_000);
});

describe('execution status dialog: cancel', () => {
  it('cancels a running execution once the owner confirms, and shows where it stopped', async () => {
    let list = [running];
    const { user, server } = renderProcesses({
      'GET /processes/': () => processList(...list),
      'GET /executions/ex-3': reply(200, executionFixture({ id: 'ex-3', process_id: 'p-3', current_step: 2 })),
    });
    await screen.findByRole('article', { name: 'Busy one' });
    await user.click(screen.getByRole('button', { name: 'Running: show the execution status of Busy one' }));
    const dialog = await screen.findByRole('dialog', { name: 'Execution of “Busy one”' });
    await within(dialog).findByText('About 10 sec left');

    // Cancelling asks first; saying no changes nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel execution' }));
    let confirm = await screen.findByRole('dialog', { name: 'Cancel the execution of “Busy one”?' });
    expect(confirm).toHaveTextContent(
      'The run stops within a few seconds and nothing is published; a video already uploaded is deleted from YouTube.',
    );
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Cancel the execution of “Busy one”?' })).not.toBeInTheDocument(),
    );
    expect(server.calls('POST /executions/ex-3/cancel')).toHaveLength(0);

    const cancelled = executionFixture({
      id: 'ex-3',
      process_id: 'p-3',
      status: 'cancelled',
      current_step: 2,
      finished_at: '2025-03-07T12:02:00.000Z',
    });
    server.on({
      'POST /executions/ex-3/cancel': () => {
        list = [{ ...running, status: 'idle', execution_step: null, execution_steps: null }];
        server.on({ 'GET /executions/ex-3': reply(200, cancelled) });
        return reply(200, cancelled);
      },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel execution' }));
    confirm = await screen.findByRole('dialog', { name: 'Cancel the execution of “Busy one”?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel execution' }));

    expect(await screen.findByText('Execution of “Busy one” cancelled')).toBeInTheDocument();
    expect(server.calls('POST /executions/ex-3/cancel')).toHaveLength(1);
    const shown = await screen.findByRole('dialog', { name: 'Execution of “Busy one”' });
    expect(await within(shown).findByText('This execution was cancelled at step 3 of 7 (Creating story).')).toBeInTheDocument();
    expect(within(shown).getByText('Cancelled')).toBeInTheDocument();
    expect(within(shown).queryByRole('button', { name: 'Cancel execution' })).not.toBeInTheDocument();
    expect(within(shown).queryByText(/left$/)).not.toBeInTheDocument();
    // The process is free again.
    await waitFor(() =>
      expect(within(screen.getByRole('article', { name: 'Busy one', hidden: true })).getByText('Idle')).toBeInTheDocument(),
    );
  }, 20000);

  it('shows the server’s reason when the cancel is refused, in Portuguese too', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderProcesses(
      {
        'GET /processes/': processList(running),
        'GET /executions/ex-3': reply(200, executionFixture({ id: 'ex-3', process_id: 'p-3', current_step: 2 })),
        'POST /executions/ex-3/cancel': reply(409, { detail: 'A execução não está em andamento' }),
      },
      { language: 'pt' },
    );
    await screen.findByRole('article', { name: 'Busy one' });
    await user.click(screen.getByRole('button', { name: 'Em execução: ver o andamento de Busy one' }));
    const dialog = await screen.findByRole('dialog', { name: 'Execução de “Busy one”' });

    await user.click(within(dialog).getByRole('button', { name: 'Cancelar execução' }));
    const confirm = await screen.findByRole('dialog', { name: 'Cancelar a execução de “Busy one”?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancelar execução' }));

    const shown = await screen.findByRole('dialog', { name: 'Execução de “Busy one”' });
    expect(await within(shown).findByRole('alert')).toHaveTextContent('A execução não está em andamento');
    expect(within(shown).getByRole('button', { name: 'Cancelar execução' })).toBeEnabled();
    log.mockRestore();
  });

  it('says a run cancelled before it started was stopped by the owner or by switching the process off', async () => {
    const stopped = processFixture({ id: 'p-6', name: 'Stopped one', latest_execution_id: 'ex-6' });
    const { user } = renderProcesses({
      'GET /processes/': processList(stopped),
      'GET /executions/ex-6': reply(
        200,
        executionFixture({ id: 'ex-6', process_id: 'p-6', status: 'cancelled', trigger: 'schedule', current_step: 0 }),
      ),
    });
    await screen.findByRole('article', { name: 'Stopped one' });

    await user.click(screen.getByRole('button', { name: 'Details of the last execution of Stopped one' }));
    const dialog = await screen.findByRole('dialog', { name: 'Execution of “Stopped one”' });

    expect(
      await within(dialog).findByText(
        'This execution was cancelled before it started: you cancelled it, or its process was switched off.',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Cancel execution' })).not.toBeInTheDocument();
  });
});

describe('execution status dialog: review', () => {
  const reviewing = processFixture({
    id: 'p-8',
    name: 'Careful one',
    status: 'awaiting_review',
    publish_mode: 'review',
    publication_time: '18:30',
    latest_execution_id: 'ex-8',
  });
  const waiting: Execution = {
    ...executionFixture({
      id: 'ex-8',
      process_id: 'p-8',
      status: 'completed',
      current_step: 6,
      story_title: 'The last letter',
      video_url: '/api/v1/media/ex-8/video.mp4?expires=1&signature=abc',
      thumbnail_url: '/api/v1/media/ex-8/thumbnail.jpg?expires=1&signature=abc',
    }),
    status: 'awaiting_review',
  };

  async function openReview(handlers: Record<string, MockHandler>, language: 'en' | 'pt' = 'en') {
    const rendered = renderProcesses(
      { 'GET /processes/': processList(reviewing), 'GET /executions/ex-8': reply(200, waiting), ...handlers },
      { language },
    );
    await screen.findByRole('article', { name: 'Careful one' });
    await rendered.user.click(
      screen.getByRole('button', {
        name:
          language === 'en'
            ? 'Awaiting review: review the video of Careful one'
            : 'Aguardando revisão: revisar o vídeo de Careful one',
      }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: language === 'en' ? 'Execution of “Careful one”' : 'Execução de “Careful one”',
    });
    await within(dialog).findByRole('group', { name: language === 'en' ? 'Review the video' : 'Revisar o vídeo' });
    return { ...rendered, dialog };
  }

  it('shows the video waiting for review and approves it for the next publication time', async () => {
    const { user, server, dialog } = await openReview({
      'POST /executions/ex-8/approve': () => {
        server.on({ 'GET /executions/ex-8': reply(200, { ...waiting, status: 'completed' }) });
        return reply(200, { ...waiting, status: 'completed' });
      },
    });

    expect(within(dialog).getByText('Awaiting review')).toBeInTheDocument();
    const review = within(dialog).getByRole('region', { name: 'Waiting for your review' });
    expect(review).toHaveTextContent('The video is on YouTube as a private video. Nothing is published until you approve it.');
    const video = within(review).getByLabelText('Video of “The last letter”');
    expect(video).toHaveAttribute('src', '/api/v1/media/ex-8/video.mp4?expires=1&signature=abc');
    expect(within(dialog).getAllByLabelText(/^Video of/)).toHaveLength(1);
    expect(within(dialog).getByText('Step 7 of 7')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Cancel execution' })).not.toBeInTheDocument();
    const approve = within(review).getByRole('button', { name: 'Approve' });
    expect(approve).toHaveAccessibleDescription('Approve publishes it at the process’s next publication time (18:30).');
    expect(within(review).getByRole('button', { name: 'Publish now' })).toBeInTheDocument();
    expect(within(review).getByRole('button', { name: 'Reject' })).toBeInTheDocument();

    await user.click(approve);

    expect(await screen.findByText('Video of “Careful one” approved: it will be published at 18:30')).toBeInTheDocument();
    expect(server.calls('POST /executions/ex-8/approve')[0].body).toEqual({ when: 'scheduled' });
    expect(await within(dialog).findByText('Completed')).toBeInTheDocument();
    expect(within(dialog).queryByRole('group', { name: 'Review the video' })).not.toBeInTheDocument();
    // The video stays to be watched.
    expect(within(dialog).getByLabelText('Video of “The last letter”')).toBeInTheDocument();
  });

  it('publishes the video now', async () => {
    const { user, server, dialog } = await openReview({
      'POST /executions/ex-8/approve': reply(200, { ...waiting, status: 'completed' }),
    });

    await user.click(within(dialog).getByRole('button', { name: 'Publish now' }));

    expect(await screen.findByText('Video of “Careful one” published on YouTube')).toBeInTheDocument();
    expect(server.calls('POST /executions/ex-8/approve')[0].body).toEqual({ when: 'now' });
  });

  it('rejects the video only once the owner confirms, then says it was never published', async () => {
    const { user, server, dialog } = await openReview({
      'POST /executions/ex-8/reject': () => {
        const rejected = { ...waiting, status: 'rejected', video_url: null, thumbnail_url: null };
        server.on({ 'GET /executions/ex-8': reply(200, rejected) });
        return reply(200, rejected);
      },
    });

    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    let confirm = await screen.findByRole('dialog', { name: 'Reject the video of “Careful one”?' });
    expect(confirm).toHaveTextContent(
      'The video is deleted from YouTube and removed from your history; it is never published. This cannot be undone.',
    );
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /^Reject the video/ })).not.toBeInTheDocument());
    expect(server.calls('POST /executions/ex-8/reject')).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    confirm = await screen.findByRole('dialog', { name: 'Reject the video of “Careful one”?' });
    await user.click(within(confirm).getByRole('button', { name: 'Reject video' }));

    expect(await screen.findByText('Video of “Careful one” rejected and deleted from YouTube')).toBeInTheDocument();
    expect(server.calls('POST /executions/ex-8/reject')).toHaveLength(1);
    const shown = await screen.findByRole('dialog', { name: 'Execution of “Careful one”' });
    expect(
      await within(shown).findByText('You rejected this video: it was deleted from YouTube and was never published.'),
    ).toBeInTheDocument();
    expect(within(shown).getByText('Rejected')).toBeInTheDocument();
    expect(within(shown).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
  });

  it('keeps the video waiting and shows why when YouTube refuses, in Portuguese too', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, server, dialog } = await openReview(
      {
        'POST /executions/ex-8/approve': reply(502, { detail: 'O YouTube recusou a alteração' }),
        'POST /executions/ex-8/reject': reply(500, {}),
      },
      'pt',
    );

    expect(within(dialog).getByText('Aguardando revisão')).toBeInTheDocument();
    expect(within(dialog).getByText('Aguardando a sua revisão')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Aprovar' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('O YouTube recusou a alteração');
    expect(within(dialog).getByRole('button', { name: 'Aprovar' })).toBeEnabled();

    await user.click(within(dialog).getByRole('button', { name: 'Rejeitar' }));
    const confirm = await screen.findByRole('dialog', { name: 'Rejeitar o vídeo de “Careful one”?' });
    await user.click(within(confirm).getByRole('button', { name: 'Rejeitar vídeo' }));
    const shown = await screen.findByRole('dialog', { name: 'Execução de “Careful one”' });
    await waitFor(() => expect(within(shown).getByRole('alert')).toHaveTextContent('Não foi possível rejeitar o vídeo.'));
    expect(server.calls('POST /executions/ex-8/reject')).toHaveLength(1);
    expect(within(shown).getByRole('group', { name: 'Revisar o vídeo' })).toBeInTheDocument();
    log.mockRestore();
  });
});
