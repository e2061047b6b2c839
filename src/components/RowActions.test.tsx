import { act, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '../testing/renderWithProviders';
import { RowActions, type RowActionsProps } from './RowActions';

jest.setTimeout(60_000);

function renderActions(props: Partial<RowActionsProps> = {}, language: 'en' | 'pt' = 'en') {
  const handlers = { onToggle: jest.fn(), onEdit: jest.fn(), onDelete: jest.fn() };
  const view = renderWithProviders(<RowActions name="Main" active {...handlers} {...props} />, {
    preloadedState: { preferences: { language } },
  });
  return { ...view, ...handlers };
}

describe('RowActions', () => {
  test('names the thing on every action and runs each', async () => {
    const { user, onToggle, onEdit, onDelete } = renderActions();
    await user.click(screen.getByRole('button', { name: 'Disable Main' }));
    await user.click(screen.getByRole('button', { name: 'Edit Main' }));
    await user.click(screen.getByRole('button', { name: 'Delete Main' }));
    expect(onToggle).toHaveBeenCalledTimes(1);
    expect(onEdit).toHaveBeenCalledTimes(1);
    expect(onDelete).toHaveBeenCalledTimes(1);
  });

  test('in Portuguese too, with the actions of its own first and a label of its own for delete', () => {
    renderActions({ active: false, deleteLabel: 'Remover Main', children: <button type="button">Ouvir Main</button> }, 'pt');
    const names = screen.getAllByRole('button').map((button) => button.getAttribute('aria-label') ?? button.textContent);
    expect(names).toEqual(['Ouvir Main', 'Ativar Main', 'Editar Main', 'Remover Main']);
  });

  test('the toggle waits while it switches', () => {
    renderActions({ toggling: true });
    expect(screen.getByRole('button', { name: 'Disable Main' })).toBeDisabled();
  });

  test('switching off what active processes use asks first, and switches once confirmed', async () => {
    let finish: () => void = () => undefined;
    const onToggle = jest.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { user } = renderActions({ activeProcesses: 2, onToggle });
    await user.click(screen.getByRole('button', { name: 'Disable Main' }));
    const dialog = await screen.findByRole('dialog', { name: 'Switch off “Main”?' });
    expect(dialog).toHaveTextContent('2 active processes use it.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(onToggle).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Disable Main' }));
    const again = await screen.findByRole('dialog', { name: 'Switch off “Main”?' });
    await user.click(within(again).getByRole('button', { name: 'Switch off' }));
    expect(onToggle).toHaveBeenCalledTimes(1);
    // The dialog stays until the switch is done.
    expect(screen.getByRole('dialog', { name: 'Switch off “Main”?' })).toBeInTheDocument();
    await act(async () => finish());
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  test('switching on, or off what no active process uses, asks nothing', async () => {
    const { user, onToggle } = renderActions({ active: false, activeProcesses: 3 });
    await user.click(screen.getByRole('button', { name: 'Enable Main' }));
    expect(onToggle).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
