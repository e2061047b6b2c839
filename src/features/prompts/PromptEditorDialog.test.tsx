import { screen, waitFor, within } from '@testing-library/react';
import { adminUser, promptFixture, promptSummaryOf, promptTexts, reply, invalidControls } from '../../testing';
import { promptList, renderPrompts } from './testing';

// Typing every text of a prompt is slow on a loaded 2-core machine.
jest.setTimeout(90_000);

const secrets = promptFixture();
const basic = promptFixture({ id: 'pr-2', name: 'Basic one', category: 'terror', languages: {} });

const empty = { title: '', premise: '', narrative_prompt: '', chapter_1: '', next_chapters: '', final_chapter: '' };

function tabNames(dialog: HTMLElement) {
  return within(within(dialog).getByRole('tablist'))
    .getAllByRole('tab')
    .map((tab) => tab.textContent);
}

function selectedTab(dialog: HTMLElement) {
  return within(dialog)
    .getAllByRole('tab')
    .find((tab) => tab.getAttribute('aria-selected') === 'true')?.textContent;
}

async function openNew(options: { language?: 'en' | 'pt' } = {}, handlers = {}) {
  const rendered = renderPrompts({ 'GET /prompts/': promptList(), ...handlers }, { user: adminUser, ...options });
  const create = options.language === 'pt' ? 'Novo prompt' : 'New prompt';
  await rendered.user.click((await screen.findAllByRole('button', { name: create }))[0]);
  const dialog = await screen.findByRole('dialog', { name: create });
  return { ...rendered, dialog };
}

describe('PromptEditorDialog', () => {
  it('starts a new prompt with Portuguese and English, empty, in the default category', async () => {
    const { dialog } = await openNew();

    expect(tabNames(dialog)).toEqual(['Portuguese', 'English']);
    expect(selectedTab(dialog)).toMatch(/Portuguese$/);
    expect(within(dialog).getByRole('combobox', { name: /^Category/ })).toHaveTextContent('Psychological drama');
    expect(within(dialog).getByLabelText('Title')).toHaveValue('');
    expect(within(dialog).getByLabelText('Narrative prompt')).toHaveValue('');
    expect(within(dialog).getAllByText(/^Placeholders: \{title\} \{premise\} \{summary\}/)).toHaveLength(6);
    expect(within(dialog).getByRole('tablist', { name: 'Prompt languages' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Title')).toHaveAccessibleDescription(
      'Placeholders: {title} {premise} {summary} {chapter_number} {total_chapters} {language} {previous_titles}',
    );
  });

  it('shows the category labels verbatim in Portuguese', async () => {
    const { user, dialog } = await openNew({ language: 'pt' });

    await user.click(within(dialog).getByRole('combobox', { name: /^Categoria/ }));
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Drama Psicológico',
      'Suspense',
      'Romance',
      'Ação',
      'Comédia',
      'Terror',
      'Ficção Científica',
      'Fantasia',
    ]);
  });

  it('adds a language from the menu of the supported ones not present yet', async () => {
    const { user, dialog } = await openNew();

    await user.click(within(dialog).getByRole('button', { name: 'Add language' }));
    const menu = await screen.findByRole('menu', { name: 'Languages you can add' });
    const offered = within(menu).getAllByRole('menuitem');
    expect(offered).toHaveLength(18);
    expect(offered.map((item) => item.textContent)).not.toContain('Portuguese');
    await user.click(within(menu).getByRole('menuitem', { name: 'Spanish' }));

    expect(tabNames(dialog)).toEqual(['Portuguese', 'English', 'Spanish']);
    expect(selectedTab(dialog)).toMatch(/Spanish$/);
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());

    await user.click(within(dialog).getByRole('button', { name: 'Add language' }));
    const again = await screen.findByRole('menu', { name: 'Languages you can add' });
    expect(within(again).getAllByRole('menuitem')).toHaveLength(17);
    expect(within(again).queryByRole('menuitem', { name: 'Spanish' })).not.toBeInTheDocument();
  });

  it('never removes the last language: the button is disabled and says why', async () => {
    const { user, dialog } = await openNew();

    await user.click(within(dialog).getByRole('button', { name: 'Remove Portuguese' }));
    expect(tabNames(dialog)).toEqual(['English']);

    const remove = within(dialog).getByRole('button', { name: 'Remove English' });
    expect(remove).toBeDisabled();
    await user.hover(remove.parentElement as HTMLElement);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('A prompt needs at least one language');
  });

  it('moves to the first remaining language when the active tab is removed', async () => {
    const { user, dialog } = await openNew();
    await user.click(within(dialog).getByRole('button', { name: 'Add language' }));
    await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'French' }));

    await user.click(within(dialog).getByRole('tab', { name: 'English' }));
    await user.type(within(dialog).getByLabelText('Title'), 'Kept English title');
    await user.click(within(dialog).getByRole('tab', { name: 'French' }));
    await user.click(within(dialog).getByRole('button', { name: 'Remove French' }));

    expect(tabNames(dialog)).toEqual(['Portuguese', 'English']);
    expect(selectedTab(dialog)).toMatch(/Portuguese$/);
    await user.click(within(dialog).getByRole('tab', { name: 'English' }));
    expect(within(dialog).getByLabelText('Title')).toHaveValue('Kept English title');
  });

  it('requires name, description and base content', async () => {
    const { user, dialog, server } = await openNew();

    await user.click(within(dialog).getByRole('button', { name: 'Create prompt' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Please fill in all fields');
    expect(within(dialog).getAllByText('Please fill in all fields')).toHaveLength(1);
    expect(invalidControls(dialog)).toHaveLength(3);
    expect(within(dialog).getByLabelText(/^Name/)).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByLabelText(/^Description/)).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByLabelText(/^Base content/)).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByLabelText('Title')).toHaveAttribute('aria-invalid', 'false');
    expect(server.calls('POST /prompts/full')).toHaveLength(0);
  });

  it('creates with POST /prompts/full: the category and every language with its six texts', async () => {
    let prompts = [] as ReturnType<typeof promptSummaryOf>[];
    const created = promptFixture({ id: 'pr-9', name: 'Night train' });
    const { user, dialog, server } = await openNew(
      {},
      {
        'GET /prompts/': () => promptList(...prompts),
        'POST /prompts/full': () => {
          prompts = [promptSummaryOf(created)];
          return reply(201, created);
        },
      },
    );

    await user.type(within(dialog).getByLabelText(/^Name/), '  Night train ');
    await user.click(within(dialog).getByRole('combobox', { name: /^Category/ }));
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Science fiction' }));
    await user.type(within(dialog).getByLabelText(/^Description/), 'Strangers on a train');
    await user.type(within(dialog).getByLabelText(/^Base content/), 'Write a mystery set on a night train.');
    await user.type(within(dialog).getByLabelText('Title'), 'Um título');
    await user.type(within(dialog).getByLabelText('Final chapter'), 'O fim');
    await user.click(within(dialog).getByRole('button', { name: 'Create prompt' }));

    expect(await screen.findByText('Prompt created successfully!')).toBeInTheDocument();
    expect(server.calls('POST /prompts/full')[0].body).toEqual({
      name: 'Night train',
      category: 'ficcao_cientifica',
      description: 'Strangers on a train',
      content: 'Write a mystery set on a night train.',
      languages: { pt: { ...empty, title: 'Um título', final_chapter: 'O fim' }, en: empty },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('row', { name: 'Night train' })).toBeInTheDocument();
  });

  it('shows the server’s message, else the spec’s, at the top of the form when saving fails', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, dialog, server } = await openNew(
      { language: 'pt' },
      { 'POST /prompts/full': reply(422, { detail: 'Nome é obrigatório' }) },
    );
    await user.type(within(dialog).getByLabelText(/^Nome/), 'A');
    await user.type(within(dialog).getByLabelText(/^Descrição/), 'B');
    await user.type(within(dialog).getByLabelText(/^Conteúdo base/), 'C');

    await user.click(within(dialog).getByRole('button', { name: 'Criar prompt' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Nome é obrigatório');

    server.on({ 'POST /prompts/full': reply(500, {}) });
    await user.click(within(dialog).getByRole('button', { name: 'Criar prompt' }));
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('Erro ao criar prompt'));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    log.mockRestore();
  });

  it('edits the full data: loads it, keeps the languages in order and replaces them with PUT /full', async () => {
    const withSpanish = promptFixture({
      languages: { pt: promptTexts('PT'), en: promptTexts('EN'), es: promptTexts('ES') },
    });
    const { user, server } = renderPrompts(
      {
        'GET /prompts/': promptList(promptSummaryOf(withSpanish)),
        'GET /prompts/pr-1': reply(200, withSpanish),
        'PUT /prompts/pr-1/full': reply(200, withSpanish),
      },
      { user: adminUser, language: 'pt' },
    );

    await user.click(await screen.findByRole('button', { name: 'Editar Family secrets' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar o prompt' });
    expect(await within(dialog).findByLabelText(/^Nome/)).toHaveValue('Family secrets');
    expect(within(dialog).getByRole('combobox', { name: /^Categoria/ })).toHaveTextContent('Suspense');
    expect(tabNames(dialog)).toEqual(['Português', 'Inglês', 'Espanhol']);
    expect(selectedTab(dialog)).toMatch(/Português$/);
    expect(within(dialog).getByLabelText('Título')).toHaveValue('PT title');

    await user.click(within(dialog).getByRole('tab', { name: 'Inglês' }));
    await user.click(within(dialog).getByRole('button', { name: 'Remover Inglês' }));
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));

    expect(await screen.findByText('Prompt atualizado com sucesso!')).toBeInTheDocument();
    const body = server.calls('PUT /prompts/pr-1/full')[0].body as { languages: object; category: string };
    expect(body.category).toBe('suspense');
    expect(body.languages).toEqual({ pt: promptTexts('PT'), es: promptTexts('ES') });
  });

  it('gives a prompt with basic data only Portuguese and English, empty, and the default category', async () => {
    const { user } = renderPrompts(
      { 'GET /prompts/': promptList(promptSummaryOf(basic)), 'GET /prompts/pr-2': reply(200, basic) },
      { user: adminUser },
    );

    await user.click(await screen.findByRole('button', { name: 'Edit Basic one' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the prompt' });

    expect(await within(dialog).findByText(/had only basic data/)).toBeInTheDocument();
    expect(tabNames(dialog)).toEqual(['Portuguese', 'English']);
    expect(selectedTab(dialog)).toMatch(/Portuguese$/);
    expect(within(dialog).getByRole('combobox', { name: /^Category/ })).toHaveTextContent('Psychological drama');
    expect(within(dialog).getByLabelText(/^Base content/)).toHaveValue(basic.content);
    expect(within(dialog).getByLabelText('Title')).toHaveValue('');
  });

  it('says so when the prompt cannot be loaded for editing', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderPrompts(
      { 'GET /prompts/': promptList(promptSummaryOf(secrets)), 'GET /prompts/pr-1': reply(404, { detail: 'Prompt not found' }) },
      { user: adminUser },
    );

    await user.click(await screen.findByRole('button', { name: 'Edit Family secrets' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the prompt' });
    expect(await within(dialog).findByText('The prompt could not be loaded. Prompt not found')).toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox')).not.toBeInTheDocument();
    log.mockRestore();
  });
});
