import { act, screen, waitFor, within } from '@testing-library/react';
import { STATS_REFRESH_SETTLE_MS, type Publication } from '../../api';
import { HISTORY_ROWS_KEY } from './useHistoryQuery';
import {
  deferred,
  mockApi,
  publicationFixture,
  renderApp,
  reply,
  signedInState,
  testLocation,
  testUser,
  type MockHandler,
  type MockRequest,
} from '../../testing';

const attic = publicationFixture();
const midnight = publicationFixture({
  id: 'pub-2',
  video_title: 'Whispers at midnight',
  video_id: 'midnight0001',
  status: 'processing',
  visibility: 'private',
  published_at: '2099-01-01T12:00:00.000Z',
  views: 0,
  likes: 0,
});
const lost = publicationFixture({
  id: 'pub-3',
  video_title: 'The lost chapter',
  video_id: null,
  status: 'failed',
  visibility: 'private',
  published_at: null,
  failure_reason: 'The upload quota of the day is used up',
  views: 0,
  likes: 0,
});
const harbour = publicationFixture({
  id: 'pub-4',
  video_title: 'Quiet harbour',
  video_id: 'harbour00001',
  below_min_views: true,
  views: 12,
  likes: 1,
});

const stats = {
  total: 4,
  published: 2,
  processing: 1,
  awaiting_review: 0,
  failed: 1,
  total_views: 1246,
  total_likes: 57,
  stats_updated_at: '2025-03-09T15:30:00.000Z',
};

function page(publications: Publication[], total = publications.length) {
  return reply(200, { publications, total });
}

/** `rows`: the page size remembered from an earlier visit (these tests page by 25; null: never chosen). */
function renderHistory(
  handlers: Record<string, MockHandler>,
  { path = '/history', language = 'en' as 'en' | 'pt', rows = 25 as number | null } = {},
) {
  const server = mockApi({
    'GET /auth/me': reply(200, testUser),
    'GET /publications/stats': reply(200, stats),
    ...handlers,
  });
  if (rows === null) window.localStorage.removeItem(HISTORY_ROWS_KEY);
  else window.localStorage.setItem(HISTORY_ROWS_KEY, String(rows));
  const rendered = renderApp(path, { preloadedState: { ...signedInState, preferences: { language } } });
  return { server, ...rendered };
}

const params = (request: MockRequest) => Object.fromEntries(request.url.searchParams);
const lastList = (server: ReturnType<typeof mockApi>) => params(server.calls('GET /publications/').at(-1)!);
const row = (title: string) => screen.getByRole('row', { name: title });
/** A counter of the statistics row, by its label. */
const stat = (label: string) =>
  within(screen.getByRole('region', { name: /^(Statistics of all|Estatísticas de todas)/ })).getByText(label).nextElementSibling;

afterEach(() => jest.restoreAllMocks());

async function choose(user: ReturnType<typeof renderApp>['user'], field: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: field }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('HistoryPage: the table', () => {
  it('shows skeletons, then a row per publication with thumbnail, title, id, status, date, views, likes and a watch link', async () => {
    const answer = deferred();
    const { server } = renderHistory({ 'GET /publications/': answer.handler });

    expect(await screen.findByRole('heading', { level: 1, name: 'History' })).toBeInTheDocument();
    expect(await screen.findByRole('status', { name: 'Loading…' })).toBeInTheDocument();
    answer.resolve(page([attic, midnight, lost, harbour]));

    const table = await screen.findByRole('table', { name: 'Publications' });
    expect(within(table).getAllByRole('row')).toHaveLength(5); // the header and four publications
    expect(screen.queryByRole('status', { name: 'Loading…' })).not.toBeInTheDocument();

    const first = within(row('The secret in the attic'));
    expect(first.getByRole('img', { name: 'Thumbnail of “The secret in the attic”' })).toHaveAttribute(
      'src',
      'https://i.ytimg.com/vi/dQw4w9WgXcQ/mqdefault.jpg',
    );
    expect(first.getByText('Main channel')).toBeInTheDocument();
    expect(first.getByText('dQw4w9WgXcQ')).toBeInTheDocument();
    expect(first.getByText('Published')).toBeInTheDocument();
    expect(first.getByText('Public')).toBeInTheDocument();
    expect(first.getByText('03/08/2025')).toBeInTheDocument();
    expect(first.getByText('1,234')).toBeInTheDocument();
    expect(first.getByText('56')).toBeInTheDocument();
    const watch = first.getByRole('link', { name: 'Watch “The secret in the attic” on YouTube (opens in a new tab)' });
    expect(watch).toHaveAttribute('href', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(watch).toHaveAttribute('target', '_blank');
    expect(watch).toHaveAttribute('rel', 'noopener noreferrer');

    const scheduled = within(row('Whispers at midnight'));
    expect(scheduled.getByText('Processing')).toBeInTheDocument();
    expect(scheduled.getByText('Private')).toBeInTheDocument();
    expect(scheduled.getByText('Scheduled')).toBeInTheDocument();

    // Failed, never uploaded: why it failed, a placeholder instead of the thumbnail, no watch link.
    const failed = within(row('The lost chapter'));
    expect(failed.getByText('Failed')).toBeInTheDocument();
    expect(failed.getByText('Failed: The upload quota of the day is used up')).toBeInTheDocument();
    expect(failed.getByRole('img', { name: 'No thumbnail' })).toBeInTheDocument();
    expect(failed.getByText('Not published yet')).toBeInTheDocument();
    expect(failed.queryByRole('link')).not.toBeInTheDocument();

    expect(params(server.calls('GET /publications/')[0])).toEqual({ skip: '0', limit: '25' });
  });

  it('falls back to the placeholder when the thumbnail does not load', async () => {
    renderHistory({ 'GET /publications/': page([attic]) });
    const image = await screen.findByRole('img', { name: 'Thumbnail of “The secret in the attic”' });

    act(() => {
      image.dispatchEvent(new Event('error'));
    });

    expect(within(row('The secret in the attic')).getByRole('img', { name: 'No thumbnail' })).toBeInTheDocument();
  });

  it('flags a video under its channel’s minimum views, with the reason in a tooltip', async () => {
    const { user } = renderHistory({ 'GET /publications/': page([attic, harbour]) });
    await screen.findByRole('table');

    expect(within(row('The secret in the attic')).queryByText('Below minimum')).not.toBeInTheDocument();
    const flag = within(row('Quiet harbour')).getByText('Below minimum');
    await user.hover(flag);

    expect(await screen.findByRole('tooltip')).toHaveTextContent('Fewer views than the channel’s minimum after 7 days');
  });

  it('speaks Portuguese: labels, dates and figures', async () => {
    renderHistory({ 'GET /publications/': page([attic, lost], 1234) }, { language: 'pt' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Histórico' })).toBeInTheDocument();
    const first = within(await screen.findByRole('row', { name: 'The secret in the attic' }));
    expect(first.getByText('08/03/2025')).toBeInTheDocument();
    expect(first.getByText('1.234')).toBeInTheDocument();
    expect(first.getByText('Publicado')).toBeInTheDocument();
    expect(first.getByText('Público')).toBeInTheDocument();
    expect(
      first.getByRole('link', { name: 'Assistir “The secret in the attic” no YouTube (abre em uma nova aba)' }),
    ).toBeInTheDocument();
    expect(within(row('The lost chapter')).getByText('Falhou: The upload quota of the day is used up')).toBeInTheDocument();
    expect(screen.getByText('1–25 de 1.234')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Baixar relatório' })).toBeInTheDocument();
    expect(stat('Total de visualizações')).toHaveTextContent('1.246');
  });

  it('empties the list and says so when it cannot be loaded, with a retry', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, server } = renderHistory({ 'GET /publications/': reply(503, { detail: 'Database unavailable' }) });

    expect(await screen.findByText('Your publications could not be loaded. Database unavailable')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByText(/No publications yet/)).not.toBeInTheDocument();
    expect(log).toHaveBeenCalled(); // failures are logged (spec §7)

    server.on({ 'GET /publications/': page([attic]) });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('row', { name: 'The secret in the attic' })).toBeInTheDocument();
  });
});

describe('HistoryPage: phones', () => {
  const width = window.innerWidth;
  beforeEach(() => {
    window.innerWidth = 375;
  });
  afterEach(() => {
    window.innerWidth = width;
  });

  it('shows a card per publication instead of the wide table, with the same facts and actions', async () => {
    const { user, server } = renderHistory({
      'GET /publications/': page([midnight, harbour], 30),
      'PUT /publications/pub-2/publish-public': reply(200, { ...midnight, visibility: 'public' }),
    });

    const card = within(await screen.findByRole('article', { name: 'Whispers at midnight' }));
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Publications' })).getAllByRole('article')).toHaveLength(2);
    expect(card.getByRole('img', { name: 'Thumbnail of “Whispers at midnight”' })).toBeInTheDocument();
    expect(card.getByText('Video ID').nextElementSibling).toHaveTextContent('midnight0001');
    expect(card.getByText('Published on').nextElementSibling).toHaveTextContent('01/01/2099Scheduled');
    expect(card.getByText('Processing')).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'Quiet harbour' })).getByText('Below minimum')).toBeInTheDocument();
    expect(screen.getByText('1–25 of 30')).toBeInTheDocument();

    await user.click(card.getByRole('button', { name: 'Publish “Whispers at midnight” as public' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Publish as public' }));
    expect(await screen.findByText('“Whispers at midnight” is now public on YouTube.')).toBeInTheDocument();
    expect(server.calls('PUT /publications/pub-2/publish-public')).toHaveLength(1);
  });
});

describe('HistoryPage: empty states', () => {
  it('without any publication, points to the processes', async () => {
    const { user } = renderHistory({ 'GET /publications/': page([]) });

    expect(
      await screen.findByText('No publications yet. Your processes list their videos here once they run.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Go to processes' }));
    expect(testLocation().pathname).toBe('/processes');
  });

  it('with filters that match nothing, offers to clear them', async () => {
    const { user, server } = renderHistory(
      { 'GET /publications/': (request) => (request.url.searchParams.has('status') ? page([]) : page([attic])) },
      { path: '/history?status=failed&search=nothing&period=7' },
    );

    expect(await screen.findByText('No publication matches these filters.')).toBeInTheDocument();
    expect(screen.queryByText(/No publications yet/)).not.toBeInTheDocument();
    const clears = screen.getAllByRole('button', { name: 'Clear filters' });
    expect(clears).toHaveLength(2); // the filter bar's and the empty state's
    await user.click(clears[1]);

    expect(await screen.findByRole('row', { name: 'The secret in the attic' })).toBeInTheDocument();
    expect(lastList(server)).toEqual({ skip: '0', limit: '25' });
    expect(testLocation().search).toBe('');
    expect(screen.getByRole('searchbox', { name: 'Search by title' })).toHaveValue('');
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveTextContent('All');
    expect(screen.getByRole('combobox', { name: 'Period' })).toHaveTextContent('All time');
  });
});

describe('HistoryPage: filters', () => {
  it('filters by status and period, in the request and in the address', async () => {
    const { user, server } = renderHistory({ 'GET /publications/': page([attic]) });
    await screen.findByRole('table');

    await choose(user, 'Status', 'Failed');
    await waitFor(() => expect(lastList(server)).toEqual({ skip: '0', limit: '25', status: 'failed' }));
    expect(testLocation().search).toBe('?status=failed');

    await choose(user, 'Period', 'Last 30 days');
    await waitFor(() => expect(lastList(server)).toEqual({ skip: '0', limit: '25', status: 'failed', date_range: '30' }));
    expect(testLocation().search).toBe('?status=failed&period=30');

    await choose(user, 'Status', 'All');
    await waitFor(() => expect(lastList(server)).toEqual({ skip: '0', limit: '25', date_range: '30' }));
    expect(testLocation().search).toBe('?period=30');
  });

  it('offers the statuses (the spec’s three and videos awaiting review) and the three periods', async () => {
    const { user } = renderHistory({ 'GET /publications/': page([attic]) });
    await screen.findByRole('table');

    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'All',
      'Published',
      'Processing',
      'Awaiting review',
      'Failed',
    ]);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());

    await user.click(screen.getByRole('combobox', { name: 'Period' }));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'All time',
      'Last 7 days',
      'Last 30 days',
      'Last 90 days',
    ]);
  });

  it('searches the title once typing stops, not on every key', async () => {
    const { user, server } = renderHistory({ 'GET /publications/': page([attic]) });
    await screen.findByRole('table');

    await user.type(screen.getByRole('searchbox', { name: 'Search by title' }), '  attic ');

    await waitFor(() => expect(lastList(server)).toEqual({ skip: '0', limit: '25', search: 'attic' }));
    const searches = server.calls('GET /publications/').map((request) => request.url.searchParams.get('search'));
    expect(searches).toEqual([null, 'attic']);
    expect(testLocation().search).toBe('?search=attic');
  });

  it('starts from the filters and page in the address (a reload keeps them)', async () => {
    const { server } = renderHistory(
      { 'GET /publications/': page([attic], 120) },
      { path: '/history?search=attic&status=published&period=7&page=2&rows=50' },
    );

    expect(await screen.findByRole('row', { name: 'The secret in the attic' })).toBeInTheDocument();
    expect(params(server.calls('GET /publications/')[0])).toEqual({
      skip: '50',
      limit: '50',
      search: 'attic',
      status: 'published',
      date_range: '7',
    });
    expect(server.calls('GET /publications/')).toHaveLength(1);
    expect(screen.getByRole('searchbox', { name: 'Search by title' })).toHaveValue('attic');
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveTextContent('Published');
    expect(screen.getByRole('combobox', { name: 'Period' })).toHaveTextContent('Last 7 days');
    expect(screen.getByText('51–100 of 120')).toBeInTheDocument();
  });

  it('goes back to the first page when a filter changes', async () => {
    const { user, server } = renderHistory({ 'GET /publications/': page([attic], 80) }, { path: '/history?page=3' });
    await screen.findByText('51–75 of 80');

    await choose(user, 'Period', 'Last 90 days');

    await waitFor(() => expect(lastList(server)).toEqual({ skip: '0', limit: '25', date_range: '90' }));
    expect(testLocation().search).toBe('?period=90');
  });
});

describe('HistoryPage: paging', () => {
  it('pages on the server with 25, 50 or 100 rows per page', async () => {
    const rows = Array.from({ length: 25 }, (_, index) =>
      publicationFixture({ id: `pub-${index}`, video_title: `Story ${index}`, video_id: `video${index}` }),
    );
    const { user, server } = renderHistory({ 'GET /publications/': page(rows, 60) });

    expect(await screen.findByText('1–25 of 60')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to the previous page' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Go to the next page' }));
    await waitFor(() => expect(lastList(server)).toEqual({ skip: '25', limit: '25' }));
    expect(await screen.findByText('26–50 of 60')).toBeInTheDocument();
    expect(testLocation().search).toBe('?page=2');

    await user.click(screen.getByRole('button', { name: 'Go to the last page' }));
    await waitFor(() => expect(lastList(server)).toEqual({ skip: '50', limit: '25' }));
    expect(testLocation().search).toBe('?page=3');

    await choose(user, 'Rows per page:', '50');
    await waitFor(() => expect(lastList(server)).toEqual({ skip: '0', limit: '50' }));
    // The choice is remembered (the next visit pages by 50), so the address needs no `rows`.
    expect(testLocation().search).toBe('');
    expect(window.localStorage.getItem(HISTORY_ROWS_KEY)).toBe('50');
    await user.click(screen.getByRole('combobox', { name: 'Rows per page:' }));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual(['25', '50', '100']);
  });

  it('pages by the spec’s 100 rows until the user chooses another size', async () => {
    const { server } = renderHistory({ 'GET /publications/': page([attic], 1) }, { rows: null });
    expect(await screen.findByRole('row', { name: 'The secret in the attic' })).toBeInTheDocument();
    expect(lastList(server)).toEqual({ skip: '0', limit: '100' });
    expect(screen.getByRole('combobox', { name: 'Rows per page:' })).toHaveTextContent('100');
  });

  it('goes to the last page when the page asked for is past the end', async () => {
    const { server } = renderHistory(
      {
        'GET /publications/': (request) => (request.url.searchParams.get('skip') === '0' ? page([attic], 3) : page([], 3)),
      },
      { path: '/history?page=4' },
    );

    expect(await screen.findByRole('row', { name: 'The secret in the attic' })).toBeInTheDocument();
    expect(lastList(server)).toEqual({ skip: '0', limit: '25' });
    expect(testLocation().search).toBe('');
  });
});

describe('HistoryPage: publish as public', () => {
  it('confirms, publishes, says so and updates the row', async () => {
    let current = midnight;
    const published = { ...midnight, visibility: 'public', status: 'published' };
    const { user, server } = renderHistory({
      'GET /publications/': () => page([attic, current]),
      'PUT /publications/pub-2/publish-public': () => {
        current = published;
        return reply(200, published);
      },
    });
    await screen.findByRole('table');

    // Offered only for a video on YouTube that is not public yet.
    expect(within(row('The secret in the attic')).queryByRole('button', { name: /as public/ })).not.toBeInTheDocument();
    await user.click(
      within(row('Whispers at midnight')).getByRole('button', { name: 'Publish “Whispers at midnight” as public' }),
    );

    const dialog = await screen.findByRole('dialog', { name: 'Publish “Whispers at midnight” as public?' });
    expect(dialog).toHaveTextContent('The video becomes public on YouTube: anyone can find and watch it.');
    expect(server.calls('PUT /publications/pub-2/publish-public')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Publish as public' }));

    expect(await screen.findByText('“Whispers at midnight” is now public on YouTube.')).toBeInTheDocument();
    expect(server.calls('PUT /publications/pub-2/publish-public')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const updated = within(row('Whispers at midnight'));
    expect(updated.getByText('Public')).toBeInTheDocument();
    expect(updated.getByText('Published')).toBeInTheDocument();
    expect(updated.queryByRole('button', { name: /as public/ })).not.toBeInTheDocument();
  });

  it('shows what YouTube said when it fails, and changes nothing', async () => {
    const { user } = renderHistory({
      'GET /publications/': page([midnight]),
      'PUT /publications/pub-2/publish-public': reply(502, { detail: 'YouTube refused the change: the channel is suspended' }),
    });
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await screen.findByRole('table');

    await user.click(screen.getByRole('button', { name: 'Publish “Whispers at midnight” as public' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Publish as public' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      '“Whispers at midnight” could not be published. YouTube refused the change: the channel is suspended',
    );
    expect(within(row('Whispers at midnight')).getByText('Private')).toBeInTheDocument();
    expect(within(row('Whispers at midnight')).getByRole('button', { name: /as public/ })).toBeInTheDocument();
  });

  it('is not offered without a video id', async () => {
    renderHistory({ 'GET /publications/': page([lost]) });
    await screen.findByRole('table');

    expect(within(row('The lost chapter')).queryByRole('button', { name: /as public/ })).not.toBeInTheDocument();
    expect(
      within(row('The lost chapter')).getByRole('button', { name: 'Delete the video “The lost chapter”' }),
    ).toBeInTheDocument();
  });
});

describe('HistoryPage: delete', () => {
  it('confirms that the video goes from YouTube too, deletes it and refreshes the list and the counters', async () => {
    let rows = [attic, harbour];
    const { user, server } = renderHistory({
      'GET /publications/': () => page(rows),
      'DELETE /publications/pub-4': () => {
        rows = [attic];
        return reply(204);
      },
    });
    await screen.findByRole('table');
    const statsCalls = server.calls('GET /publications/stats').length;

    await user.click(screen.getByRole('button', { name: 'Delete the video “Quiet harbour”' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete “Quiet harbour”?' });
    expect(dialog).toHaveTextContent('The video is also deleted from YouTube, with its views and likes. This cannot be undone.');

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.calls('DELETE /publications/pub-4')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete the video “Quiet harbour”' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete video' }));

    expect(await screen.findByText('“Quiet harbour” deleted.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('row', { name: 'Quiet harbour' })).not.toBeInTheDocument());
    expect(server.calls('DELETE /publications/pub-4')).toHaveLength(1);
    await waitFor(() => expect(server.calls('GET /publications/stats').length).toBe(statsCalls + 1));
  });

  it('says so when YouTube refuses, and keeps the row', async () => {
    const { user } = renderHistory({
      'GET /publications/': page([harbour]),
      'DELETE /publications/pub-4': reply(502, { detail: 'YouTube did not answer' }),
    });
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await screen.findByRole('table');

    await user.click(screen.getByRole('button', { name: 'Delete the video “Quiet harbour”' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete video' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('“Quiet harbour” could not be deleted. YouTube did not answer');
    expect(row('Quiet harbour')).toBeInTheDocument();
  });

  it('can remove the record only, leaving the video on YouTube (keep_video)', async () => {
    let rows = [attic, harbour];
    const { user, server } = renderHistory({
      'GET /publications/': () => page(rows),
      'DELETE /publications/pub-4': () => {
        rows = [attic];
        return reply(204);
      },
    });
    await screen.findByRole('table');

    await user.click(screen.getByRole('button', { name: 'Delete the video “Quiet harbour”' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(
      within(dialog).getByRole('checkbox', { name: 'Keep the video on YouTube (remove it from this history only)' }),
    );
    expect(dialog).toHaveTextContent('The record is removed from your history; the video stays on YouTube.');
    await user.click(within(dialog).getByRole('button', { name: 'Remove from history' }));

    expect(await screen.findByText('“Quiet harbour” removed from the history; the video stays on YouTube.')).toBeInTheDocument();
    expect(server.calls('DELETE /publications/pub-4')[0]!.url.searchParams.get('keep_video')).toBe('true');
  });

  it('does not mention YouTube for a record without a video', async () => {
    const { user } = renderHistory({ 'GET /publications/': page([lost]) });
    await screen.findByRole('table');

    await user.click(screen.getByRole('button', { name: 'Delete the video “The lost chapter”' }));

    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('The record is removed from your history. This cannot be undone.');
    expect(within(dialog).queryByRole('checkbox')).not.toBeInTheDocument();
  });
});

describe('HistoryPage: videos awaiting review', () => {
  const letter = publicationFixture({
    id: 'pub-5',
    execution_id: 'ex-5',
    video_title: 'The last letter',
    video_id: 'letter000001',
    status: 'awaiting_review',
    visibility: 'private',
    published_at: null,
    views: 0,
    likes: 0,
  });
  // Recorded without its run: nothing to approve or reject through.
  const orphan = publicationFixture({
    ...letter,
    id: 'pub-6',
    execution_id: null,
    video_title: 'An orphan video',
    video_id: 'orphan000001',
  });

  it('approves a video for its process’s next publication time, and refreshes the row and the counters', async () => {
    let current = letter;
    const { user, server } = renderHistory({
      'GET /publications/': () => page([attic, current]),
      'POST /executions/ex-5/approve': () => {
        current = { ...letter, status: 'processing', published_at: '2099-01-01T18:30:00.000Z' };
        return reply(200, { id: 'ex-5', process_id: 'p-1', status: 'completed' });
      },
    });
    await screen.findByRole('table');
    const statsCalls = server.calls('GET /publications/stats').length;

    const waiting = within(row('The last letter'));
    expect(waiting.getByText('Awaiting review')).toBeInTheDocument();
    expect(waiting.getByText('Not published yet')).toBeInTheDocument();
    // Answered through its run: neither published nor deleted on its own.
    expect(waiting.queryByRole('button', { name: /as public/ })).not.toBeInTheDocument();
    expect(waiting.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(within(row('The secret in the attic')).queryByRole('button', { name: /^Approve/ })).not.toBeInTheDocument();

    await user.click(
      waiting.getByRole('button', {
        name: 'Approve “The last letter” (published at its process’s next publication time)',
      }),
    );

    expect(
      await screen.findByText('“The last letter” approved: it will be published at its process’s next publication time.'),
    ).toBeInTheDocument();
    expect(server.calls('POST /executions/ex-5/approve')[0].body).toEqual({ when: 'scheduled' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(within(row('The last letter')).getByText('Processing')).toBeInTheDocument());
    expect(within(row('The last letter')).getByText('Scheduled')).toBeInTheDocument();
    await waitFor(() => expect(server.calls('GET /publications/stats').length).toBe(statsCalls + 1));
  });

  it('publishes a video now after a confirmation', async () => {
    const { user, server } = renderHistory({
      'GET /publications/': page([letter]),
      'POST /executions/ex-5/approve': reply(200, { id: 'ex-5', process_id: 'p-1', status: 'completed' }),
    });
    await screen.findByRole('table');

    await user.click(screen.getByRole('button', { name: 'Publish “The last letter” now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish “The last letter” as public?' });
    expect(server.calls('POST /executions/ex-5/approve')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Publish as public' }));

    expect(await screen.findByText('“The last letter” is now public on YouTube.')).toBeInTheDocument();
    expect(server.calls('POST /executions/ex-5/approve')[0].body).toEqual({ when: 'now' });
    expect(server.calls('PUT /publications/pub-5/publish-public')).toHaveLength(0);
  });

  it('rejects a video only once the owner confirms', async () => {
    let rows = [attic, letter];
    const { user, server } = renderHistory({
      'GET /publications/': () => page(rows),
      'POST /executions/ex-5/reject': () => {
        rows = [attic];
        return reply(200, { id: 'ex-5', process_id: 'p-1', status: 'rejected' });
      },
    });
    await screen.findByRole('table');

    await user.click(screen.getByRole('button', { name: 'Reject “The last letter”' }));
    let dialog = await screen.findByRole('dialog', { name: 'Reject “The last letter”?' });
    expect(dialog).toHaveTextContent(
      'The video is deleted from YouTube and removed from your history; it is never published. This cannot be undone.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.calls('POST /executions/ex-5/reject')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Reject “The last letter”' }));
    dialog = await screen.findByRole('dialog', { name: 'Reject “The last letter”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject video' }));

    expect(await screen.findByText('“The last letter” rejected and deleted from YouTube.')).toBeInTheDocument();
    expect(server.calls('POST /executions/ex-5/reject')).toHaveLength(1);
    expect(server.calls('DELETE /publications/pub-5')).toHaveLength(0);
    await waitFor(() => expect(screen.queryByRole('row', { name: 'The last letter' })).not.toBeInTheDocument());
  });

  it('shows why an approval or a rejection failed, and keeps the video waiting', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderHistory({
      'GET /publications/': page([letter]),
      'POST /executions/ex-5/approve': reply(409, { detail: 'The execution is not waiting for review' }),
      'POST /executions/ex-5/reject': reply(502, { detail: 'YouTube could not delete the video' }),
    });
    await screen.findByRole('table');

    await user.click(screen.getByRole('button', { name: /^Approve “The last letter”/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '“The last letter” could not be approved. The execution is not waiting for review',
    );
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Reject “The last letter”' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Reject video' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '“The last letter” could not be rejected. YouTube could not delete the video',
    );
    expect(within(row('The last letter')).getByText('Awaiting review')).toBeInTheDocument();
  });

  it('offers the usual actions, not the review ones, for a video recorded without its run', async () => {
    renderHistory({ 'GET /publications/': page([orphan]) });
    await screen.findByRole('table');

    const waiting = within(row('An orphan video'));
    expect(waiting.getByText('Awaiting review')).toBeInTheDocument();
    expect(waiting.queryByRole('button', { name: /^(Approve|Reject)/ })).not.toBeInTheDocument();
    expect(waiting.queryByRole('button', { name: 'Publish “An orphan video” now' })).not.toBeInTheDocument();
    expect(waiting.getByRole('button', { name: 'Publish “An orphan video” as public' })).toBeInTheDocument();
    expect(waiting.getByRole('button', { name: 'Delete the video “An orphan video”' })).toBeInTheDocument();
  });

  it('speaks Portuguese and counts the videos awaiting review', async () => {
    renderHistory(
      { 'GET /publications/': page([letter]), 'GET /publications/stats': reply(200, { ...stats, awaiting_review: 3 }) },
      { language: 'pt' },
    );
    await screen.findByRole('table');

    const waiting = within(row('The last letter'));
    expect(waiting.getByText('Aguardando revisão')).toBeInTheDocument();
    expect(
      waiting.getByRole('button', {
        name: 'Aprovar “The last letter” (publicado no próximo horário de publicação do processo)',
      }),
    ).toBeInTheDocument();
    expect(waiting.getByRole('button', { name: 'Publicar “The last letter” agora' })).toBeInTheDocument();
    expect(waiting.getByRole('button', { name: 'Rejeitar “The last letter”' })).toBeInTheDocument();
    await waitFor(() => expect(stat('Aguardando revisão')).toHaveTextContent('3'));
  });
});

describe('HistoryPage: report', () => {
  let clicked: { href: string; download: string }[];
  let click: jest.SpyInstance;

  beforeEach(() => {
    clicked = [];
    URL.createObjectURL = jest.fn(() => 'blob:http://localhost/report');
    URL.revokeObjectURL = jest.fn();
    click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
  });

  afterEach(() => click.mockRestore());

  it('downloads the CSV of the current filters with the session’s token and language', async () => {
    const { user, server } = renderHistory(
      {
        'GET /publications/': page([lost]),
        'GET /publications/report.csv': reply(200, '\uFEFFTítulo\r\nThe lost chapter\r\n', {
          contentType: 'text/csv; charset=utf-8',
          headers: { 'content-disposition': 'attachment; filename="publications-2025-03-09.csv"' },
        }),
      },
      { path: '/history?status=failed&period=90&page=2', language: 'pt' },
    );
    await screen.findByRole('table');

    await user.click(screen.getByRole('button', { name: 'Baixar relatório' }));

    expect(await screen.findByText('Relatório “publications-2025-03-09.csv” baixado.')).toBeInTheDocument();
    const [request] = server.calls('GET /publications/report.csv');
    expect(request.headers.get('authorization')).toBe('Bearer stored-token');
    expect(request.headers.get('accept-language')).toBe('pt');
    expect(params(request)).toEqual({ status: 'failed', date_range: '90' });
    expect(clicked).toEqual([{ href: 'blob:http://localhost/report', download: 'publications-2025-03-09.csv' }]);
  });

  it('shows why the report could not be downloaded', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderHistory({
      'GET /publications/': page([attic]),
      'GET /publications/report.csv': reply(503, { detail: 'The report service is busy' }),
    });
    await screen.findByRole('table');

    await user.click(screen.getByRole('button', { name: 'Download report' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('The report could not be downloaded. The report service is busy');
    expect(clicked).toEqual([]);
  });

  it('ends the session when the server no longer accepts the token', async () => {
    const { user, store } = renderHistory({
      'GET /publications/': page([attic]),
      'GET /publications/report.csv': reply(401, { detail: 'Your session has expired' }),
    });
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await screen.findByRole('table');

    await user.click(screen.getByRole('button', { name: 'Download report' }));

    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(store.getState().auth.token).toBeNull();
  });
});

describe('HistoryPage: statistics', () => {
  it('shows the counters of every publication and when they were read from YouTube', async () => {
    renderHistory({ 'GET /publications/': page([attic]) });
    await screen.findByRole('table');

    await waitFor(() => expect(stat('Publications')).toHaveTextContent('4'));
    expect(stat('Published')).toHaveTextContent('2');
    expect(stat('Processing')).toHaveTextContent('1');
    expect(stat('Awaiting review')).toHaveTextContent('0');
    expect(stat('Failed')).toHaveTextContent('1');
    expect(stat('Total views')).toHaveTextContent('1,246');
    expect(stat('Total likes')).toHaveTextContent('57');
    expect(screen.getByText(/^Statistics updated on 03\/09\/2025 \d\d:\d\d\.$/)).toBeInTheDocument();
  });

  it('says when the statistics were never read, or could not be loaded', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { server, user } = renderHistory({
      'GET /publications/': page([]),
      'GET /publications/stats': reply(500, { detail: 'Stats unavailable' }),
    });

    expect(await screen.findByText('The statistics could not be loaded. Stats unavailable')).toBeInTheDocument();
    expect(stat('Publications')).toHaveTextContent('—');

    server.on({ 'GET /publications/stats': reply(200, { ...stats, total: 0, stats_updated_at: null }) });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Statistics not updated yet.')).toBeInTheDocument();
    expect(stat('Publications')).toHaveTextContent('0');
  });

  it('asks for fresh statistics, then fetches the counters and the list again a moment later', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      let views = 1246;
      const { user, server } = renderHistory({
        'GET /publications/': page([attic]),
        'GET /publications/stats': () => reply(200, { ...stats, total_views: views }),
        'POST /publications/stats/refresh': () => {
          views = 2000;
          return reply(202, { queued: true });
        },
      });
      await screen.findByRole('table');
      await waitFor(() => expect(stat('Total views')).toHaveTextContent('1,246'));
      const listCalls = server.calls('GET /publications/').length;

      await user.click(screen.getByRole('button', { name: 'Refresh statistics' }));

      expect(
        await screen.findByText('Refreshing the statistics from YouTube; the figures update in a moment.'),
      ).toBeInTheDocument();
      expect(server.calls('POST /publications/stats/refresh')).toHaveLength(1);
      expect(stat('Total views')).toHaveTextContent('1,246');

      act(() => {
        jest.advanceTimersByTime(STATS_REFRESH_SETTLE_MS);
      });

      await waitFor(() => expect(stat('Total views')).toHaveTextContent('2,000'));
      expect(server.calls('GET /publications/').length).toBe(listCalls + 1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('shows why a refresh could not be asked for', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderHistory({
      'GET /publications/': page([attic]),
      'POST /publications/stats/refresh': reply(429, { detail: 'Too many refreshes; try again in a minute' }),
    });
    await screen.findByRole('table');

    await user.click(screen.getByRole('button', { name: 'Refresh statistics' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The statistics could not be refreshed. Too many refreshes; try again in a minute',
    );
  });
});
