import { eq, sql } from 'drizzle-orm';
import { NoopLogger } from 'drizzle-orm/logger';
import type { InjectOptions } from 'fastify';
import { executions, processes, users } from '../src/db/schema';
import { EXECUTION_INTERVAL_DAYS } from '../src/services/processes';
import { PROCESS_STEPS } from '../src/runLayout';
import { pcmToWav } from '../src/lib/wav';
import { TEST_ADMIN_EMAIL, buildTestApp, call, signUp, type TestContext } from './helper';

let ctx: TestContext;
let admin: string;
let token: string;
let userId: string;
let stranger: string;

const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const BUILTIN_DRAMA = '5ebd8341-10e8-4ab7-85f4-5694d6a6f88b';
const BUILTIN_SUSPENSE = '2a3c5896-f5e9-46df-8603-a72d64833249';
const HELENA = '387bfe25-192a-4eb3-aa8b-be1f9e202b9a';
const EMMA = '170b0db9-cade-4eac-98a5-68d05603e946';
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The caller's fixtures: a named channel with an enabled and a disabled configuration of it, and an
 * unnamed channel with its own configuration (a configuration uploads to one YouTube channel).
 */
interface Fixtures {
  channel: string;
  unnamedChannel: string;
  config: string;
  disabledConfig: string;
  unnamedConfig: string;
}
let mine: Fixtures;
let theirs: Fixtures;
/** Admin-made catalogue entries: a pt-only prompt, one whose en texts are all blank, inactive ones. */
let ptOnlyPrompt: string;
let blankEnPrompt: string;
let inactivePrompt: string;
let inactiveVoice: string;

/** Calls /api/v1/processes (as the user unless told otherwise; token null sends none). */
function api(
  method: InjectOptions['method'],
  url: string,
  options: { body?: unknown; token?: string | null; headers?: Record<string, string> } = {},
) {
  const as = options.token === null ? undefined : (options.token ?? token);
  return call(ctx.app, method, `/api/v1/processes${url}`, { body: options.body, token: as, headers: options.headers });
}

let counter = 0;
/** The YouTube channel id of each channel made here, by its record's id. */
const youtubeIdOf = new Map<string, string>();
async function makeChannel(as: string, name: string | null): Promise<string> {
  counter += 1;
  const response = await call(ctx.app, 'POST', '/api/v1/channels/', {
    token: as,
    body: { channel_id: `UC_process_channel_${counter}`, name },
  });
  expect(response.statusCode).toBe(201);
  youtubeIdOf.set(response.json().id, `UC_process_channel_${counter}`);
  return response.json().id;
}

/** A configuration uploading to the channel `forChannel` (a record's id), or to a YouTube channel of its own. */
async function makeConfig(as: string, enabled = true, forChannel?: string): Promise<string> {
  counter += 1;
  const response = await call(ctx.app, 'POST', '/api/v1/youtube-apis/', {
    token: as,
    body: {
      name: `Config ${counter}`,
      channel_id: (forChannel && youtubeIdOf.get(forChannel)) ?? `UC_config_${counter}`,
      client_id: `client-${counter}.apps.googleusercontent.com`,
      client_secret: `GOCSPX-secret-${counter}`,
    },
  });
  expect(response.statusCode).toBe(201);
  const id: string = response.json().id;
  if (!enabled)
    expect((await call(ctx.app, 'PUT', `/api/v1/youtube-apis/${id}/toggle`, { token: as })).json().is_enabled).toBe(false);
  return id;
}

async function fixtures(as: string): Promise<Fixtures> {
  const channel = await makeChannel(as, 'My Stories');
  const unnamedChannel = await makeChannel(as, null);
  return {
    channel,
    unnamedChannel,
    config: await makeConfig(as, true, channel),
    disabledConfig: await makeConfig(as, false, channel),
    unnamedConfig: await makeConfig(as, true, unnamedChannel),
  };
}

const texts = (prefix: string) => ({
  title: `${prefix} title`,
  premise: `${prefix} premise`,
  narrative_prompt: `${prefix} narrative`,
  chapter_1: `${prefix} chapter 1`,
  next_chapters: `${prefix} next`,
  final_chapter: `${prefix} final`,
});

async function makePrompt(name: string, languages: Record<string, unknown>): Promise<string> {
  const response = await call(ctx.app, 'POST', '/api/v1/prompts/full', {
    token: admin,
    body: { name, description: `${name} description`, content: `${name} content`, languages },
  });
  expect(response.statusCode).toBe(201);
  return response.json().id;
}

async function makeVoice(name: string): Promise<string> {
  const response = await call(ctx.app, 'POST', '/api/v1/voices/', {
    token: admin,
    body: { name, type: 'Narrador', sample_url: 'https://example.com/sample.mp3', language: 'pt' },
  });
  expect(response.statusCode).toBe(201);
  return response.json().id;
}

beforeAll(async () => {
  ctx = await buildTestApp();
  admin = (await signUp(ctx.app, { email: TEST_ADMIN_EMAIL })).token;
  const user = await signUp(ctx.app);
  token = user.token;
  userId = user.user.id;
  stranger = (await signUp(ctx.app)).token;
  mine = await fixtures(token);
  theirs = await fixtures(stranger);
  ptOnlyPrompt = await makePrompt('Only Portuguese', { pt: texts('PT') });
  blankEnPrompt = await makePrompt('Blank English', { pt: texts('PT'), en: {} });
  inactivePrompt = await makePrompt('Switched off', { pt: texts('PT'), en: texts('EN') });
  expect((await call(ctx.app, 'PUT', `/api/v1/prompts/${inactivePrompt}/toggle`, { token: admin })).json().is_active).toBe(false);
  inactiveVoice = await makeVoice('Quiet');
  expect((await call(ctx.app, 'PUT', `/api/v1/voices/${inactiveVoice}/toggle`, { token: admin })).json().is_active).toBe(false);
});

afterAll(async () => {
  await ctx.close();
});

/** A valid create body with the caller's fixtures (pt, the built-in drama prompt, Helena). */
function body(overrides: Record<string, unknown> = {}, f: Fixtures = mine) {
  return {
    name: 'Family secrets daily',
    channel_id: f.channel,
    youtube_api_id: f.config,
    prompt_id: BUILTIN_DRAMA,
    language: 'pt',
    voice_id: HELENA,
    ...overrides,
  };
}

async function create(overrides: Record<string, unknown> = {}, as = token, f: Fixtures = mine) {
  const response = await api('POST', '/', { body: body(overrides, f), token: as });
  expect(response.statusCode).toBe(201);
  return response.json() as ProcessJson;
}

interface ProcessJson {
  id: string;
  name: string;
  is_active: boolean;
  needs: string[];
  updated_at: string;
  [key: string]: unknown;
}

async function scalar(query: ReturnType<typeof sql>): Promise<number> {
  const result = await ctx.database.db.execute(query);
  return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

const processCount = () => scalar(sql`select count(*)::int as n from processes`);

/** The stored row of a process, to prove a refused call changed nothing. */
async function stored(id: string) {
  const [row] = await ctx.database.db.select().from(processes).where(eq(processes.id, id));
  return row;
}

describe('create', () => {
  test('a new process: idle, off, 09:00, never executed, due three days after creation, with names', async () => {
    ctx.clock.advance(60_000);
    const at = ctx.clock.now;
    const response = await api('POST', '/', { body: body({ name: '  Family secrets  ' }) });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: expect.any(String),
      name: 'Family secrets',
      channel_id: mine.channel,
      channel_name: 'My Stories',
      youtube_api_id: mine.config,
      youtube_api_name: expect.stringMatching(/^Config \d+$/),
      prompt_id: BUILTIN_DRAMA,
      prompt_name: 'Segredos de Família',
      language: 'pt',
      voice_id: HELENA,
      voice_name: 'Helena',
      is_active: false,
      status: 'idle',
      execution_step: null,
      execution_steps: null,
      last_execution: null,
      next_execution: new Date(at.getTime() + 3 * DAY_MS).toISOString(),
      publication_time: '09:00',
      publish_mode: 'auto',
      format: 'video',
      music_id: null,
      music_name: null,
      music_active: null,
      last_error: null,
      latest_execution_id: null,
      needs: [],
      created_at: at.toISOString(),
      updated_at: at.toISOString(),
    });
    const got = await api('GET', `/${response.json().id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(response.json());
  });

  test('is_active and publication_time when sent; an unnamed channel shows its platform id', async () => {
    const process = await create({
      channel_id: mine.unnamedChannel,
      youtube_api_id: mine.unnamedConfig,
      prompt_id: BUILTIN_SUSPENSE,
      language: 'en',
      voice_id: EMMA,
      is_active: true,
      publication_time: '21:30',
    });
    expect(process).toMatchObject({ is_active: true, publication_time: '21:30', language: 'en', needs: [] });
    expect(process.channel_name).toMatch(/^UC_process_channel_\d+$/);
    expect((await create({ publication_time: '7:05' })).publication_time).toBe('07:05');
    expect((await create({ publication_time: '00:00' })).publication_time).toBe('00:00');
    expect((await create({ publication_time: '23:59' })).publication_time).toBe('23:59');
  });

  const refusals: [string, () => Record<string, unknown>, number, string | RegExp][] = [
    ['a blank name', () => body({ name: '   ' }), 422, 'Enter a name for the process'],
    ['a missing name', () => ({ ...body(), name: undefined }), 400, /name/],
    ['a missing language', () => ({ ...body(), language: undefined }), 400, /language/],
    ['a missing voice', () => ({ ...body(), voice_id: undefined }), 400, /voice_id/],
    ['a language other than pt or en', () => body({ language: 'es' }), 400, /language/],
    ['an unknown field', () => body({ owner: 'me' }), 400, /additional/],
    ['a malformed id', () => body({ channel_id: 'channel-1' }), 400, /channel_id/],
    ['a blank channel', () => body({ channel_id: '' }), 422, 'Choose a channel'],
    ['a null channel', () => body({ channel_id: null }), 422, 'Choose a channel'],
    ['a blank configuration', () => body({ youtube_api_id: null }), 422, 'Choose a YouTube API configuration'],
    ['a blank prompt', () => body({ prompt_id: '' }), 422, 'Choose a prompt'],
    ['a blank voice', () => body({ voice_id: null }), 422, 'Choose a voice'],
    ['an unknown channel', () => body({ channel_id: MISSING_ID }), 422, 'Channel not found; choose one of your channels'],
    ["another user's channel", () => body({ channel_id: theirs.channel }), 422, 'Channel not found; choose one of your channels'],
    [
      'an unknown configuration',
      () => body({ youtube_api_id: MISSING_ID }),
      422,
      'YouTube API configuration not found; choose one of yours',
    ],
    [
      "another user's configuration",
      () => body({ youtube_api_id: theirs.config }),
      422,
      'YouTube API configuration not found; choose one of yours',
    ],
    [
      'a disabled configuration',
      () => body({ youtube_api_id: mine.disabledConfig }),
      422,
      'This YouTube API configuration is disabled; enable it in Settings or choose another',
    ],
    ['an unknown prompt', () => body({ prompt_id: MISSING_ID }), 422, 'Prompt not found; choose another'],
    ['an inactive prompt', () => body({ prompt_id: inactivePrompt }), 422, 'This prompt is inactive; choose another'],
    [
      'a language the prompt lacks',
      () => body({ prompt_id: ptOnlyPrompt, language: 'en' }),
      422,
      'The prompt has no texts in English; choose another language or prompt',
    ],
    [
      'a language whose texts are all blank',
      () => body({ prompt_id: blankEnPrompt, language: 'en' }),
      422,
      'The prompt has no texts in English; choose another language or prompt',
    ],
    ['an unknown voice', () => body({ voice_id: MISSING_ID }), 422, 'Voice not found; choose another'],
    ['an inactive voice', () => body({ voice_id: inactiveVoice }), 422, 'This voice is inactive; choose another'],
    ['hour 24', () => body({ publication_time: '24:00' }), 422, 'Publication time must be HH:MM (00:00 to 23:59)'],
    ['minute 60', () => body({ publication_time: '12:60' }), 422, 'Publication time must be HH:MM (00:00 to 23:59)'],
    [
      'a time that is not HH:MM',
      () => body({ publication_time: 'noon' }),
      422,
      'Publication time must be HH:MM (00:00 to 23:59)',
    ],
    ['a time far too long', () => body({ publication_time: '0'.repeat(17) }), 400, /publication_time/],
  ];

  test.each(refusals)('refuses %s and creates nothing', async (_label, makeBody, status, detail) => {
    const before = await processCount();
    const response = await api('POST', '/', { body: makeBody() });
    expect(response.statusCode).toBe(status);
    expect(response.json().detail).toEqual(typeof detail === 'string' ? detail : expect.stringMatching(detail));
    expect(await processCount()).toBe(before);
  });

  test('refusals are answered in Portuguese too', async () => {
    const pt = { 'accept-language': 'pt-BR' };
    const language = await api('POST', '/', { body: body({ prompt_id: ptOnlyPrompt, language: 'en' }), headers: pt });
    expect(language.json()).toEqual({ detail: 'O prompt não tem textos em inglês; escolha outro idioma ou prompt' });
    const disabled = await api('POST', '/', { body: body({ youtube_api_id: mine.disabledConfig }), headers: pt });
    expect(disabled.json()).toEqual({
      detail: 'Esta configuração da API do YouTube está desativada; ative-a em Configurações ou escolha outra',
    });
    const time = await api('POST', '/', { body: body({ publication_time: '25:00' }), headers: pt });
    expect(time.json()).toEqual({ detail: 'O horário de publicação deve estar no formato HH:MM (00:00 a 23:59)' });
  });

  // One pattern (contracts/processes.ts, PUBLICATION_TIME), checked once: by the service.
  test('a publication time out of HH:MM (00:00 to 23:59) is one translated 422, on create and update', async () => {
    const process = await create();
    for (const time of ['24:00', '7:5', '07:60', '7', '-1:00', '', '23:5', '１２:００', '07:00:00', '7h30']) {
      for (const [language, detail] of [
        ['en', 'Publication time must be HH:MM (00:00 to 23:59)'],
        ['pt-BR', 'O horário de publicação deve estar no formato HH:MM (00:00 a 23:59)'],
      ] as const) {
        const headers = { 'accept-language': language };
        for (const response of [
          await api('POST', '/', { body: body({ publication_time: time }), headers }),
          await api('PUT', `/${process.id}`, { body: { publication_time: time }, headers }),
        ]) {
          expect({ time, status: response.statusCode, body: response.json() }).toEqual({ time, status: 422, body: { detail } });
        }
      }
    }
    // The edges that pass: a one-digit hour is padded, spaces around are dropped, 00:00 and 23:59 are kept.
    for (const [time, kept] of [
      ['7:05', '07:05'],
      [' 07:00', '07:00'],
      ['07:10 ', '07:10'],
      ['00:00', '00:00'],
      ['23:59', '23:59'],
    ]) {
      const response = await api('PUT', `/${process.id}`, { body: { publication_time: time } });
      expect({ time, status: response.statusCode, kept: response.json().publication_time }).toEqual({ time, status: 200, kept });
    }
  });
});

describe('update', () => {
  test('changes only the fields sent', async () => {
    const process = await create({ name: 'Before', publication_time: '10:15' });
    ctx.clock.advance(5_000);
    const renamed = await api('PUT', `/${process.id}`, { body: { name: 'After' } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({ ...process, name: 'After', updated_at: ctx.clock.now.toISOString() });

    const moved = await api('PUT', `/${process.id}`, {
      body: {
        language: 'en',
        voice_id: EMMA,
        prompt_id: BUILTIN_SUSPENSE,
        channel_id: mine.unnamedChannel,
        youtube_api_id: mine.unnamedConfig,
        publication_time: '18:45',
      },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({
      name: 'After',
      language: 'en',
      voice_id: EMMA,
      voice_name: 'Emma',
      prompt_id: BUILTIN_SUSPENSE,
      prompt_name: 'Mistérios da Cidade Pequena',
      channel_id: mine.unnamedChannel,
      youtube_api_id: mine.unnamedConfig,
      publication_time: '18:45',
      is_active: false,
      status: 'idle',
      next_execution: process.next_execution,
      created_at: process.created_at,
      needs: [],
    });
    const empty = await api('PUT', `/${process.id}`, { body: {} });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toMatchObject({ name: 'After', language: 'en', publication_time: '18:45' });
  });

  test('an update and a toggle read the joined process once each: for its needs and for their answer', async () => {
    const process = await create();
    // Every statement drizzle sends goes through its logger, a NoopLogger here.
    const logged = jest.spyOn(NoopLogger.prototype as { logQuery(query: string, params: unknown[]): void }, 'logQuery');
    /** The six-table selects (they join youtube_apis to processes) a request made; the checks read one table each. */
    async function joinedReads(request: () => Promise<{ statusCode: number }>): Promise<number> {
      logged.mockClear();
      expect((await request()).statusCode).toBe(200);
      expect(logged.mock.calls.length).toBeGreaterThan(1);
      return logged.mock.calls.filter(([query]) => /left join "youtube_apis"/.test(query)).length;
    }
    try {
      const everything = { channel_id: mine.channel, youtube_api_id: mine.config, is_active: true, publication_time: '7:30' };
      expect(await joinedReads(() => api('PUT', `/${process.id}`, { body: everything }))).toBe(1);
      expect(await joinedReads(() => api('PUT', `/${process.id}`, { body: { channel_id: mine.channel } }))).toBe(1);
      expect(await joinedReads(() => api('PUT', `/${process.id}/toggle`))).toBe(1);
      expect(await joinedReads(() => api('PUT', `/${process.id}/toggle`))).toBe(1);
      expect((await api('GET', `/${process.id}`)).json()).toMatchObject({
        is_active: true,
        publication_time: '07:30',
        needs: [],
      });
    } finally {
      logged.mockRestore();
    }
  });

  test('checks the fields sent like on create, and changes nothing on a refusal', async () => {
    const process = await create({ prompt_id: ptOnlyPrompt });
    const before = await stored(process.id);
    for (const [changes, detail] of [
      [{ name: '' }, 'Enter a name for the process'],
      [{ language: 'en' }, 'The prompt has no texts in English; choose another language or prompt'],
      [
        { prompt_id: blankEnPrompt, language: 'en', name: 'Renamed' },
        'The prompt has no texts in English; choose another language or prompt',
      ],
      [{ prompt_id: inactivePrompt }, 'This prompt is inactive; choose another'],
      [{ prompt_id: null }, 'Choose a prompt'],
      [{ channel_id: theirs.channel }, 'Channel not found; choose one of your channels'],
      [{ channel_id: '' }, 'Choose a channel'],
      [
        { youtube_api_id: mine.disabledConfig },
        'This YouTube API configuration is disabled; enable it in Settings or choose another',
      ],
      [{ youtube_api_id: theirs.config }, 'YouTube API configuration not found; choose one of yours'],
      [{ voice_id: inactiveVoice, name: 'Renamed' }, 'This voice is inactive; choose another'],
      [{ voice_id: MISSING_ID }, 'Voice not found; choose another'],
      [{ publication_time: '99:99' }, 'Publication time must be HH:MM (00:00 to 23:59)'],
    ] as const) {
      const response = await api('PUT', `/${process.id}`, { body: changes });
      expect({ changes, status: response.statusCode, body: response.json() }).toEqual({ changes, status: 422, body: { detail } });
    }
    for (const changes of [{ language: 'fr' }, { nickname: 'x' }, { voice_id: 'nope' }]) {
      expect((await api('PUT', `/${process.id}`, { body: changes })).statusCode).toBe(400);
    }
    expect(await stored(process.id)).toEqual(before);
    // A prompt and a language that match are accepted together.
    const switched = await api('PUT', `/${process.id}`, { body: { prompt_id: BUILTIN_DRAMA, language: 'en' } });
    expect(switched.statusCode).toBe(200);
    expect(switched.json()).toMatchObject({ prompt_id: BUILTIN_DRAMA, language: 'en', needs: [] });
  });
});

describe('toggle and turning on', () => {
  test('toggle flips is_active both ways', async () => {
    const process = await create();
    const on = await api('PUT', `/${process.id}/toggle`);
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ id: process.id, is_active: true, needs: [] });
    const off = await api('PUT', `/${process.id}/toggle`);
    expect(off.json()).toMatchObject({ is_active: false });
    const byUpdate = await api('PUT', `/${process.id}`, { body: { is_active: true } });
    expect(byUpdate.json()).toMatchObject({ is_active: true });
    expect((await api('PUT', `/${process.id}`, { body: { is_active: false } })).json()).toMatchObject({ is_active: false });
  });

  test('a process whose prompt was deleted needs a prompt, and cannot be turned on until it has one', async () => {
    const doomed = await makePrompt('Doomed', { pt: texts('PT'), en: texts('EN') });
    const process = await create({ prompt_id: doomed, is_active: true });
    const deleted = await call(ctx.app, 'DELETE', `/api/v1/prompts/${doomed}`, { token: admin });
    expect(deleted.json().affected_processes).toBe(1);

    const got = (await api('GET', `/${process.id}`)).json();
    expect(got).toMatchObject({ prompt_id: null, prompt_name: null, is_active: false, needs: ['prompt'] });

    const before = await stored(process.id);
    const toggled = await api('PUT', `/${process.id}/toggle`);
    expect(toggled.statusCode).toBe(422);
    expect(toggled.json()).toEqual({ detail: 'Fill in what this process needs before turning it on: choose a prompt' });
    const updated = await api('PUT', `/${process.id}`, { body: { is_active: true, name: 'Still off' } });
    expect(updated.statusCode).toBe(422);
    expect(await stored(process.id)).toEqual(before);

    // Turning off and other edits stay possible; choosing a prompt fixes it.
    expect((await api('PUT', `/${process.id}`, { body: { name: 'Renamed' } })).json()).toMatchObject({
      name: 'Renamed',
      needs: ['prompt'],
    });
    const fixed = await api('PUT', `/${process.id}`, { body: { prompt_id: BUILTIN_DRAMA, is_active: true } });
    expect(fixed.statusCode).toBe(200);
    expect(fixed.json()).toMatchObject({ prompt_id: BUILTIN_DRAMA, is_active: true, needs: [] });
  });

  test('needs follow the channel, the configuration, the prompt and the voice', async () => {
    const channel = await makeChannel(token, 'Short-lived');
    const config = await makeConfig(token, true, channel);
    const prompt = await makePrompt('Changing', { pt: texts('PT'), en: texts('EN') });
    const voice = await makeVoice('Changing voice');
    const process = await create({
      channel_id: channel,
      youtube_api_id: config,
      prompt_id: prompt,
      voice_id: voice,
      language: 'en',
    });
    // The answer's needs, and the same from the steps' narrow read (services.processes.needs).
    const needs = async () => {
      const answer = (await api('GET', `/${process.id}`)).json();
      expect(await ctx.app.services.processes.needs(userId, process.id)).toEqual({ needs: answer.needs, language: 'en' });
      return answer;
    };

    expect((await needs()).needs).toEqual([]);
    await call(ctx.app, 'PUT', `/api/v1/youtube-apis/${config}/toggle`, { token });
    expect((await needs()).needs).toEqual(['youtube_api_disabled']);
    await call(ctx.app, 'PUT', `/api/v1/prompts/${prompt}/toggle`, { token: admin });
    await call(ctx.app, 'PUT', `/api/v1/voices/${voice}/toggle`, { token: admin });
    expect((await needs()).needs).toEqual(['youtube_api_disabled', 'prompt_inactive', 'voice_inactive']);

    const onlyPt = await call(ctx.app, 'PUT', `/api/v1/prompts/${prompt}/full`, {
      token: admin,
      body: { name: 'Changing', description: 'd', content: 'c', languages: { pt: texts('PT') } },
    });
    expect(onlyPt.statusCode).toBe(200);
    expect((await needs()).needs).toEqual(['youtube_api_disabled', 'prompt_inactive', 'language', 'voice_inactive']);

    const refused = await api('PUT', `/${process.id}/toggle`, { headers: { 'accept-language': 'pt' } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      detail:
        'Complete o que este processo precisa antes de ativá-lo: ative a configuração da API do YouTube em Configurações ou escolha outra; ' +
        'escolha um prompt ativo (o atual está inativo); escolha um idioma em que o prompt tenha textos (ele não tem textos em inglês); ' +
        'escolha uma voz ativa (a atual está inativa)',
    });

    expect((await call(ctx.app, 'DELETE', `/api/v1/channels/${channel}`, { token })).statusCode).toBe(204);
    expect((await call(ctx.app, 'DELETE', `/api/v1/youtube-apis/${config}`, { token })).statusCode).toBe(204);
    expect((await call(ctx.app, 'DELETE', `/api/v1/voices/${voice}`, { token: admin })).statusCode).toBe(200);
    expect((await call(ctx.app, 'DELETE', `/api/v1/prompts/${prompt}`, { token: admin })).statusCode).toBe(200);
    expect(await needs()).toMatchObject({
      channel_id: null,
      channel_name: null,
      youtube_api_id: null,
      youtube_api_name: null,
      prompt_id: null,
      prompt_name: null,
      voice_id: null,
      voice_name: null,
      needs: ['channel', 'youtube_api', 'prompt', 'voice'],
    });
    const english = await api('PUT', `/${process.id}/toggle`);
    expect(english.json()).toEqual({
      detail:
        'Fill in what this process needs before turning it on: choose a channel; choose a YouTube API configuration; choose a prompt; choose a voice',
    });
    expect((await stored(process.id))!.isActive).toBe(false);
  });
});

describe('format and background music', () => {
  /** Uploads a 6-second tone as the admin; answers the track's id. */
  async function track(name: string): Promise<string> {
    const pcm = Buffer.alloc(6 * 22_050 * 2);
    for (let i = 0; i < pcm.length / 2; i += 1) pcm.writeInt16LE(Math.round(Math.sin(i / 9) * 6000), i * 2);
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/music/?name=${encodeURIComponent(name)}&mood=calm`,
      payload: pcmToWav(pcm, { sampleRate: 22_050 }),
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'audio/wav' },
    });
    expect(response.statusCode).toBe(201);
    return response.json().id;
  }

  test('a Short with music on create; an unknown format, an unknown or switched-off track are 422 and create nothing', async () => {
    const piano = await track('Piano');
    const created = await create({ format: 'short', music_id: piano });
    expect(created).toMatchObject({ format: 'short', music_id: piano, music_name: 'Piano', music_active: true });
    // Blank means none.
    expect(await create({ music_id: '' })).toMatchObject({ format: 'video', music_id: null, music_name: null });

    const off = await track('Off');
    expect((await call(ctx.app, 'PUT', `/api/v1/music/${off}/toggle`, { token: admin })).json().is_active).toBe(false);
    const before = (await api('GET', '/')).json().total;
    for (const [overrides, detail] of [
      [{ format: 'square' }, /must be equal to one of the allowed values|format/i],
      [{ music_id: '00000000-0000-4000-8000-000000000000' }, /does not exist/],
      [{ music_id: off }, /switched off/],
    ] as const) {
      const response = await api('POST', '/', { body: body(overrides) });
      expect({ status: response.statusCode, detail: response.json().detail }).toEqual({
        status: expect.any(Number),
        detail: expect.stringMatching(detail),
      });
      expect([400, 422]).toContain(response.statusCode);
    }
    expect((await api('GET', '/')).json().total).toBe(before);
  });

  test('a track switched off after it was chosen stays (the runs go without it); choosing it anew is refused', async () => {
    const waltz = await track('Waltz');
    const process = await create({ music_id: waltz });
    expect((await call(ctx.app, 'PUT', `/api/v1/music/${waltz}/toggle`, { token: admin })).json().is_active).toBe(false);
    const listed = (await api('GET', `/${process.id}`)).json();
    expect(listed).toMatchObject({ music_id: waltz, music_active: false, needs: [] });

    // The form sends the unchanged choice again with another field: accepted.
    const renamed = await api('PUT', `/${process.id}`, { body: { name: 'Waltz nights', music_id: waltz } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Waltz nights', music_id: waltz });

    const other = await create();
    const refused = await api('PUT', `/${other.id}`, { body: { music_id: waltz }, headers: { 'accept-language': 'pt' } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail).toBe('A música escolhida está desativada; escolha outra ou nenhuma');

    // None, and a Short, as an update.
    const changed = await api('PUT', `/${process.id}`, { body: { music_id: null, format: 'short' } });
    expect(changed.json()).toMatchObject({ music_id: null, music_name: null, format: 'short' });
  });

  test('a deleted track leaves its processes without music, and their cached list shows it at once', async () => {
    const drums = await track('Drums');
    const process = await create({ music_id: drums });
    const listBefore = (await api('GET', '/')).json();
    expect(listBefore.processes.find((p: { id: string }) => p.id === process.id).music_name).toBe('Drums');
    expect((await call(ctx.app, 'PUT', `/api/v1/music/${drums}`, { token: admin, body: { name: 'Big drums' } })).statusCode).toBe(
      200,
    );
    const renamed = (await api('GET', '/')).json();
    expect(renamed.processes.find((p: { id: string }) => p.id === process.id).music_name).toBe('Big drums');

    const removed = await call(ctx.app, 'DELETE', `/api/v1/music/${drums}`, { token: admin });
    expect(removed.json().affected_processes).toBe(1);
    const after = (await api('GET', '/')).json();
    expect(after.processes.find((p: { id: string }) => p.id === process.id)).toMatchObject({ music_id: null, music_name: null });
  });
});

describe('the channel and its YouTube API configuration', () => {
  test('a configuration of another YouTube channel is refused on create, in both languages, and nothing is made', async () => {
    const before = (await api('GET', '/')).json().total;
    const mismatched = await api('POST', '/', { body: body({ channel_id: mine.unnamedChannel, youtube_api_id: mine.config }) });
    expect(mismatched.statusCode).toBe(422);
    expect(mismatched.json().detail).toBe(
      `This YouTube API configuration uploads to the YouTube channel ${youtubeIdOf.get(mine.channel)}, not to the process’s channel ${youtubeIdOf.get(mine.unnamedChannel)}; choose a configuration of that channel`,
    );
    const pt = await api('POST', '/', {
      body: body({ channel_id: mine.unnamedChannel, youtube_api_id: mine.config }),
      headers: { 'accept-language': 'pt-BR' },
    });
    expect(pt.json().detail).toMatch(/^Esta configuração da API do YouTube envia para o canal do YouTube UC_/);
    expect((await api('GET', '/')).json().total).toBe(before);
  });

  test('an update that would split the pair is refused and changes nothing; moving both together is fine', async () => {
    const process = await create();
    const channelOnly = await api('PUT', `/${process.id}`, { body: { channel_id: mine.unnamedChannel, name: 'Moved?' } });
    expect(channelOnly.statusCode).toBe(422);
    expect(channelOnly.json().detail).toMatch(/^This YouTube API configuration uploads to the YouTube channel/);
    const configOnly = await api('PUT', `/${process.id}`, { body: { youtube_api_id: mine.unnamedConfig } });
    expect(configOnly.statusCode).toBe(422);
    expect(await api('GET', `/${process.id}`).then((r) => r.json())).toEqual(process);
    const both = await api('PUT', `/${process.id}`, {
      body: { channel_id: mine.unnamedChannel, youtube_api_id: mine.unnamedConfig },
    });
    expect(both.statusCode).toBe(200);
    expect(both.json()).toMatchObject({ channel_id: mine.unnamedChannel, youtube_api_id: mine.unnamedConfig, needs: [] });
  });

  test('a disabled channel is refused for a new process and makes the ones using it need it; so does a split pair', async () => {
    const channel = await makeChannel(token, 'Switched off');
    const config = await makeConfig(token, true, channel);
    const process = await create({ channel_id: channel, youtube_api_id: config, is_active: true });
    expect(process.needs).toEqual([]);
    // What switching either off would stop, for the console's confirmation.
    expect((await call(ctx.app, 'GET', `/api/v1/channels/${channel}`, { token })).json()).toMatchObject({
      process_count: 1,
      active_process_count: 1,
    });
    expect((await call(ctx.app, 'GET', `/api/v1/youtube-apis/${config}`, { token })).json().active_process_count).toBe(1);
    const listedConfig = (await call(ctx.app, 'GET', '/api/v1/youtube-apis/', { token })).json().youtube_apis;
    expect(listedConfig.find((row: { id: string }) => row.id === config).active_process_count).toBe(1);
    expect((await call(ctx.app, 'PUT', `/api/v1/channels/${channel}/toggle`, { token })).json().is_active).toBe(false);
    const needing = (await api('GET', `/${process.id}`)).json();
    expect(needing.needs).toEqual(['channel_disabled']);
    const listed = (await api('GET', '/')).json().processes.find((p: { id: string }) => p.id === process.id);
    expect(listed.needs).toEqual(['channel_disabled']);

    const refused = await api('POST', '/', { body: body({ channel_id: channel, youtube_api_id: config }) });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail).toBe('This channel is disabled; enable it in Channels or choose another');
    await api('PUT', `/${process.id}/toggle`);
    const on = await api('PUT', `/${process.id}/toggle`, { headers: { 'accept-language': 'pt' } });
    expect(on.statusCode).toBe(422);
    expect(on.json().detail).toBe('Complete o que este processo precisa antes de ativá-lo: ative o canal ou escolha outro');

    // A pair split behind the rules' back (stored before this rule, or changed in the database).
    await call(ctx.app, 'PUT', `/api/v1/channels/${channel}/toggle`, { token });
    await ctx.database.db.execute(sql`update youtube_apis set channel_id = 'UC_somewhere_else' where id = ${config}`);
    expect((await api('GET', `/${process.id}`)).json().needs).toEqual(['channel_mismatch']);
    expect(await ctx.app.services.processes.needs(userId, process.id)).toEqual({ needs: ['channel_mismatch'], language: 'pt' });
    // Another user's process is not found, as through the API.
    await expect(ctx.app.services.processes.needs('00000000-0000-4000-8000-000000000000', process.id)).rejects.toMatchObject({
      statusCode: 404,
      key: 'processes.notFound',
    });
    const english = await api('PUT', `/${process.id}/toggle`);
    expect(english.json().detail).toBe(
      'Fill in what this process needs before turning it on: choose a YouTube API configuration of its channel (the one chosen uploads to another YouTube channel)',
    );
  });
});

describe('the list’s cache', () => {
  /** The process as the list shows it (the list is served from a cache keyed by users.data_version). */
  async function listed(id: string, as = token, language = 'en') {
    const response = await api('GET', '/', { token: as, headers: { 'accept-language': language } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    return (response.json().processes as { id: string }[]).find((p) => p.id === id) as Record<string, unknown> | undefined;
  }
  const dataVersion = async (id: string) =>
    (await ctx.database.db.select({ v: users.dataVersion }).from(users).where(eq(users.id, id)))[0]!.v;

  test('every change the list shows is seen at once, made through the API or by another process', async () => {
    const channel = await makeChannel(token, 'Cached channel');
    const config = await makeConfig(token, true, channel);
    const prompt = await makePrompt('Cached prompt', { pt: texts('PT'), en: texts('EN') });
    const voice = await makeVoice('Cached voice');
    const process = await create({
      name: 'Cached',
      channel_id: channel,
      youtube_api_id: config,
      prompt_id: prompt,
      voice_id: voice,
      language: 'en',
    });
    expect(await listed(process.id)).toMatchObject({ name: 'Cached', channel_name: 'Cached channel', needs: [] });

    await api('PUT', `/${process.id}`, { body: { name: 'Cached, renamed' } });
    expect(await listed(process.id)).toMatchObject({ name: 'Cached, renamed' });
    await call(ctx.app, 'PUT', `/api/v1/channels/${channel}`, { token, body: { name: 'Channel, renamed' } });
    expect(await listed(process.id)).toMatchObject({ channel_name: 'Channel, renamed' });
    await call(ctx.app, 'PUT', `/api/v1/youtube-apis/${config}/toggle`, { token });
    expect((await listed(process.id))!.needs).toEqual(['youtube_api_disabled']);
    // Catalogue rows are shared: an admin's change moves the users whose processes use them.
    await call(ctx.app, 'PUT', `/api/v1/prompts/${prompt}/toggle`, { token: admin });
    expect((await listed(process.id))!.needs).toEqual(['youtube_api_disabled', 'prompt_inactive']);
    await call(ctx.app, 'PUT', `/api/v1/prompts/${prompt}/full`, {
      token: admin,
      body: { name: 'Cached prompt', description: 'd', content: 'c', languages: { pt: texts('PT') } },
    });
    expect((await listed(process.id))!.needs).toEqual(['youtube_api_disabled', 'prompt_inactive', 'language']);
    await call(ctx.app, 'PUT', `/api/v1/voices/${voice}`, { token: admin, body: { name: 'Voice, renamed' } });
    expect(await listed(process.id)).toMatchObject({ voice_name: 'Voice, renamed' });

    // A worker process writes straight to the database: the next list shows it.
    await ctx.database.db.update(processes).set({ status: 'error', lastError: 'boom' }).where(eq(processes.id, process.id));
    expect(await listed(process.id)).toMatchObject({ status: 'error', last_error: 'boom' });
    // So does a new execution (the list links the latest one).
    const [run] = await ctx.database.db
      .insert(executions)
      .values({ processId: process.id, userId, status: 'error', currentStep: 1, language: 'en' })
      .returning({ id: executions.id });
    expect(await listed(process.id)).toMatchObject({ latest_execution_id: run!.id });

    // Each language has its own entry; another user's list is theirs alone.
    expect(await listed(process.id, token, 'pt')).toMatchObject({ name: 'Cached, renamed' });
    expect(await listed(process.id, stranger)).toBeUndefined();
    await api('DELETE', `/${process.id}`);
    expect(await listed(process.id)).toBeUndefined();
  });

  test('only the owner’s version moves; reading changes nothing', async () => {
    const before = await dataVersion(userId);
    await api('GET', '/');
    expect(await dataVersion(userId)).toBe(before);
    await makeChannel(stranger, 'Not yours');
    expect(await dataVersion(userId)).toBe(before);
    await makeChannel(token, 'Yours');
    expect(await dataVersion(userId)).toBeGreaterThan(before);
  });
});

describe('list and stats', () => {
  let owner: string;
  let f: Fixtures;
  const made: ProcessJson[] = [];

  beforeAll(async () => {
    owner = (await signUp(ctx.app)).token;
    f = await fixtures(owner);
    for (const overrides of [
      { name: 'First', is_active: true },
      {
        name: 'Second',
        channel_id: f.unnamedChannel,
        youtube_api_id: f.unnamedConfig,
        voice_id: EMMA,
        language: 'en',
        prompt_id: BUILTIN_SUSPENSE,
      },
      { name: 'Third', is_active: true },
    ]) {
      ctx.clock.advance(1_000);
      made.push(await create(overrides, owner, f));
    }
  });

  test('lists the caller’s processes newest first, with the names of what they use', async () => {
    const response = await api('GET', '/', { token: owner });
    expect(response.statusCode).toBe(200);
    const { processes: listed, total } = response.json();
    expect(total).toBe(3);
    expect(listed.map((p: ProcessJson) => p.name)).toEqual(['Third', 'Second', 'First']);
    expect(listed[0]).toEqual(made[2]);
    expect(listed[1]).toMatchObject({
      channel_name: expect.stringMatching(/^UC_process_channel_\d+$/),
      youtube_api_name: expect.stringMatching(/^Config \d+$/),
      prompt_name: 'Mistérios da Cidade Pequena',
      voice_name: 'Emma',
    });
    expect(listed[2]).toMatchObject({ channel_name: 'My Stories', prompt_name: 'Segredos de Família', voice_name: 'Helena' });
  });

  test('pages and filters active processes', async () => {
    const page = (await api('GET', '/?skip=1&limit=1', { token: owner })).json();
    expect(page).toMatchObject({ total: 3 });
    expect(page.processes.map((p: ProcessJson) => p.name)).toEqual(['Second']);
    const active = (await api('GET', '/?active_only=true', { token: owner })).json();
    expect(active.total).toBe(2);
    expect(active.processes.map((p: ProcessJson) => p.name)).toEqual(['Third', 'First']);
    const activePage = (await api('GET', '/?active_only=true&skip=1&limit=5', { token: owner })).json();
    expect(activePage).toMatchObject({ total: 2 });
    expect(activePage.processes.map((p: ProcessJson) => p.name)).toEqual(['First']);
    expect((await api('GET', '/?limit=0', { token: owner })).statusCode).toBe(400);
    expect((await api('GET', '/?sort=name', { token: owner })).statusCode).toBe(400);
  });

  test('stats count the caller’s processes and enabled channels', async () => {
    const response = await api('GET', '/stats', { token: owner });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ total: 3, active: 2, inactive: 1, queued: 0, running: 0, connected_channels: 2 });

    const channel = await makeChannel(owner, 'Extra');
    expect((await call(ctx.app, 'PUT', `/api/v1/channels/${channel}/toggle`, { token: owner })).json().is_active).toBe(false);
    expect((await api('GET', '/stats', { token: owner })).json()).toMatchObject({ connected_channels: 2 });
    await call(ctx.app, 'PUT', `/api/v1/channels/${channel}/toggle`, { token: owner });
    expect((await api('GET', '/stats', { token: owner })).json()).toMatchObject({ connected_channels: 3 });

    const newcomer = (await signUp(ctx.app)).token;
    expect((await api('GET', '/stats', { token: newcomer })).json()).toEqual({
      total: 0,
      active: 0,
      inactive: 0,
      queued: 0,
      running: 0,
      connected_channels: 0,
    });
    expect((await api('GET', '/', { token: newcomer })).json()).toEqual({ processes: [], total: 0 });
  });
});

describe('delete', () => {
  test('removes the process and its executions', async () => {
    const process = await create();
    const other = await create({ name: 'Bystander' });
    await ctx.database.db.insert(executions).values([
      { processId: process.id, userId, language: 'pt' },
      { processId: process.id, userId, language: 'pt', status: 'completed' },
      { processId: other.id, userId, language: 'pt' },
    ]);
    const deleted = await api('DELETE', `/${process.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await api('GET', `/${process.id}`)).statusCode).toBe(404);
    expect(await scalar(sql`select count(*)::int as n from executions where process_id = ${process.id}`)).toBe(0);
    expect(await scalar(sql`select count(*)::int as n from executions where process_id = ${other.id}`)).toBe(1);
    expect((await api('DELETE', `/${process.id}`)).statusCode).toBe(404);
  });
});

describe('access', () => {
  test('another user’s process answers 404 to every call and is left alone', async () => {
    const process = await create({ name: 'Private' });
    const before = await stored(process.id);
    for (const [method, url, changes] of [
      ['GET', `/${process.id}`, undefined],
      ['PUT', `/${process.id}`, { name: 'Theirs now' }],
      ['PUT', `/${process.id}`, body({}, theirs)],
      ['PUT', `/${process.id}/toggle`, undefined],
      ['DELETE', `/${process.id}`, undefined],
    ] as const) {
      const response = await api(method, url, { token: stranger, body: changes });
      expect({ method, url, status: response.statusCode, body: response.json() }).toEqual({
        method,
        url,
        status: 404,
        body: { detail: 'Process not found' },
      });
    }
    const listed = (await api('GET', '/', { token: stranger })).json();
    expect(listed.processes.map((p: ProcessJson) => p.id)).not.toContain(process.id);
    expect(await stored(process.id)).toEqual(before);
    expect((await api('GET', `/${process.id}`, { headers: { 'accept-language': 'pt' }, token: stranger })).json()).toEqual({
      detail: 'Processo não encontrado',
    });
  });

  test('every call needs a session; malformed ids are 400', async () => {
    const process = await create();
    for (const [method, url, changes] of [
      ['GET', '/', undefined],
      ['GET', '/stats', undefined],
      ['GET', `/${process.id}`, undefined],
      ['POST', '/', body()],
      ['PUT', `/${process.id}`, { name: 'x' }],
      ['PUT', `/${process.id}/toggle`, undefined],
      ['DELETE', `/${process.id}`, undefined],
    ] as const) {
      const response = await api(method, url, { token: null, body: changes });
      expect({ method, url, status: response.statusCode }).toEqual({ method, url, status: 401 });
    }
    expect(await stored(process.id)).toBeDefined();
    expect((await api('GET', '/not-a-uuid')).statusCode).toBe(400);
    expect((await api('PUT', '/not-a-uuid/toggle')).statusCode).toBe(400);
  });
});

test('the engine’s constants: seven steps, every three days', () => {
  expect(PROCESS_STEPS).toEqual([
    'starting',
    'generating_texts',
    'creating_story',
    'generating_audios',
    'generating_images',
    'generating_video',
    'publishing_video',
  ]);
  expect(EXECUTION_INTERVAL_DAYS).toBe(3);
});
