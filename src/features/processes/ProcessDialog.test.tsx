import { screen, waitFor, within } from '@testing-library/react';
import {
  channelFixture,
  musicFixture,
  promptFixture,
  promptSummaryOf,
  reply,
  voiceFixture,
  youtubeApiFixture,
  youtubeApiList,
  type MockHandler,
  invalidControls,
} from '../../testing';
import { processFixture, processList, renderProcesses } from './testing';

const channels = [channelFixture(), channelFixture({ id: 'ch-2', channel_id: 'UCsecond', name: null, is_active: false })];
const configs = [
  youtubeApiFixture(),
  youtubeApiFixture({ id: 'yt-2', name: 'Spare OAuth', is_active: false, is_enabled: true }),
  youtubeApiFixture({ id: 'yt-3', name: 'Off OAuth', is_active: false, is_enabled: false }),
];
const BLANK_TEXTS = { title: '', premise: ' ', narrative_prompt: '', chapter_1: '', next_chapters: '', final_chapter: '' };
const prompts = [
  promptSummaryOf(promptFixture()),
  promptSummaryOf(
    // An empty Portuguese tab: only English has texts.
    promptFixture({ id: 'pr-2', name: 'English only', languages: { pt: BLANK_TEXTS, en: promptFixture().languages.en } }),
  ),
  promptSummaryOf(promptFixture({ id: 'pr-3', name: 'Retired prompt', is_active: false })),
];
const voices = [
  voiceFixture(),
  voiceFixture({ id: 'vo-2', name: 'John Reader', sample_url: '/api/v1/voice-samples/vo-2.wav' }),
  voiceFixture({ id: 'vo-3', name: 'Old Voice', is_active: false }),
];

const tracks = [
  musicFixture(),
  musicFixture({ id: 'mu-2', name: 'Storm drums', mood: 'epic', audio_url: '/api/v1/music/mu-2/audio?expires=1&signature=s' }),
  musicFixture({ id: 'mu-3', name: 'Retired waltz', mood: 'romantic', is_active: false }),
];

function catalogue(extra: Record<string, MockHandler> = {}): Record<string, MockHandler> {
  return {
    'GET /channels/': reply(200, { channels, total: channels.length }),
    'GET /youtube-apis/': reply(200, youtubeApiList(configs)),
    'GET /prompts/': reply(200, { prompts, total: prompts.length }),
    'GET /voices/': reply(200, { voices, total: voices.length }),
    'GET /music/': reply(200, { music: tracks, total: tracks.length }),
    ...extra,
  };
}

type User = ReturnType<typeof renderProcesses>['user'];

async function choose(user: User, dialog: HTMLElement, field: RegExp, option: string | RegExp) {
  await user.click(within(dialog).getByRole('combobox', { name: field }));
  await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: option }));
  await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
}

async function optionsOf(user: User, dialog: HTMLElement, field: RegExp) {
  await user.click(within(dialog).getByRole('combobox', { name: field }));
  const names = within(screen.getByRole('listbox'))
    .getAllByRole('option')
    .map((option) => option.textContent);
  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
  return names;
}

async function openCreate(handlers: Record<string, MockHandler>, language: 'en' | 'pt' = 'en') {
  const rendered = renderProcesses({ 'GET /processes/': processList(), ...catalogue(handlers) }, { language });
  const create = language === 'en' ? 'New process' : 'Novo processo';
  await screen.findByText(language === 'en' ? /No process yet/ : /Nenhum processo ainda/);
  await rendered.user.click(screen.getAllByRole('button', { name: create })[0]);
  const dialog = await screen.findByRole('dialog', { name: create });
  // The catalogue has arrived once the active configuration is preselected.
  await waitFor(() =>
    expect(within(dialog).getByRole('combobox', { name: /^(API configuration|Configuração de API)/ })).toHaveTextContent(
      'Main OAuth',
    ),
  );
  return { ...rendered, dialog };
}

describe('ProcessDialog: create', () => {
  it('requires every field and starts with pt, 09:00, automatic publishing and enabled', async () => {
    const { user, server, dialog } = await openCreate({});

    expect(within(dialog).getByRole('combobox', { name: /^Language/ })).toHaveTextContent('Portuguese');
    expect(within(dialog).getByLabelText(/^Publication time/)).toHaveValue('09:00');
    expect(within(dialog).getByRole('radio', { name: 'Automatic' })).toBeChecked();
    expect(within(dialog).getByRole('radio', { name: 'After my review' })).not.toBeChecked();
    expect(within(dialog).getByRole('switch', { name: 'Enable immediately' })).toBeChecked();
    await user.clear(within(dialog).getByLabelText(/^Publication time/));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    // Name, channel, prompt, voice and time are empty: the form says so once, at the top, and marks the five.
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Please fill in all fields');
    expect(within(dialog).getAllByText('Please fill in all fields')).toHaveLength(1);
    expect(invalidControls(dialog)).toHaveLength(5);
    expect(within(dialog).getByLabelText(/^Name/)).toHaveAttribute('aria-invalid', 'true');
    expect(server.calls('POST /processes/')).toHaveLength(0);
  });

  it('offers only enabled configurations, active prompts and active voices, and the prompt’s languages', async () => {
    const { user, dialog } = await openCreate({});

    // A disabled channel is not offered: the server refuses it.
    expect(await optionsOf(user, dialog, /^Channel/)).toEqual(['Main channel']);
    expect(await optionsOf(user, dialog, /^API configuration/)).toEqual(['Main OAuth', 'Spare OAuth']);
    expect(await optionsOf(user, dialog, /^Prompt/)).toEqual(['Family secrets', 'English only']);
    expect(await optionsOf(user, dialog, /^Voice/)).toEqual(['Ana Narradora', 'John Reader']);
    expect(await optionsOf(user, dialog, /^Language/)).toEqual(['Portuguese', 'English']);

    // A prompt with English texts only: English is chosen and the only one offered.
    await choose(user, dialog, /^Prompt/, 'English only');
    expect(within(dialog).getByRole('combobox', { name: /^Language/ })).toHaveTextContent('English');
    expect(await optionsOf(user, dialog, /^Language/)).toEqual(['English']);
  });

  it('offers only the configurations that upload to the chosen channel, and switches to one of them', async () => {
    const second = channelFixture({ id: 'ch-3', channel_id: 'UCthird', name: 'Third channel' });
    const thirdsConfig = youtubeApiFixture({ id: 'yt-4', name: 'Third OAuth', channel_id: 'UCthird', is_active: false });
    const { user, dialog } = await openCreate({
      'GET /channels/': reply(200, { channels: [...channels, second], total: 3 }),
      'GET /youtube-apis/': reply(200, youtubeApiList([...configs, thirdsConfig])),
    });

    await choose(user, dialog, /^Channel/, 'Third channel');
    const config = within(dialog).getByRole('combobox', { name: /^API configuration/ });
    await waitFor(() => expect(config).toHaveTextContent('Third OAuth'));
    expect(await optionsOf(user, dialog, /^API configuration/)).toEqual(['Third OAuth']);

    await choose(user, dialog, /^Channel/, 'Main channel');
    await waitFor(() => expect(config).toHaveTextContent('Main OAuth'));
    expect(await optionsOf(user, dialog, /^API configuration/)).toEqual(['Main OAuth', 'Spare OAuth']);
  });

  it('says when no configuration uploads to the chosen channel', async () => {
    const lonely = channelFixture({ id: 'ch-4', channel_id: 'UClonely', name: 'Lonely channel' });
    const { user, dialog } = await openCreate(
      {
        'GET /channels/': reply(200, { channels: [...channels, lonely], total: 3 }),
      },
      'pt',
    );
    await choose(user, dialog, /^Canal/, 'Lonely channel');
    expect(
      await within(dialog).findByText(
        'Nenhuma configuração de API ativada envia para Lonely channel: adicione uma para este canal em Configurações.',
      ),
    ).toBeInTheDocument();
  });

  it('creates a process with every field and closes with a success message', async () => {
    let list = [] as ReturnType<typeof processFixture>[];
    const created = processFixture({ id: 'p-9', name: 'Bedtime tales' });
    const { user, server, dialog } = await openCreate({
      'POST /processes/': () => {
        list = [created];
        return reply(201, created);
      },
    });
    server.on({ 'GET /processes/': () => processList(...list) });

    await user.type(within(dialog).getByLabelText(/^Name/), '  Bedtime tales ');
    await choose(user, dialog, /^Channel/, 'Main channel');
    await choose(user, dialog, /^API configuration/, 'Spare OAuth');
    await choose(user, dialog, /^Prompt/, 'Family secrets');
    await choose(user, dialog, /^Voice/, 'John Reader');
    await choose(user, dialog, /^Language/, /English/);
    const time = within(dialog).getByLabelText(/^Publication time/);
    await user.clear(time);
    await user.type(time, '18:30');
    await user.click(within(dialog).getByRole('switch', { name: 'Enable immediately' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('Process “Bedtime tales” created')).toBeInTheDocument();
    expect(server.calls('POST /processes/')[0].body).toEqual({
      name: 'Bedtime tales',
      channel_id: 'ch-1',
      youtube_api_id: 'yt-2',
      prompt_id: 'pr-1',
      language: 'en',
      voice_id: 'vo-2',
      is_active: false,
      publication_time: '18:30',
      publish_mode: 'auto',
      format: 'video',
      music_id: null,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('article', { name: 'Bedtime tales' })).toBeInTheDocument();
  });

  it('says what each publish mode means and sends the one chosen', async () => {
    const created = processFixture({ id: 'p-9', name: 'Reviewed tales', publish_mode: 'review' });
    const { user, server, dialog } = await openCreate({ 'POST /processes/': reply(201, created) });

    const automatic = within(dialog).getByRole('radio', { name: 'Automatic' });
    expect(automatic).toHaveAccessibleDescription(
      'Each video is published the day after the execution, at the publication time.',
    );
    const review = within(dialog).getByRole('radio', { name: 'After my review' });
    expect(review).toHaveAccessibleDescription('Each video waits for your approval before it is published.');
    expect(within(dialog).getByText('The video is published the day after execution at this time.')).toBeInTheDocument();

    await user.click(review);
    expect(review).toBeChecked();
    // The publication time now says when an approved video goes out.
    expect(within(dialog).getByText('An approved video is published at the next occurrence of this time.')).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText(/^Name/), 'Reviewed tales');
    await choose(user, dialog, /^Channel/, 'Main channel');
    await choose(user, dialog, /^Prompt/, 'Family secrets');
    await choose(user, dialog, /^Voice/, 'Ana Narradora');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('Process “Reviewed tales” created')).toBeInTheDocument();
    expect(server.calls('POST /processes/')[0].body).toMatchObject({ name: 'Reviewed tales', publish_mode: 'review' });
  });

  it('makes a Short with background music: each format says what it is, the track can be heard, both are sent', async () => {
    const play = jest.spyOn(window.HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
    const pause = jest.spyOn(window.HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
    const created = processFixture({
      id: 'p-9',
      name: 'Tiny tales',
      format: 'short',
      music_id: 'mu-2',
      music_name: 'Storm drums',
    });
    const { user, server, dialog } = await openCreate({ 'POST /processes/': reply(201, created) });

    expect(within(dialog).getByRole('radio', { name: 'Video' })).toBeChecked();
    const short = within(dialog).getByRole('radio', { name: 'Short' });
    expect(short).toHaveAccessibleDescription(
      'Vertical 1080×1920, at most 3 minutes: one short chapter, filed by YouTube as a Short.',
    );
    // None by default; only active tracks are offered, with their mood.
    expect(within(dialog).getByRole('combobox', { name: /^Background music/ })).toHaveTextContent('No music');
    expect(within(dialog).getByRole('button', { name: 'Choose music to listen to it' })).toBeDisabled();
    expect(await optionsOf(user, dialog, /^Background music/)).toEqual(['No music', 'Quiet piano · Calm', 'Storm drums · Epic']);

    await user.click(short);
    await choose(user, dialog, /^Background music/, 'Storm drums · Epic');
    await user.click(within(dialog).getByRole('button', { name: 'Listen to Storm drums' }));
    expect((play.mock.contexts[0] as HTMLAudioElement).src).toBe(
      'http://localhost/api/v1/music/mu-2/audio?expires=1&signature=s',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Pause the music' }));
    expect(pause).toHaveBeenCalled();

    await user.type(within(dialog).getByLabelText(/^Name/), 'Tiny tales');
    await choose(user, dialog, /^Channel/, 'Main channel');
    await choose(user, dialog, /^Prompt/, 'Family secrets');
    await choose(user, dialog, /^Voice/, 'Ana Narradora');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('Process “Tiny tales” created')).toBeInTheDocument();
    expect(server.calls('POST /processes/')[0].body).toMatchObject({ name: 'Tiny tales', format: 'short', music_id: 'mu-2' });
    play.mockRestore();
    pause.mockRestore();
  });

  it('names the publish modes in Portuguese', async () => {
    const { dialog } = await openCreate({}, 'pt');

    expect(within(dialog).getByRole('group', { name: 'Publicação' })).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: 'Automática' })).toBeChecked();
    expect(within(dialog).getByRole('radio', { name: 'Após a minha revisão' })).toHaveAccessibleDescription(
      'Cada vídeo aguarda a sua aprovação antes de ser publicado.',
    );
  });

  it('shows the server’s message, else “Erro ao salvar processo”', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, server, dialog } = await openCreate(
      { 'POST /processes/': reply(422, { detail: 'O prompt não tem textos em português' }) },
      'pt',
    );
    await user.type(within(dialog).getByLabelText(/^Nome/), 'Contos');
    await choose(user, dialog, /^Canal/, 'Main channel');
    await choose(user, dialog, /^Prompt/, 'Family secrets');
    await choose(user, dialog, /^Voz/, 'Ana Narradora');
    await user.click(within(dialog).getByRole('button', { name: 'Criar' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('O prompt não tem textos em português');

    server.on({ 'POST /processes/': reply(500, { message: 'boom' }) });
    await user.click(within(dialog).getByRole('button', { name: 'Criar' }));
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('Erro ao salvar processo'));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    log.mockRestore();
  });

  it('plays and pauses the chosen voice’s sample', async () => {
    const play = jest.spyOn(window.HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
    const pause = jest.spyOn(window.HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
    const { user, dialog } = await openCreate({});

    expect(within(dialog).getByRole('button', { name: 'Choose a voice to listen to its sample' })).toBeDisabled();
    await choose(user, dialog, /^Voice/, 'John Reader');
    await user.click(within(dialog).getByRole('button', { name: 'Listen to the sample of John Reader' }));
    expect(play).toHaveBeenCalledTimes(1);
    expect((play.mock.contexts[0] as HTMLAudioElement).src).toBe('http://localhost/api/v1/voice-samples/vo-2.wav');
    await user.click(within(dialog).getByRole('button', { name: 'Pause the sample' }));
    expect(pause).toHaveBeenCalled();
    expect(within(dialog).getByRole('button', { name: 'Listen to the sample of John Reader' })).toBeInTheDocument();
    play.mockRestore();
    pause.mockRestore();
  });
});

describe('ProcessDialog: edit', () => {
  it('shows the current publish mode and sends it only when it changes', async () => {
    const process = processFixture({ name: 'Night stories', publish_mode: 'review' });
    const { user, server } = renderProcesses({
      'GET /processes/': processList(process),
      'PUT /processes/p-1': reply(200, { ...process, publish_mode: 'auto' }),
      ...catalogue(),
    });
    await screen.findByRole('article', { name: 'Night stories' });

    await user.click(screen.getByRole('button', { name: 'Edit Night stories' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit process' });
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: /^Voice/ })).toHaveTextContent('Ana Narradora'));
    expect(within(dialog).getByRole('radio', { name: 'After my review' })).toBeChecked();

    await user.click(within(dialog).getByRole('radio', { name: 'Automatic' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Process “Night stories” updated')).toBeInTheDocument();
    expect(server.calls('PUT /processes/p-1')[0].body).toEqual({ publish_mode: 'auto' });
  });

  it('sends only the fields that changed', async () => {
    const process = processFixture({ name: 'Night stories', is_active: false });
    const { user, server } = renderProcesses({
      'GET /processes/': processList(process),
      'PUT /processes/p-1': reply(200, { ...process, name: 'Late stories', publication_time: '21:15' }),
      ...catalogue(),
    });
    await screen.findByRole('article', { name: 'Night stories' });

    await user.click(screen.getByRole('button', { name: 'Edit Night stories' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit process' });
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: /^Voice/ })).toHaveTextContent('Ana Narradora'));
    expect(within(dialog).getByLabelText(/^Name/)).toHaveValue('Night stories');
    expect(within(dialog).getByRole('combobox', { name: /^Channel/ })).toHaveTextContent('Main channel');
    expect(within(dialog).getByRole('combobox', { name: /^Prompt/ })).toHaveTextContent('Family secrets');
    expect(within(dialog).getByRole('switch', { name: 'Enabled' })).not.toBeChecked();

    const name = within(dialog).getByLabelText(/^Name/);
    await user.clear(name);
    await user.type(name, 'Late stories');
    const time = within(dialog).getByLabelText(/^Publication time/);
    await user.clear(time);
    await user.type(time, '21:15');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Process “Late stories” updated')).toBeInTheDocument();
    expect(server.calls('PUT /processes/p-1')[0].body).toEqual({ name: 'Late stories', publication_time: '21:15' });
  });

  it('keeps a switched-off track as chosen, and sends “no music” as null once the owner removes it', async () => {
    const process = processFixture({ music_id: 'mu-3', music_name: 'Retired waltz', music_active: false });
    const { user, server } = renderProcesses(
      {
        'GET /processes/': processList(process),
        'PUT /processes/p-1': reply(200, { ...process, music_id: null, music_name: null, music_active: null }),
        ...catalogue(),
      },
      { language: 'pt' },
    );
    const card = await screen.findByRole('article', { name: 'Night stories' });
    expect(card).toHaveTextContent('Retired waltz (desativada: as execuções seguem sem ela)');

    await user.click(screen.getByRole('button', { name: 'Editar Night stories' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar processo' });
    const music = within(dialog).getByRole('combobox', { name: /^Música de fundo/ });
    await waitFor(() => expect(music).toHaveTextContent('Retired waltz (inativa)'));
    expect(within(dialog).getByRole('radio', { name: 'Vídeo' })).toBeChecked();

    await choose(user, dialog, /^Música de fundo/, 'Sem música');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(server.calls('PUT /processes/p-1')).toHaveLength(1));
    expect(server.calls('PUT /processes/p-1')[0].body).toEqual({ music_id: null });
  });

  it('keeps a process’s inactive prompt without offering it to others, and sends nothing when nothing changed', async () => {
    const process = processFixture({ prompt_id: 'pr-3', prompt_name: 'Retired prompt', needs: ['prompt_inactive'] });
    const { user, server } = renderProcesses({ 'GET /processes/': processList(process), ...catalogue() });
    await screen.findByRole('article', { name: 'Night stories' });

    await user.click(screen.getByRole('button', { name: 'Edit Night stories' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit process' });
    await waitFor(() =>
      expect(within(dialog).getByRole('combobox', { name: /^Prompt/ })).toHaveTextContent('Retired prompt (inactive)'),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.calls('PUT /processes/p-1')).toHaveLength(0);
  });
});
