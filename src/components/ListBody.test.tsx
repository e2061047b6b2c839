import { screen } from '@testing-library/react';
import { renderWithProviders } from '../testing/renderWithProviders';
import { ListBody, type ListQueryState } from './ListBody';

const idle: ListQueryState = { data: { total: 2 }, isLoading: false, isError: false, isFetching: false, refetch: jest.fn() };

function renderBody(query: Partial<ListQueryState>, rows: string[] = ['a', 'b'], reason?: string) {
  const onPage = jest.fn();
  const view = renderWithProviders(
    <ListBody
      query={{ ...idle, ...query }}
      rows={rows}
      loadFailed="The things could not be loaded."
      reason={reason}
      empty={{ message: 'No things yet.', action: <button type="button">Add a thing</button> }}
      page={0}
      onPage={onPage}
    >
      {(shown) => (
        <ul aria-label="Things">
          {shown.map((row) => (
            <li key={row}>{row}</li>
          ))}
        </ul>
      )}
    </ListBody>,
  );
  return { ...view, onPage };
}

describe('ListBody', () => {
  test('a skeleton while the first page loads', () => {
    renderBody({ isLoading: true, data: undefined });
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  test('a failure says so with the reason, shows no rows and retries', async () => {
    const refetch = jest.fn();
    const { user } = renderBody({ isError: true, refetch }, [], 'The server is down.');
    expect(screen.getByRole('alert')).toHaveTextContent('The things could not be loaded. The server is down.');
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  test('the retry waits while the list is fetched again', () => {
    renderBody({ isError: true, isFetching: true }, []);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeDisabled();
  });

  test('an empty list shows the empty state and its action', () => {
    renderBody({ data: { total: 0 } }, []);
    expect(screen.getByText('No things yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add a thing' })).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  test('the rows, with the pager under a list longer than a page', () => {
    renderBody({ data: { total: 240 } });
    expect(screen.getByRole('list', { name: 'Things' })).toHaveTextContent('ab');
    expect(screen.getByRole('navigation', { name: 'Pages of the list' })).toHaveTextContent('1–2 of 240');
  });
});
