import { screen, waitFor, within } from '@testing-library/react';
import type { Process, Publication } from '../../api';
import {
  deferred,
  mockApi,
  processFixture,
  publicationFixture,
  renderApp,
  reply,
  signedInState,
  testLocation,
  testUser,
  type MockHandler,
} from '../../testing';
import { prefetch } from './DashboardPage';

const processOf = (overrides: Partial<Process>): Process => processFixture(overrides);

function publicationOf(index: number, overrides: Partial<Publication> = {}): Publication {
  return publicationFixture({
    id: `pub-${index}`,
    process_id: 'p-1',
    channel_id: 'ch-1',
    video_title: `Story number ${index}`,
    video_id: `vid${index}`,
    published_at: `2025-03-0${index}T15:00:00.000Z`,
    views: 1000 * index + 234,
    likes: index,
    status: 'published',
    visibility: 'public',
    created_at: `2025-03-0${index}T12:00:00.000Z`,
    ...overrides,
  });
}

const processes = [
  processOf({ id: 'p-1', name: 'Night stories', status: 'running' }),
  processOf({
    id: 'p-2',
    name: 'Morning tales',
    status: 'completed',
    language: 'en',
    next_execution: '2025-03-12T12:00:00.000Z',
  }),
  processOf({ id: 'p-3', name: 'Broken one', status: 'error', next_execution: '2025-03-13T12:00:00.000Z' }),
];
const publications = [1, 2, 3, 4, 5].map((index) => publicationOf(index));
const stats = { total: 7, active: 5, inactive: 2, queued: 0, running: 0, connected_channels: 3 };
const publicationStats = {
  total: 5,
  published: 5,
  processing: 0,
  awaiting_review: 0,
  failed: 0,
  total_views: 15170,
  total_likes: 15,
  stats_updated_at: null,
};

function renderDashboard(handlers: Record<string, MockHandler>, language: 'en' | 'pt' = 'en') {
  const server = mockApi({
    'GET /auth/me': reply(200, testUser),
    'GET /publications/stats': reply(200, publicationStats),
    ...handlers,
  });
  const rendered = renderApp('/dashboard', { preloadedState: { ...signedInState, preferences: { language } } });
  return { server, ...rendered };
}

function card(label: string) {
  return within(screen.getByLabelText('Summary')).getByText(label).nextElementSibling;
}

describe('DashboardPage', () => {
  it('shows skeletons, then the counters, the 3 latest processes and the 5 latest publications', async () => {
    const statsAnswer = deferred();
    const processesAnswer = deferred();
    const publicationsAnswer = deferred();
    const { server } = renderDashboard({
      'GET /processes/stats': statsAnswer.handler,
      'GET /processes/': processesAnswer.handler,
      'GET /publications/': publicationsAnswer.handler,
    });

    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(await screen.findAllByRole('status', { name: 'Loading…' })).toHaveLength(2);
    statsAnswer.resolve(reply(200, stats));
    processesAnswer.resolve(reply(200, { processes, total: 7 }));
    publicationsAnswer.resolve(reply(200, { publications, total: 12 }));

    expect(await screen.findByText('Story number 5')).toBeInTheDocument();
    expect(card('Total processes')).toHaveTextContent('7');
    expect(card('Active processes')).toHaveTextContent('5');
    expect(card('Inactive processes')).toHaveTextContent('2');
    expect(card('Connected channels')).toHaveTextContent('3');

    const recent = within(screen.getByRole('list', { name: 'Recent processes' }));
    const rows = recent.getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('Night stories');
    expect(rows[0]).toHaveTextContent('Portuguese · Next execution: 03/10/2025');
    // The language's flag is a decorative picture, not an emoji.
    expect(rows[0].querySelector('img[alt=""]')).not.toBeNull();
    expect(rows[0].textContent).not.toMatch(/[\u{1F1E6}-\u{1F1FF}]/u);
    expect(rows[0]).toHaveTextContent('Running');
    expect(rows[1]).toHaveTextContent('English · Next execution: 03/12/2025');
    expect(rows[1]).toHaveTextContent('Completed');
    expect(rows[2]).toHaveTextContent('Error');

    const published = within(screen.getByRole('list', { name: 'Recent publications' })).getAllByRole('listitem');
    expect(published).toHaveLength(5);
    expect(published[0]).toHaveTextContent('Story number 1');
    expect(published[0]).toHaveTextContent('Published on 03/01/2025 · 1,234 views · 1 like');
    expect(published[4]).toHaveTextContent('Published on 03/05/2025 · 5,234 views · 5 likes');

    expect(screen.queryByRole('status', { name: 'Loading…' })).not.toBeInTheDocument();
    expect(server.calls('GET /processes/')[0].url.searchParams.get('limit')).toBe('3');
    expect(server.calls('GET /publications/')[0].url.searchParams.get('limit')).toBe('5');
    expect(screen.getByRole('link', { name: 'See all processes' })).toHaveAttribute('href', '/processes');
    expect(screen.getByRole('link', { name: 'See the history' })).toHaveAttribute('href', '/history');
  });

  it('uses the very calls its prefetch starts (what a sign-in starts before it renders)', async () => {
    const answers = [deferred(), deferred(), deferred()];
    const { server, store } = renderDashboard({
      'GET /processes/stats': answers[0]!.handler,
      'GET /processes/': answers[1]!.handler,
      'GET /publications/': answers[2]!.handler,
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    await waitFor(() => expect(server.calls('GET /publications/')).toHaveLength(1));

    // Same endpoints, same arguments: nothing new is asked for.
    prefetch(store.dispatch);
    answers[0]!.resolve(reply(200, stats));
    answers[1]!.resolve(reply(200, { processes, total: 7 }));
    answers[2]!.resolve(reply(200, { publications, total: 12 }));
    expect(await screen.findByText('Story number 5')).toBeInTheDocument();
    for (const call of ['GET /processes/stats', 'GET /publications/stats', 'GET /processes/', 'GET /publications/']) {
      expect(server.calls(call)).toHaveLength(1);
    }
  });

  it('keeps only 3 processes and 5 publications even if the server sends more', async () => {
    renderDashboard({
      'GET /processes/stats': reply(200, stats),
      'GET /processes/': reply(200, { processes: [...processes, processOf({ id: 'p-4', name: 'Fourth' })], total: 4 }),
      'GET /publications/': reply(200, { publications: [...publications, publicationOf(6)], total: 6 }),
    });

    expect(await screen.findByText('Story number 5')).toBeInTheDocument();
    expect(screen.queryByText('Fourth')).not.toBeInTheDocument();
    expect(screen.queryByText('Story number 6')).not.toBeInTheDocument();
  });

  it('formats for Portuguese and says when a video is not published yet', async () => {
    renderDashboard(
      {
        'GET /processes/stats': reply(200, { ...stats, total: 1234 }),
        'GET /processes/': reply(200, { processes: processes.slice(0, 1), total: 1 }),
        'GET /publications/': reply(200, {
          publications: [
            publicationOf(1),
            publicationOf(2, { published_at: null, status: 'processing', views: 0, likes: 0 }),
            publicationOf(3, { published_at: '2099-01-01T12:00:00.000Z', status: 'processing', views: 0, likes: 0 }),
          ],
          total: 3,
        }),
      },
      'pt',
    );

    expect(await screen.findByRole('heading', { level: 1, name: 'Painel' })).toBeInTheDocument();
    const published = within(await screen.findByRole('list', { name: 'Publicações recentes' })).getAllByRole('listitem');
    expect(published[0]).toHaveTextContent('Publicado em 01/03/2025 · 1.234 visualizações · 1 curtida');
    expect(published[1]).toHaveTextContent('Ainda não publicado · 0 visualizações · 0 curtidas');
    expect(published[2]).toHaveTextContent('Agendado para 01/01/2099 · 0 visualizações · 0 curtidas');
    expect(within(screen.getByLabelText('Resumo')).getByText('Total de processos').nextElementSibling).toHaveTextContent('1.234');
    expect(within(screen.getByRole('list', { name: 'Processos recentes' })).getByRole('listitem')).toHaveTextContent(
      'Português · Próxima execução: 10/03/2025',
    );
    expect(screen.getByText('Em execução')).toBeInTheDocument();
  });

  it('shows the empty states with a way to the processes', async () => {
    const { user } = renderDashboard({
      'GET /processes/stats': reply(200, { total: 0, active: 0, inactive: 0, queued: 0, running: 0, connected_channels: 0 }),
      'GET /processes/': reply(200, { processes: [], total: 0 }),
      'GET /publications/': reply(200, { publications: [], total: 0 }),
    });

    expect(await screen.findByText(/^No publications yet/)).toBeInTheDocument();
    expect(screen.getByText('No process yet.')).toBeInTheDocument();
    expect(card('Total processes')).toHaveTextContent('0');
    expect(screen.getByRole('link', { name: 'Go to processes' })).toHaveAttribute('href', '/processes');

    await user.click(screen.getByRole('link', { name: 'Create a process' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Processes' })).toBeInTheDocument();
    expect(testLocation().pathname).toBe('/processes');
  });

  it('says when a section could not be loaded, without hiding the others', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderDashboard({
      'GET /processes/stats': reply(503, { detail: 'Database unavailable' }),
      'GET /processes/': reply(200, { processes, total: 3 }),
      'GET /publications/': reply(500, {}),
    });

    expect(await screen.findByText('The counters could not be loaded. Database unavailable')).toBeInTheDocument();
    expect(await screen.findByText('Your recent publications could not be loaded.')).toBeInTheDocument();
    expect(card('Total processes')).toHaveTextContent('—');
    expect(screen.getByText('Night stories')).toBeInTheDocument();
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });

  it('shows a process awaiting review, says how many videos wait and leads to them in the history', async () => {
    const { user } = renderDashboard({
      'GET /processes/stats': reply(200, stats),
      'GET /processes/': reply(200, {
        processes: [processOf({ id: 'p-8', name: 'Careful one', status: 'awaiting_review' }), ...processes.slice(1)],
        total: 3,
      }),
      'GET /publications/': reply(200, {
        publications: [publicationOf(1, { status: 'awaiting_review', visibility: 'private', published_at: null })],
        total: 1,
      }),
      'GET /publications/stats': reply(200, { ...publicationStats, awaiting_review: 2 }),
    });

    const notice = (await screen.findByText('2 videos wait for your review before they are published.')).closest(
      '[role="status"]',
    ) as HTMLElement;
    const recent = within(await screen.findByRole('list', { name: 'Recent processes' })).getAllByRole('listitem');
    expect(recent[0]).toHaveTextContent('Careful one');
    expect(recent[0]).toHaveTextContent('Awaiting review');
    const published = within(screen.getByRole('list', { name: 'Recent publications' })).getAllByRole('listitem');
    expect(published[0]).toHaveTextContent('Awaiting your review · 1,234 views · 1 like');

    await user.click(within(notice).getByRole('link', { name: 'Review' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'History' })).toBeInTheDocument();
    expect(testLocation().pathname).toBe('/history');
    expect(testLocation().search).toBe('?status=awaiting_review');
  });

  it('says so in Portuguese, and says nothing while no video waits', async () => {
    renderDashboard(
      {
        'GET /processes/stats': reply(200, stats),
        'GET /processes/': reply(200, {
          processes: [processOf({ id: 'p-8', name: 'Careful one', status: 'awaiting_review' })],
          total: 1,
        }),
        'GET /publications/': reply(200, {
          publications: [publicationOf(1, { status: 'awaiting_review', published_at: null })],
          total: 1,
        }),
        'GET /publications/stats': reply(200, { ...publicationStats, awaiting_review: 1 }),
      },
      'pt',
    );

    expect(await screen.findByText('1 vídeo aguarda a sua revisão antes de ser publicado.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Revisar' })).toHaveAttribute('href', '/history?status=awaiting_review');
    expect(within(screen.getByRole('list', { name: 'Processos recentes' })).getByRole('listitem')).toHaveTextContent(
      'Aguardando revisão',
    );
    expect(within(screen.getByRole('list', { name: 'Publicações recentes' })).getByRole('listitem')).toHaveTextContent(
      'Aguardando a sua revisão',
    );
  });

  it('shows no review notice when no video waits', async () => {
    const { server } = renderDashboard({
      'GET /processes/stats': reply(200, stats),
      'GET /processes/': reply(200, { processes, total: 3 }),
      'GET /publications/': reply(200, { publications, total: 5 }),
    });

    expect(await screen.findByText('Story number 5')).toBeInTheDocument();
    await waitFor(() => expect(server.calls('GET /publications/stats')).toHaveLength(1));
    expect(screen.queryByText(/wait for your review|waits for your review/)).not.toBeInTheDocument();
  });

  it('counts the runs under way apart: running, and waiting in the queue for a worker', async () => {
    renderDashboard({
      'GET /processes/stats': reply(200, { ...stats, running: 1, queued: 1234 }),
      'GET /processes/': reply(200, { processes: [processOf({ id: 'p-9', name: 'Waiting one', status: 'queued' })], total: 1 }),
      'GET /publications/': reply(200, { publications, total: 5 }),
    });

    const runs = await screen.findByRole('status', { name: 'Runs under way' });
    expect(runs).toHaveTextContent('1 running');
    expect(runs).toHaveTextContent('1,234 waiting in the queue');
    const rows = within(screen.getByRole('list', { name: 'Recent processes' })).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Queued');
  });

  it('says nothing about runs while none is under way', async () => {
    renderDashboard({
      'GET /processes/stats': reply(200, stats),
      'GET /processes/': reply(200, { processes, total: 3 }),
      'GET /publications/': reply(200, { publications, total: 5 }),
    });
    expect(await screen.findByText('Story number 5')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Runs under way' })).not.toBeInTheDocument();
  });

  it('follows a run under way without the execution dialog: when it ends, the counters and publications refresh', async () => {
    let under = true;
    const waiting = processOf({ id: 'p-7', name: 'Busy tale', status: 'running', execution_step: 2, execution_steps: [] });
    const { server } = renderDashboard({
      'GET /processes/stats': () => reply(200, { ...stats, running: under ? 1 : 0 }),
      'GET /processes/': () =>
        reply(200, { processes: [under ? waiting : { ...waiting, status: 'completed', execution_step: null }], total: 1 }),
      'GET /publications/': reply(200, { publications, total: 5 }),
    });
    const runs = await screen.findByRole('status', { name: 'Runs under way' });
    expect(runs).toHaveTextContent('1 running');
    const publicationsBefore = server.calls('GET /publications/').length;

    under = false;
    const rows = () => within(screen.getByRole('list', { name: 'Recent processes' })).getAllByRole('listitem');
    await waitFor(() => expect(rows()[0]).toHaveTextContent('Completed'), { timeout: 15_000 });
    await waitFor(() => expect(server.calls('GET /publications/').length).toBeGreaterThan(publicationsBefore));
    await waitFor(() => expect(screen.queryByRole('status', { name: 'Runs under way' })).not.toBeInTheDocument());
  }, 60_000);
});
