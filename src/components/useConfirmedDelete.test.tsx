import { screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '../testing/renderWithProviders';
import { ConfirmDialog } from './ConfirmDialog';
import { useConfirmedDelete } from './useConfirmedDelete';

jest.setTimeout(60_000);

interface Thing {
  id: string;
  name: string;
}
const main: Thing = { id: 't-1', name: 'Main' };

function Things({ remove, outcome }: { remove: (thing: Thing) => Promise<string>; outcome: (text: string) => void }) {
  const deletion = useConfirmedDelete({
    remove,
    onDeleted: (thing: Thing, result: string) => outcome(`deleted ${thing.name}: ${result}`),
    onFailed: (thing: Thing, failure: unknown) => outcome(`kept ${thing.name}: ${String(failure)}`),
    failureLog: 'Failed to delete the thing',
  });
  return (
    <>
      <button type="button" onClick={() => deletion.ask(main)}>
        Delete Main
      </button>
      <ConfirmDialog {...deletion.dialog} title={`Delete “${deletion.target?.name ?? ''}”?`} confirmLabel="Delete" />
    </>
  );
}

async function confirmDelete(remove: (thing: Thing) => Promise<string>) {
  const outcome = jest.fn();
  const { user } = renderWithProviders(<Things remove={remove} outcome={outcome} />);
  await user.click(screen.getByRole('button', { name: 'Delete Main' }));
  const dialog = await screen.findByRole('dialog', { name: 'Delete “Main”?' });
  await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
  return { outcome, user, dialog };
}

describe('useConfirmedDelete', () => {
  test('asks, deletes once confirmed, reports it and closes, the thing named all along', async () => {
    let finish: (value: string) => void = () => undefined;
    const remove = jest.fn(() => new Promise<string>((resolve) => (finish = resolve)));
    const { outcome, dialog } = await confirmDelete(remove);
    expect(remove).toHaveBeenCalledWith(main);
    // Busy while it runs.
    expect(within(dialog).getByRole('button', { name: 'Deleting…' })).toBeDisabled();
    finish('gone');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(outcome).toHaveBeenCalledWith('deleted Main: gone');
  });

  test('a failure is logged once, reported and closes the dialog', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const failure = new Error('HTTP 500');
    const { outcome } = await confirmDelete(() => Promise.reject(failure));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(outcome).toHaveBeenCalledWith('kept Main: Error: HTTP 500');
    expect(log).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith('Failed to delete the thing', failure);
    log.mockRestore();
  });

  test('cancelling deletes nothing', async () => {
    const remove = jest.fn(() => Promise.resolve('gone'));
    const { user } = renderWithProviders(<Things remove={remove} outcome={jest.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Delete Main' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(remove).not.toHaveBeenCalled();
  });
});
