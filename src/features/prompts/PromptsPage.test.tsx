import { screen, waitFor, within } from '@testing-library/react';
import { adminUser, deferred, promptFixture, promptSummaryOf, reply, testUser } from '../../testing';
import { promptList, renderPrompts } from './testing';

const secrets = promptFixture();
const lighthouse = promptFixture({
  id: 'pr-2',
  name: 'The lighthouse',
  description: 'A keeper alone on an island.',
  category: 'terror',
  is_active: false,
  process_count: 0,
  languages: {},
});
const rows = [promptSummaryOf(secrets), promptSummaryOf(lighthouse)];

describe('PromptsPage', () => {
  it('shows skeletons, then a table of name and ID, description, status and last update, with only “view” for a user', async () => {
    const answer = deferred();
    const { server } = renderPrompts({ 'GET /prompts/': answer.handler });

    expect(await screen.findByRole('heading', { level: 1, name: 'Prompts' })).toBeInTheDocument();
    expect(screen.getByText('The story templates used to write each video.')).toBeInTheDocument();
    expect(await screen.findByRole('status', { name: 'Loading…' })).toBeInTheDocument();
    answer.resolve(promptList(...rows));

    const table = await screen.findByRole('table', { name: 'Prompts' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['Name', 'Description', 'Status', 'Last update', 'Actions']);

    const row = within(table).getByRole('row', { name: 'Family secrets' });
    expect(within(row).getByText('ID: pr-1')).toBeInTheDocument();
    expect(within(row).getByText('A family hides a secret for decades.')).toBeInTheDocument();
    expect(within(row).getByText('Active')).toBeInTheDocument();
    // pt-BR date and time, whatever the interface language.
    expect(within(row).getByText(/^07\/03\/2025 \d\d:\d\d$/)).toBeInTheDocument();
    expect(
      within(row)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['View Family secrets']);
    expect(within(table).getByRole('row', { name: 'The lighthouse' })).toHaveTextContent('Inactive');

    expect(screen.queryByRole('button', { name: 'New prompt' })).not.toBeInTheDocument();
    const request = server.calls('GET /prompts/')[0];
    expect(Object.fromEntries(request.url.searchParams)).toEqual({ skip: '0', limit: '100', active_only: 'false' });
  });

  it('shows a card per prompt on a phone, with the admin’s actions', async () => {
    const width = window.innerWidth;
    window.innerWidth = 375;
    try {
      const { user, server } = renderPrompts(
        {
          'GET /prompts/': promptList(...rows),
          'PUT /prompts/pr-1/toggle': reply(200, { ...promptSummaryOf(secrets), is_active: false }),
        },
        { user: adminUser },
      );
      const list = await screen.findByRole('region', { name: 'Prompts' });
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
      const card = within(list).getByRole('article', { name: 'Family secrets' });
      expect(within(card).getByText('ID: pr-1')).toBeInTheDocument();
      expect(within(card).getByText('Active')).toBeInTheDocument();
      expect(within(card).getByText(/^Updated 07\/03\/2025 \d\d:\d\d$/)).toBeInTheDocument();
      await user.click(within(card).getByRole('button', { name: 'Deactivate Family secrets' }));
      await waitFor(() => expect(server.calls('PUT /prompts/pr-1/toggle')).toHaveLength(1));
      expect(within(list).getByRole('article', { name: 'The lighthouse' })).toHaveTextContent('Inactive');
    } finally {
      window.innerWidth = width;
    }
  });

  it('gives an admin the create button and the actions column', async () => {
    renderPrompts({ 'GET /prompts/': promptList(...rows) }, { user: adminUser });

    const table = await screen.findByRole('table', { name: 'Prompts' });
    expect(within(table).getByRole('columnheader', { name: 'Actions' })).toBeInTheDocument();
    const row = within(table).getByRole('row', { name: 'Family secrets' });
    for (const name of [
      'View Family secrets',
      'Edit the description of Family secrets',
      'Edit Family secrets',
      'Deactivate Family secrets',
      'Delete Family secrets',
    ]) {
      expect(within(row).getByRole('button', { name })).toBeInTheDocument();
    }
    expect(within(table).getByRole('button', { name: 'Activate The lighthouse' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New prompt' })).toBeInTheDocument();
  });

  it('deletes after a confirmation that shows name, ID, status and the processes using it', async () => {
    let prompts = rows;
    const detail = 'Prompt deleted successfully! 3 processes that used it were switched off and need a new prompt.';
    const { user, server } = renderPrompts(
      {
        'GET /prompts/': () => promptList(...prompts),
        'DELETE /prompts/pr-1': () => {
          prompts = [rows[1]];
          return reply(200, { detail, affected_processes: 3 });
        },
      },
      { user: adminUser },
    );

    await user.click(await screen.findByRole('button', { name: 'Delete Family secrets' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the prompt “Family secrets”?' });
    expect(within(dialog).getByText('Family secrets')).toBeInTheDocument();
    expect(within(dialog).getByText('pr-1')).toBeInTheDocument();
    expect(within(dialog).getByText('Active')).toBeInTheDocument();
    expect(within(dialog).getByText(/Processes using this prompt may be affected/)).toHaveTextContent(
      '3 processes use this prompt.',
    );
    expect(server.calls('DELETE /prompts/pr-1')).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText(detail)).toBeInTheDocument();
    expect(server.calls('DELETE /prompts/pr-1')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('row', { name: 'Family secrets' })).not.toBeInTheDocument());
  });

  it('says so when no process uses the prompt, and reports a failed deletion in Portuguese', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderPrompts(
      { 'GET /prompts/': promptList(...rows), 'DELETE /prompts/pr-2': reply(500, {}) },
      { user: adminUser, language: 'pt' },
    );

    await user.click(await screen.findByRole('button', { name: 'Excluir The lighthouse' }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir o prompt “The lighthouse”?' });
    expect(within(dialog).getByText('Inativo')).toBeInTheDocument();
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Nenhum processo usa este prompt.');
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));

    expect(await screen.findByText('Erro ao excluir prompt')).toBeInTheDocument();
    expect(log).toHaveBeenCalledWith('Failed to delete prompt', expect.objectContaining({ status: 500 }));
    log.mockRestore();
  });

  it('edits the description only', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, server } = renderPrompts(
      { 'GET /prompts/': promptList(...rows), 'PUT /prompts/pr-1': reply(500, {}) },
      { user: adminUser },
    );

    await user.click(await screen.findByRole('button', { name: 'Edit the description of Family secrets' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the description of “Family secrets”' });
    const description = within(dialog).getByLabelText(/^Description/);
    expect(description).toHaveValue('A family hides a secret for decades.');

    await user.clear(description);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Please fill in all fields');
    expect(server.calls('PUT /prompts/pr-1')).toHaveLength(0);

    await user.type(description, '  A new description ');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to update description');
    expect(server.calls('PUT /prompts/pr-1')[0].body).toEqual({ description: 'A new description' });

    server.on({ 'PUT /prompts/pr-1': reply(200, { ...secrets, description: 'A new description' }) });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Prompt updated successfully!')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    log.mockRestore();
  });

  it('activates and deactivates a prompt', async () => {
    const { user, server } = renderPrompts(
      { 'GET /prompts/': promptList(...rows), 'PUT /prompts/pr-1/toggle': reply(200, { ...secrets, is_active: false }) },
      { user: adminUser },
    );

    await user.click(await screen.findByRole('button', { name: 'Deactivate Family secrets' }));

    expect(await screen.findByText('Prompt “Family secrets” deactivated')).toBeInTheDocument();
    expect(server.calls('PUT /prompts/pr-1/toggle')).toHaveLength(1);
    expect(server.calls('GET /prompts/')).toHaveLength(2);
  });

  it.each([
    ['an admin', adminUser],
    ['a user who is not an admin', testUser],
  ])('shows %s the whole prompt read-only, with a tab per language', async (_who, user_) => {
    const { user, server } = renderPrompts(
      { 'GET /prompts/': promptList(...rows), 'GET /prompts/pr-1': reply(200, secrets) },
      { user: user_ },
    );

    await user.click(await screen.findByRole('button', { name: 'View Family secrets' }));
    const dialog = await screen.findByRole('dialog', { name: 'Prompt “Family secrets”' });
    expect(await within(dialog).findByText('Write a gripping story about a family secret.')).toBeInTheDocument();
    expect(within(dialog).getByText('Suspense')).toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox')).not.toBeInTheDocument();

    const tabs = within(dialog).getByRole('tablist', { name: 'Languages' });
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Portuguese', 'English']);
    // Each tab's flag is a decorative picture, not an emoji.
    for (const tab of within(tabs).getAllByRole('tab')) expect(tab.querySelector('img[alt=""]')).not.toBeNull();
    expect(within(dialog).getByRole('tabpanel')).toHaveTextContent('PT narrative');
    await user.click(within(tabs).getByRole('tab', { name: 'English' }));
    expect(within(dialog).getByRole('tabpanel')).toHaveTextContent('EN final chapter');

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.calls('GET /prompts/pr-1')).toHaveLength(1);
  });

  it('has an empty state, with the create button for an admin', async () => {
    const { unmount } = renderPrompts({ 'GET /prompts/': promptList() });
    expect(await screen.findByText('No prompt in the catalog yet.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New prompt' })).not.toBeInTheDocument();
    unmount();

    renderPrompts({ 'GET /prompts/': promptList() }, { user: adminUser });
    expect(await screen.findByText(/Create the first one/)).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'New prompt' })).toHaveLength(2);
  });

  it('shows an error with a retry when the list fails to load', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, server } = renderPrompts({ 'GET /prompts/': reply(503, { detail: 'Database unavailable' }) });

    expect(await screen.findByText('The prompts could not be loaded. Database unavailable')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();

    server.on({ 'GET /prompts/': promptList(...rows) });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('row', { name: 'Family secrets' })).toBeInTheDocument();
    log.mockRestore();
  });
});
