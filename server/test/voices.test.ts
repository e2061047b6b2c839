import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { processes } from '../src/db/schema';
import type { AppError } from '../src/errors';
import { translate } from '../src/messages';
import { SpeechError, espeakSpeak, espeakVoiceFor, type EspeakOptions } from '../src/providers/speech';
import { createVoiceService } from '../src/services/voices';
import { TEST_ADMIN_EMAIL, buildTestApp, call, signUp, type TestContext } from './helper';

let ctx: TestContext;
let admin: string;
let user: string;
let userId: string;

beforeAll(async () => {
  ctx = await buildTestApp();
  admin = (await signUp(ctx.app, { email: TEST_ADMIN_EMAIL })).token;
  const signedUser = await signUp(ctx.app);
  user = signedUser.token;
  userId = signedUser.user.id;
});

afterAll(async () => {
  await ctx.close();
});

const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const HELENA = '387bfe25-192a-4eb3-aa8b-be1f9e202b9a';
const RAFAEL = '0954c0b6-19e2-4eec-90dd-977441a80dfb';
const EMMA = '170b0db9-cade-4eac-98a5-68d05603e946';
const JAMES = '38d13074-efa0-4ae9-b005-11cbc42338c4';

interface Voice {
  id: string;
  name: string;
  type: string;
  sample_url: string;
  description: string;
  language: string | null;
  gender: string | null;
  provider: string;
  provider_voice_id: string;
  is_active: boolean;
  process_count: number;
  created_at: string;
  updated_at: string;
}

/** Calls /api/v1/voices (as the admin unless told otherwise; token null sends none). */
function api(
  method: InjectOptions['method'],
  url: string,
  options: { body?: unknown; token?: string | null; headers?: Record<string, string> } = {},
) {
  const token = options.token === null ? undefined : (options.token ?? admin);
  return call(ctx.app, method, `/api/v1/voices${url}`, { body: options.body, token, headers: options.headers });
}

const sampleOf = (file: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url: `/api/v1/voice-samples/${file}`, headers });

const cacheFile = (id: string) => path.join(ctx.config.dataDir, 'voice-samples', `${id}.wav`);

async function snapshot(): Promise<string> {
  const result = await ctx.database.db.execute(sql`select * from voices order by id`);
  return JSON.stringify((result as unknown as { rows: unknown[] }).rows);
}

async function voiceCount(): Promise<number> {
  const result = await ctx.database.db.execute(sql`select count(*)::int as n from voices`);
  return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

async function createVoice(body: Record<string, unknown>): Promise<Voice> {
  const response = await api('POST', '/', { body });
  expect(response.statusCode).toBe(201);
  return response.json();
}

describe('the built-in catalogue', () => {
  test('a fresh database has two active espeak-ng voices in pt and two in en', async () => {
    const response = await api('GET', '/?active_only=true', { token: user });
    expect(response.statusCode).toBe(200);
    const voices = response.json().voices as Voice[];
    for (const language of ['pt', 'en']) {
      const ofLanguage = voices.filter((v) => v.language === language && v.provider === 'espeak');
      expect(ofLanguage.length).toBeGreaterThanOrEqual(2);
      expect(new Set(ofLanguage.map((v) => v.gender))).toEqual(new Set(['female', 'male']));
    }
    const byId = new Map(voices.map((v) => [v.id, v]));
    expect(byId.get(HELENA)).toEqual({
      id: HELENA,
      name: 'Helena',
      type: 'Narradora',
      sample_url: `/api/v1/voice-samples/${HELENA}.wav`,
      description: expect.stringContaining('português'),
      language: 'pt',
      gender: 'female',
      provider: 'espeak',
      provider_voice_id: 'pt-br+f3',
      is_active: true,
      process_count: 0,
      active_process_count: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(byId.get(RAFAEL)).toMatchObject({ name: 'Rafael', language: 'pt', gender: 'male', provider_voice_id: 'pt-br+m3' });
    expect(byId.get(EMMA)).toMatchObject({ name: 'Emma', language: 'en', gender: 'female', provider_voice_id: 'en-us+f3' });
    expect(byId.get(JAMES)).toMatchObject({ name: 'James', language: 'en', gender: 'male', provider_voice_id: 'en-us+m3' });
    // The gallery order is stable: oldest first, the built-in ones in this order.
    const builtin = voices.map((v) => v.id).filter((id) => [HELENA, RAFAEL, EMMA, JAMES].includes(id));
    expect(builtin).toEqual([HELENA, RAFAEL, EMMA, JAMES]);
  });
});

describe('access', () => {
  let id: string;
  beforeAll(async () => {
    ({ id } = await createVoice({ name: 'Access check', type: 'Narrador', sample_url: 'https://cdn.example.com/a.mp3' }));
  });

  const writes: [InjectOptions['method'], string, unknown][] = [
    ['POST', '/', { name: 'x', type: 'y', sample_url: '/z.wav' }],
    ['PUT', '/:id', { name: 'renamed' }],
    ['PUT', '/:id/toggle', undefined],
    ['DELETE', '/:id', undefined],
  ];

  test.each(writes)('%s /voices%s: 403 for a normal user, 401 without a session, nothing changes', async (method, path, body) => {
    const before = await snapshot();
    const forbidden = await api(method, path.replace(':id', id), { body, token: user });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ detail: 'Only administrators can do this' });
    expect((await api(method, path.replace(':id', id), { body: { bogus: true }, token: user })).statusCode).toBe(403);
    expect((await api(method, path.replace(':id', id), { body, token: null })).statusCode).toBe(401);
    expect(await snapshot()).toBe(before);
  });

  test.each([['/'], ['/:id']])('GET /voices%s: every signed-in user reads, 401 without a session', async (path) => {
    const url = path.replace(':id', id);
    expect((await api('GET', url, { token: user })).statusCode).toBe(200);
    expect((await api('GET', url)).statusCode).toBe(200);
    const anonymous = await api('GET', url, { token: null });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ detail: 'Not authenticated' });
  });
});

describe('create, read, update', () => {
  test('creates with only name, type and sample URL: the rest defaults', async () => {
    const response = await api('POST', '/', {
      body: { name: '  Nova  ', type: ' Feminina ', sample_url: ' https://cdn.example.com/nova.mp3 ' },
    });
    expect(response.statusCode).toBe(201);
    const voice = response.json();
    expect(voice).toEqual({
      id: expect.any(String),
      name: 'Nova',
      type: 'Feminina',
      sample_url: 'https://cdn.example.com/nova.mp3',
      description: '',
      language: null,
      gender: null,
      provider: 'espeak',
      provider_voice_id: '',
      is_active: true,
      process_count: 0,
      active_process_count: 0,
      created_at: ctx.clock.now.toISOString(),
      updated_at: ctx.clock.now.toISOString(),
    });
    expect((await api('GET', `/${voice.id}`, { token: user })).json()).toEqual(voice);
  });

  test('creates with every field; {id} in the sample URL becomes the new id', async () => {
    const voice = await createVoice({
      name: 'Clara',
      type: 'Narradora',
      sample_url: '/api/v1/voice-samples/{id}.wav',
      description: ' Uma voz clara ',
      language: 'pt',
      gender: 'female',
      provider: 'espeak',
      provider_voice_id: 'pt-br+f4',
    });
    expect(voice).toMatchObject({
      sample_url: `/api/v1/voice-samples/${voice.id}.wav`,
      description: 'Uma voz clara',
      language: 'pt',
      gender: 'female',
      provider: 'espeak',
      provider_voice_id: 'pt-br+f4',
    });
    const openai = await createVoice({
      name: 'Alloy',
      type: 'Neutral',
      sample_url: 'http://samples.example.com:8080/alloy.mp3?v=1',
      language: 'en',
      gender: 'neutral',
      provider: 'openai',
      provider_voice_id: 'alloy',
    });
    expect(openai).toMatchObject({ provider: 'openai', provider_voice_id: 'alloy', gender: 'neutral' });
    const eleven = await createVoice({
      name: 'Rachel',
      type: 'Narrator',
      sample_url: '/media/rachel.mp3',
      provider: 'elevenlabs',
      provider_voice_id: '21m00Tcm4TlvDq8ikWAM',
      language: null,
      gender: null,
    });
    expect(eleven).toMatchObject({ provider: 'elevenlabs', language: null, gender: null });
  });

  test('unknown ids answer 404 "Voice not found" / "Voz não encontrada"', async () => {
    const missing = await api('GET', `/${MISSING_ID}`, { token: user });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Voice not found' });
    const missingPt = await api('GET', `/${MISSING_ID}`, { token: user, headers: { 'accept-language': 'pt-BR' } });
    expect(missingPt.json()).toEqual({ detail: 'Voz não encontrada' });
    for (const [method, path, body] of [
      ['PUT', `/${MISSING_ID}`, { name: 'x' }],
      ['PUT', `/${MISSING_ID}/toggle`, undefined],
      ['DELETE', `/${MISSING_ID}`, undefined],
    ] as const) {
      const response = await api(method, path, { body, headers: { 'accept-language': 'pt' } });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Voz não encontrada' });
    }
    expect((await api('GET', '/not-a-uuid', { token: user })).statusCode).toBe(400);
  });

  test('PUT changes only the given fields; null clears language and gender', async () => {
    const voice = await createVoice({
      name: 'Edit me',
      type: 'Narrador',
      sample_url: '/a.wav',
      language: 'en',
      gender: 'male',
      description: 'Before',
    });
    ctx.clock.advance(3000);
    const renamed = await api('PUT', `/${voice.id}`, { body: { name: 'Edited', sample_url: 'https://example.com/b.wav' } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({
      ...voice,
      name: 'Edited',
      sample_url: 'https://example.com/b.wav',
      updated_at: ctx.clock.now.toISOString(),
    });
    const cleared = await api('PUT', `/${voice.id}`, { body: { language: null, gender: '', description: null } });
    expect(cleared.json()).toMatchObject({ language: null, gender: null, description: '', name: 'Edited' });
    const empty = await api('PUT', `/${voice.id}`, { body: {} });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toMatchObject({ name: 'Edited', type: 'Narrador' });
    const provider = await api('PUT', `/${voice.id}`, { body: { provider: 'openai', provider_voice_id: 'nova' } });
    expect(provider.json()).toMatchObject({ provider: 'openai', provider_voice_id: 'nova' });
    // Switching back to espeak with an OpenAI voice name that is no espeak-ng voice is refused.
    const mismatch = await api('PUT', `/${voice.id}`, { body: { provider: 'espeak' } });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().detail).toBe('Invalid espeak-ng voice "nova". Use a voice such as pt-br+f3 or en-us+m3');
  });

  test('toggle flips is_active both ways', async () => {
    const voice = await createVoice({ name: 'Toggle', type: 'x', sample_url: '/t.wav' });
    const off = await api('PUT', `/${voice.id}/toggle`);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ id: voice.id, is_active: false });
    expect((await api('PUT', `/${voice.id}/toggle`)).json()).toMatchObject({ is_active: true });
  });

  test('lists oldest first, paged, with active_only and total', async () => {
    const all = await api('GET', '/', { token: user });
    expect(all.statusCode).toBe(200);
    const { voices, total } = all.json() as { voices: Voice[]; total: number };
    expect(total).toBe(await voiceCount());
    expect(voices).toHaveLength(total);
    const created = voices.map((v) => v.created_at);
    expect([...created].sort()).toEqual(created);

    const page = await api('GET', '/?skip=2&limit=3', { token: user });
    expect(page.json().voices.map((v: Voice) => v.id)).toEqual(voices.slice(2, 5).map((v) => v.id));
    expect(page.json().total).toBe(total);

    await api('PUT', `/${voices[1]!.id}/toggle`);
    const active = await api('GET', '/?active_only=true', { token: user });
    expect(active.json().total).toBe(voices.filter((v) => v.is_active).length - 1);
    expect(active.json().voices.every((v: Voice) => v.is_active)).toBe(true);
    await api('PUT', `/${voices[1]!.id}/toggle`);

    expect((await api('GET', '/?limit=0', { token: user })).statusCode).toBe(400);
    expect((await api('GET', '/?provider=espeak', { token: user })).statusCode).toBe(400);
  });
});

describe('validation: a refused call changes nothing', () => {
  let id: string;
  beforeAll(async () => {
    ({ id } = await createVoice({ name: 'Validation target', type: 'Narrador', sample_url: '/v.wav', language: 'pt' }));
  });

  const CODES = 'pt, en, es, fr, de, it, ja, ko, zh, ru, ar, hi, tr, nl, sv, no, da, fi, pl, cs';
  const base = { name: 'Valid', type: 'Narrador', sample_url: 'https://example.com/s.mp3' };
  const required = 'Name, type and sample URL are required';
  const urlInvalid = /^The sample URL must be an http:\/\/ or https:\/\/ address or a path on this server starting with \//;

  const invalid: [string, Record<string, unknown>, number, string | RegExp][] = [
    ['blank name', { ...base, name: '  ' }, 422, required],
    ['blank type', { ...base, type: '' }, 422, required],
    ['blank sample URL', { ...base, sample_url: ' ' }, 422, required],
    ['a relative sample URL', { ...base, sample_url: 'samples/a.wav' }, 422, urlInvalid],
    ['a protocol-relative sample URL', { ...base, sample_url: '//evil.example.com/a.wav' }, 422, urlInvalid],
    ['a javascript: sample URL', { ...base, sample_url: 'javascript:alert(1)' }, 422, urlInvalid],
    ['an ftp sample URL', { ...base, sample_url: 'ftp://example.com/a.wav' }, 422, urlInvalid],
    ['a data: sample URL', { ...base, sample_url: 'data:audio/wav;base64,UklGRg==' }, 422, urlInvalid],
    ['a sample URL with spaces', { ...base, sample_url: 'https://example.com/a b.wav' }, 422, urlInvalid],
    ['a sample URL with a backslash', { ...base, sample_url: '/\\evil.example.com/a.wav' }, 422, urlInvalid],
    [
      'an unknown provider',
      { ...base, provider: 'azure' },
      422,
      'Unknown provider "azure". Use one of: openai, elevenlabs, espeak',
    ],
    ['an unknown language', { ...base, language: 'pt-BR' }, 422, `Unknown language code "pt-BR". Use one of: ${CODES}`],
    ['an unknown gender', { ...base, gender: 'other' }, 422, 'The gender must be female, male, neutral or empty'],
    ['a bad espeak voice', { ...base, provider_voice_id: 'pt-br; rm -rf /' }, 422, /^Invalid espeak-ng voice "pt-br; rm -rf \/"/],
    [
      'a bad provider voice',
      { ...base, provider: 'openai', provider_voice_id: 'no spaces' },
      422,
      /^The provider voice may only contain/,
    ],
    ['an unknown field', { ...base, is_active: false }, 400, /additional/],
    ['a NUL character', { ...base, name: 'a\u0000b' }, 400, /name/],
  ];

  test.each([
    ...invalid,
    ['name missing', { type: 'x', sample_url: '/a.wav' }, 400, /name/],
    ['sample URL missing', { name: 'x', type: 'x' }, 400, /sample_url/],
  ] as typeof invalid)('POST with %s', async (_label, body, status, detail) => {
    const before = await snapshot();
    const response = await api('POST', '/', { body });
    expect(response.statusCode).toBe(status);
    expect(response.json().detail).toEqual(typeof detail === 'string' ? detail : expect.stringMatching(detail));
    expect(await snapshot()).toBe(before);
  });

  test.each(invalid)('PUT with %s', async (_label, body, status, detail) => {
    const before = await snapshot();
    const response = await api('PUT', `/${id}`, { body });
    expect(response.statusCode).toBe(status);
    expect(response.json().detail).toEqual(typeof detail === 'string' ? detail : expect.stringMatching(detail));
    expect(await snapshot()).toBe(before);
  });

  test('messages in Portuguese', async () => {
    const pt = { 'accept-language': 'pt-BR' };
    const cases: [Record<string, unknown>, string | RegExp][] = [
      [{ ...base, name: '' }, 'Nome, tipo e URL da amostra são obrigatórios'],
      [{ ...base, sample_url: 'x' }, /^A URL da amostra deve ser um endereço http:\/\/ ou https:\/\//],
      [{ ...base, gender: 'x' }, 'O gênero deve ser female, male, neutral ou vazio'],
      [{ ...base, language: 'xx' }, `Código de idioma desconhecido "xx". Use um destes: ${CODES}`],
    ];
    for (const [body, detail] of cases) {
      const response = await api('POST', '/', { body, headers: pt });
      expect(response.statusCode).toBe(422);
      expect(response.json().detail).toEqual(typeof detail === 'string' ? detail : expect.stringMatching(detail));
    }
  });
});

describe('delete', () => {
  test('switches off the processes that use the voice, clears their voice and answers how many', async () => {
    const doomed = await createVoice({ name: 'Doomed', type: 'x', sample_url: '/d.wav' });
    const insert = (voiceId: string, isActive: boolean) =>
      ctx.database.db
        .insert(processes)
        .values({ userId, name: `Uses ${voiceId}`, voiceId, isActive, nextExecution: new Date() })
        .returning()
        .then((rows) => rows[0]!);
    const first = await insert(doomed.id, true);
    const second = await insert(doomed.id, true);
    const third = await insert(doomed.id, false);
    const bystander = await insert(EMMA, true);

    expect((await api('GET', `/${doomed.id}`, { token: user })).json().process_count).toBe(3);
    expect((await api('GET', `/${EMMA}`, { token: user })).json().process_count).toBe(1);

    const response = await api('DELETE', `/${doomed.id}`, { headers: { 'accept-language': 'pt-BR' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      detail: 'Voz excluída com sucesso! 3 processos que a usavam foram desativados e precisam de uma nova voz.',
      affected_processes: 3,
    });
    const rows = new Map((await ctx.database.db.select().from(processes)).map((r) => [r.id, r]));
    for (const process of [first, second, third]) {
      expect(rows.get(process.id)).toMatchObject({ voiceId: null, isActive: false, name: process.name });
    }
    expect(rows.get(bystander.id)).toMatchObject({ voiceId: EMMA, isActive: true });
    expect((await api('GET', `/${doomed.id}`)).statusCode).toBe(404);
    expect((await api('DELETE', `/${doomed.id}`)).statusCode).toBe(404);
  });

  test('a voice nobody uses: 0 affected', async () => {
    const lonely = await createVoice({ name: 'Lonely', type: 'x', sample_url: '/l.wav' });
    const response = await api('DELETE', `/${lonely.id}`);
    expect(response.json()).toEqual({ detail: 'Voice deleted successfully!', affected_processes: 0 });
  });
});

describe('voice samples', () => {
  test('a built-in sample is spoken by espeak-ng without a session, then served from the cache', async () => {
    expect(fs.existsSync(cacheFile(HELENA))).toBe(false);
    const first = await sampleOf(`${HELENA}.wav`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('audio/wav');
    expect(first.headers['cache-control']).toBe('public, no-cache');
    expect(first.headers['x-sample-cache']).toBe('miss');
    expect(first.rawPayload.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(first.rawPayload.subarray(8, 12).toString('latin1')).toBe('WAVE');
    expect(first.rawPayload.length).toBeGreaterThan(20_000);
    expect(Number(first.headers['content-length'])).toBe(first.rawPayload.length);

    expect(fs.existsSync(cacheFile(HELENA))).toBe(true);
    const mtime = fs.statSync(cacheFile(HELENA)).mtimeMs;
    const second = await sampleOf(`${HELENA}.wav`);
    expect(second.statusCode).toBe(200);
    expect(second.headers['x-sample-cache']).toBe('hit');
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(fs.statSync(cacheFile(HELENA)).mtimeMs).toBe(mtime);

    // Revalidation with the ETag answers 304 without a body.
    const etag = String(second.headers.etag);
    const notModified = await sampleOf(`${HELENA}.wav`, { 'if-none-match': etag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);

    // Upper-case ids name the same voice and file.
    expect((await sampleOf(`${HELENA.toUpperCase()}.wav`)).headers['x-sample-cache']).toBe('hit');
    // No temporary files are left behind.
    expect(fs.readdirSync(path.dirname(cacheFile(HELENA))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  test('every built-in voice has a playable sample at its sample_url', async () => {
    for (const id of [RAFAEL, EMMA, JAMES]) {
      const voice = (await api('GET', `/${id}`, { token: user })).json() as Voice;
      const response = await ctx.app.inject({ method: 'GET', url: voice.sample_url });
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.subarray(0, 4).toString('latin1')).toBe('RIFF');
    }
  });

  test('the Portuguese and English sentences differ, and so do the voices', async () => {
    const helena = (await sampleOf(`${HELENA}.wav`)).rawPayload;
    const emma = (await sampleOf(`${EMMA}.wav`)).rawPayload;
    expect(helena.equals(emma)).toBe(false);
  });

  test('changing what a voice says drops its cached sample; deleting the voice removes it', async () => {
    const voice = await createVoice({
      name: 'Changing',
      type: 'x',
      sample_url: '/api/v1/voice-samples/{id}.wav',
      language: 'pt',
      provider_voice_id: 'pt-br+f3',
    });
    const before = await sampleOf(`${voice.id}.wav`);
    expect(before.statusCode).toBe(200);
    expect(fs.existsSync(cacheFile(voice.id))).toBe(true);

    // Renaming keeps the sample.
    await api('PUT', `/${voice.id}`, { body: { name: 'Renamed' } });
    expect(fs.existsSync(cacheFile(voice.id))).toBe(true);

    await api('PUT', `/${voice.id}`, { body: { provider_voice_id: 'pt-br+m3' } });
    expect(fs.existsSync(cacheFile(voice.id))).toBe(false);
    const after = await sampleOf(`${voice.id}.wav`);
    expect(after.headers['x-sample-cache']).toBe('miss');
    expect(after.rawPayload.equals(before.rawPayload)).toBe(false);

    await api('DELETE', `/${voice.id}`);
    expect(fs.existsSync(cacheFile(voice.id))).toBe(false);
    expect((await sampleOf(`${voice.id}.wav`)).statusCode).toBe(404);
  });

  test('an espeak voice without its own espeak-ng voice speaks with its language’s default', async () => {
    const voice = await createVoice({ name: 'Default', type: 'x', sample_url: '/api/v1/voice-samples/{id}.wav', language: 'es' });
    const response = await sampleOf(`${voice.id}.wav`);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.subarray(0, 4).toString('latin1')).toBe('RIFF');
  });

  test('unknown voices and voices of other providers answer 404 JSON', async () => {
    const missing = await sampleOf(`${MISSING_ID}.wav`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Voice sample not found' });
    expect((await sampleOf(`${MISSING_ID}.wav`, { 'accept-language': 'pt' })).json()).toEqual({
      detail: 'Amostra de voz não encontrada',
    });
    const openai = await createVoice({
      name: 'Remote',
      type: 'x',
      sample_url: 'https://cdn.example.com/r.mp3',
      provider: 'openai',
      provider_voice_id: 'alloy',
    });
    const remote = await sampleOf(`${openai.id}.wav`);
    expect(remote.statusCode).toBe(404);
    expect(remote.json()).toEqual({ detail: 'Voice sample not found' });
    expect(fs.existsSync(cacheFile(openai.id))).toBe(false);
  });

  test.each([
    '..%2F..%2Fapp-secret',
    '..%2Fapp-secret.wav',
    `${HELENA}.wav%00.txt`,
    `${HELENA}.mp3`,
    `${HELENA}`,
    `%2e%2e%2f${HELENA}.wav`,
    `${HELENA}.wav%2F..%2F..%2Fapp-secret`,
    'not-a-uuid.wav',
  ])('refuses %s with no file read', async (file) => {
    const response = await sampleOf(file);
    expect([400, 404]).toContain(response.statusCode);
    expect(response.json()).toEqual({ detail: expect.any(String) });
    expect(response.body).not.toContain(ctx.config.appSecret);
  });

  test('a path that climbs out of the route does not reach the sample files', async () => {
    const response = await sampleOf(`../../../../etc/passwd`);
    expect([400, 404]).toContain(response.statusCode);
    expect(response.body).not.toContain('root:');
  });
});

describe('the sample cache under concurrency and failure (service)', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-samples-test-'));
  });
  afterEach(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('concurrent first requests share one synthesis and all get the same bytes', async () => {
    const calls: EspeakOptions[] = [];
    const service = createVoiceService({
      db: ctx.database.db,
      now: () => ctx.clock.now,
      dataDir,
      speak: async (options) => {
        calls.push(options);
        await new Promise((resolve) => setTimeout(resolve, 50));
        await espeakSpeak(options);
      },
    });
    const results = await Promise.all(Array.from({ length: 6 }, () => service.sample(JAMES)));
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      voice: 'en-us+m3',
      text: 'Hello! This is a sample of my voice, ready to narrate your stories.',
    });
    expect(calls[0]!.outFile).not.toBe(path.join(dataDir, 'voice-samples', `${JAMES}.wav`));
    for (const result of results) expect(result.data.equals(results[0]!.data)).toBe(true);
    expect(fs.readdirSync(path.join(dataDir, 'voice-samples'))).toEqual([`${JAMES}.wav`]);
    expect((await service.sample(JAMES)).cached).toBe(true);
    expect(calls).toHaveLength(1);
  });

  test('the Portuguese sentence for pt voices', async () => {
    const calls: EspeakOptions[] = [];
    const service = createVoiceService({
      db: ctx.database.db,
      now: () => ctx.clock.now,
      dataDir,
      speak: async (options) => {
        calls.push(options);
        await espeakSpeak(options);
      },
    });
    await service.sample(RAFAEL);
    expect(calls[0]).toMatchObject({
      voice: 'pt-br+m3',
      text: 'Olá! Esta é uma amostra da minha voz para narrar as suas histórias.',
    });
  });

  test('a synthesis failure answers 502 and leaves nothing behind', async () => {
    const service = createVoiceService({
      db: ctx.database.db,
      now: () => ctx.clock.now,
      dataDir,
      speak: async (options) => {
        fs.writeFileSync(options.outFile, 'partial');
        throw new SpeechError('failed', 'espeak-ng failed: boom');
      },
    });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const failure = (await service.sample(EMMA).catch((error: unknown) => error)) as AppError;
      expect(failure).toMatchObject({ statusCode: 502, key: 'voiceSamples.failed' });
      // What espeak-ng printed goes to the log; the caller reads the kind of failure in its language.
      expect(translate('en', failure.key, failure.params)).toBe(
        'The voice sample could not be generated (the local voice stopped with an error; the server log has its message)',
      );
      expect(translate('pt', failure.key, failure.params)).not.toContain('boom');
      expect(JSON.stringify(warn.mock.calls)).toContain('boom');
    } finally {
      warn.mockRestore();
    }
    expect(fs.readdirSync(path.join(dataDir, 'voice-samples'))).toEqual([]);
  });
});

describe('providers/speech', () => {
  test('the espeak-ng voice of a voice: its own, else its language’s, else English; zh and no in espeak-ng’s spelling', () => {
    expect(espeakVoiceFor({ providerVoiceId: ' pt-br+f3 ', language: 'pt' })).toBe('pt-br+f3');
    expect(espeakVoiceFor({ providerVoiceId: '', language: 'pt' })).toBe('pt-br');
    expect(espeakVoiceFor({ providerVoiceId: '', language: 'zh' })).toBe('cmn');
    expect(espeakVoiceFor({ providerVoiceId: 'zh+f2', language: 'zh' })).toBe('cmn+f2');
    expect(espeakVoiceFor({ providerVoiceId: 'no', language: 'no' })).toBe('nb');
    expect(espeakVoiceFor({ providerVoiceId: '', language: null })).toBe('en-us');
  });
});
