import { screen, waitFor, within } from '@testing-library/react';
import { api, EXECUTION_STEP_KEYS } from '../../api';
import { deferred, reply } from '../../testing';
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
  it('shows the process running at step 1 of 7 at once, before the server answers', async () => {
    const answer = deferred();
    let current = idle;
    const { user, server } = renderProcesses({
      'GET /processes/': () => processList(current),
      'POST /processes/p-1/execute': answer.handler,
    });
    const card = await screen.findByRole('article', { name: 'Waiting one' });

    await user.click(within(card).getByRole('button', { name: 'Execute Waiting one' }));

    expect(await within(card).findByText('Running')).toBeInTheDocument();
    expect(within(card).getByText('Step 1 of 7: Starting process')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Execute Waiting one' })).toBeDisabled();
    expect(server.calls('POST /processes/p-1/execute')).toHaveLength(1);

    current = { ...idle, status: 'running', execution_step: 0, execution_steps: steps, latest_execution_id: 'ex-9' };
    answer.resolve(reply(202, { execution_id: 'ex-9', process: current }));
    expect(await screen.findByText('Execution of “Waiting one” started')).toBeInTheDocument();
    await waitFor(() => expect(server.calls('GET /processes/')).toHaveLength(2));
    expect(within(card).getByText('Running')).toBeInTheDocument();
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
    expect(await within(card).findByText('Step 1 of 7: Starting process')).toBeInTheDocument();
    answer.resolve(reply(409, { detail: 'The process is already running' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to execute “Waiting one”: The process is already running');
    expect(within(card).getByText('Error')).toBeInTheDocument();
    expect(within(card).queryByText(/^Step /)).not.toBeInTheDocument();
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
