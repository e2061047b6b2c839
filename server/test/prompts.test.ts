import { eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { processes, promptLanguages } from '../src/db/schema';
import { LANGUAGE_CODES, PROMPT_CATEGORIES, TEXT_FIELDS } from '../src/contracts/prompts';
import { TEST_ADMIN_EMAIL, buildTestApp, call, signUp, type TestContext } from './helper';

let ctx: TestContext;
let admin: string;
let adminId: string;
let user: string;
let userId: string;

beforeAll(async () => {
  ctx = await buildTestApp();
  const signedAdmin = await signUp(ctx.app, { email: TEST_ADMIN_EMAIL });
  admin = signedAdmin.token;
  adminId = signedAdmin.user.id;
  const signedUser = await signUp(ctx.app);
  user = signedUser.token;
  userId = signedUser.user.id;
});

afterAll(async () => {
  await ctx.close();
});

const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const BUILTIN_DRAMA = '5ebd8341-10e8-4ab7-85f4-5694d6a6f88b';
const BUILTIN_SUSPENSE = '2a3c5896-f5e9-46df-8603-a72d64833249';

/** Calls /api/v1/prompts (as the admin unless told otherwise; token null sends none). */
function api(
  method: InjectOptions['method'],
  url: string,
  options: { body?: unknown; token?: string | null; headers?: Record<string, string> } = {},
) {
  const token = options.token === null ? undefined : (options.token ?? admin);
  return call(ctx.app, method, `/api/v1/prompts${url}`, { body: options.body, token, headers: options.headers });
}

async function scalar(query: ReturnType<typeof sql>): Promise<number> {
  const result = await ctx.database.db.execute(query);
  return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

const promptCount = () => scalar(sql`select count(*)::int as n from prompts`);
const languageCount = () => scalar(sql`select count(*)::int as n from prompt_languages`);

/** Everything stored about the prompts, to prove a refused call changed nothing. */
async function snapshot(): Promise<string> {
  const result = await ctx.database.db.execute(
    sql`select p.*, (select json_agg(l order by l.language) from prompt_languages l where l.prompt_id = p.id) as langs
        from prompts p order by p.id`,
  );
  return JSON.stringify((result as unknown as { rows: unknown[] }).rows);
}

function texts(prefix: string) {
  return Object.fromEntries(TEXT_FIELDS.map((field) => [field, `${prefix} ${field} {title}`]));
}

const fullBody = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  category: 'suspense',
  description: `${name} description`,
  content: `${name} base content`,
  languages: { pt: texts('PT'), en: texts('EN') },
  ...extra,
});

async function createFull(name: string, extra: Record<string, unknown> = {}) {
  const response = await api('POST', '/full', { body: fullBody(name, extra) });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; updated_at: string; languages: Record<string, Record<string, string>> };
}

async function insertProcess(fields: { promptId?: string | null; isActive?: boolean; name?: string }) {
  const [row] = await ctx.database.db
    .insert(processes)
    .values({
      userId,
      name: fields.name ?? 'A process',
      promptId: fields.promptId ?? null,
      isActive: fields.isActive ?? true,
      nextExecution: new Date(),
    })
    .returning();
  return row!;
}

describe('the built-in catalogue', () => {
  test('a fresh database has two complete prompts, in pt and en, in different categories', async () => {
    const list = await api('GET', '/', { token: user });
    expect(list.statusCode).toBe(200);
    const ids = list.json().prompts.map((p: { id: string }) => p.id);
    expect(ids).toEqual(expect.arrayContaining([BUILTIN_DRAMA, BUILTIN_SUSPENSE]));

    const categories = new Set<string>();
    for (const id of [BUILTIN_DRAMA, BUILTIN_SUSPENSE]) {
      const response = await api('GET', `/${id}`, { token: user });
      expect(response.statusCode).toBe(200);
      const prompt = response.json();
      expect(prompt).toMatchObject({ id, user_id: null, is_active: true, language_codes: ['pt', 'en'] });
      expect(prompt.name.trim()).not.toBe('');
      expect(prompt.description.trim()).not.toBe('');
      expect(prompt.content.trim()).not.toBe('');
      expect(PROMPT_CATEGORIES).toContain(prompt.category);
      categories.add(prompt.category);
      for (const code of ['pt', 'en']) {
        const language = prompt.languages[code];
        for (const field of TEXT_FIELDS) expect(language[field].trim().length).toBeGreaterThan(40);
        expect(language.title).toContain('{previous_titles}');
        expect(language.premise).toContain('{title}');
        expect(language.narrative_prompt).toContain('{language}');
        for (const field of ['chapter_1', 'next_chapters', 'final_chapter']) {
          expect(language[field]).toContain('{title}');
          expect(language[field]).toContain('{premise}');
          expect(language[field]).toContain('{chapter_number}');
          expect(language[field]).toContain('{total_chapters}');
          expect(language[field]).toMatch(/250/);
        }
        expect(language.next_chapters).toContain('{summary}');
        expect(language.final_chapter).toContain('{summary}');
      }
      // Written in each language: accents in Portuguese, none in English.
      expect(prompt.languages.pt.narrative_prompt).toMatch(/[ãçéêíóú]/);
      expect(prompt.languages.en.narrative_prompt).toMatch(/^You are/);
    }
    expect(categories.size).toBe(2);
  });
});

describe('access', () => {
  let id: string;
  beforeAll(async () => {
    ({ id } = await createFull('Access check'));
  });

  const writes: [InjectOptions['method'], string, unknown][] = [
    ['POST', '/', { name: 'x', description: 'y', content: 'z' }],
    ['POST', '/full', { name: 'x', description: 'y', content: 'z', languages: { pt: {} } }],
    ['PUT', '/:id', { description: 'changed' }],
    ['PUT', '/:id/full', { name: 'x', description: 'y', content: 'z', languages: { en: {} } }],
    ['PUT', '/:id/toggle', undefined],
    ['DELETE', '/:id', undefined],
  ];

  test.each(writes)(
    '%s /prompts%s: 403 for a normal user, 401 without a session, nothing changes',
    async (method, path, body) => {
      const before = await snapshot();
      const forbidden = await api(method, path.replace(':id', id), { body, token: user });
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json()).toEqual({ detail: 'Only administrators can do this' });
      const forbiddenPt = await api(method, path.replace(':id', id), {
        body,
        token: user,
        headers: { 'accept-language': 'pt-BR' },
      });
      expect(forbiddenPt.json()).toEqual({ detail: 'Apenas administradores podem fazer isso' });
      // An invalid body is still refused for who the caller is, not for the body.
      expect((await api(method, path.replace(':id', id), { body: { bogus: 1 }, token: user })).statusCode).toBe(403);
      const anonymous = await api(method, path.replace(':id', id), { body, token: null });
      expect(anonymous.statusCode).toBe(401);
      expect(await snapshot()).toBe(before);
    },
  );

  test.each([['/'], ['/:id']])('GET /prompts%s: every signed-in user reads, 401 without a session', async (path) => {
    const url = path.replace(':id', id);
    expect((await api('GET', url, { token: user })).statusCode).toBe(200);
    expect((await api('GET', url)).statusCode).toBe(200);
    const anonymous = await api('GET', url, { token: null });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ detail: 'Not authenticated' });
    expect((await api('GET', url, { token: 'not-a-token' })).statusCode).toBe(401);
  });
});

describe('create and read', () => {
  test('the basic create: trimmed fields, default category, no languages', async () => {
    const response = await api('POST', '/', {
      body: { name: '  Basic one  ', description: ' Short description ', content: ' The base content ' },
    });
    expect(response.statusCode).toBe(201);
    const prompt = response.json();
    expect(prompt).toEqual({
      id: expect.any(String),
      user_id: adminId,
      name: 'Basic one',
      description: 'Short description',
      content: 'The base content',
      category: 'drama_psicologico',
      is_active: true,
      language_codes: [],
      text_language_codes: [],
      languages: {},
      process_count: 0,
      active_process_count: 0,
      created_at: ctx.clock.now.toISOString(),
      updated_at: ctx.clock.now.toISOString(),
    });
    const read = await api('GET', `/${prompt.id}`, { token: user });
    expect(read.json()).toEqual(prompt);

    const withCategory = await api('POST', '/', { body: { name: 'Basic', description: 'd', content: 'c', category: 'terror' } });
    expect(withCategory.json()).toMatchObject({ category: 'terror', languages: {} });
    const nullCategory = await api('POST', '/', { body: { name: 'Basic', description: 'd', content: 'c', category: null } });
    expect(nullCategory.json()).toMatchObject({ category: 'drama_psicologico' });
  });

  test('the full create stores every language; missing texts are empty; codes in display order', async () => {
    const before = await languageCount();
    const response = await api('POST', '/full', {
      body: {
        name: 'Full one',
        category: 'ficcao_cientifica',
        description: 'A full prompt',
        content: 'Base',
        languages: {
          en: { title: ' English title {previous_titles} ', premise: 'English premise', chapter_1: null },
          es: {},
          pt: texts('PT'),
        },
      },
    });
    expect(response.statusCode).toBe(201);
    const prompt = response.json();
    expect(prompt).toMatchObject({
      name: 'Full one',
      category: 'ficcao_cientifica',
      language_codes: ['pt', 'en', 'es'],
      // Spanish has a tab but no text: a process cannot be made in it.
      text_language_codes: ['pt', 'en'],
    });
    expect(Object.keys(prompt.languages)).toEqual(['pt', 'en', 'es']);
    expect(prompt.languages.en).toEqual({
      title: 'English title {previous_titles}',
      premise: 'English premise',
      narrative_prompt: '',
      chapter_1: '',
      next_chapters: '',
      final_chapter: '',
    });
    expect(prompt.languages.es).toEqual(Object.fromEntries(TEXT_FIELDS.map((f) => [f, ''])));
    expect(prompt.languages.pt).toEqual(texts('PT'));
    expect(await languageCount()).toBe(before + 3);
    expect((await api('GET', `/${prompt.id}`, { token: user })).json()).toEqual(prompt);
  });

  test('accepts every one of the 20 language codes', async () => {
    const languages = Object.fromEntries(LANGUAGE_CODES.map((code) => [code, { title: `Title in ${code}` }]));
    const response = await api('POST', '/full', { body: { ...fullBody('All languages'), languages } });
    expect(response.statusCode).toBe(201);
    expect(response.json().language_codes).toEqual([...LANGUAGE_CODES]);
  });

  test('unknown ids answer 404 in the caller’s language; malformed ids 400', async () => {
    const missing = await api('GET', `/${MISSING_ID}`, { token: user });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Prompt not found' });
    const missingPt = await api('GET', `/${MISSING_ID}`, { token: user, headers: { 'accept-language': 'pt-BR,pt;q=0.9' } });
    expect(missingPt.json()).toEqual({ detail: 'Prompt não encontrado' });
    for (const [method, path, body] of [
      ['PUT', `/${MISSING_ID}`, { description: 'x' }],
      ['PUT', `/${MISSING_ID}/full`, fullBody('x')],
      ['PUT', `/${MISSING_ID}/toggle`, undefined],
      ['DELETE', `/${MISSING_ID}`, undefined],
    ] as const) {
      const response = await api(method, path, { body });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Prompt not found' });
    }
    expect((await api('GET', '/not-a-uuid', { token: user })).statusCode).toBe(400);
  });
});

describe('list', () => {
  test('newest update first, paged, with active_only and total', async () => {
    const a = await createFull('List A');
    ctx.clock.advance(1000);
    const b = await createFull('List B');
    ctx.clock.advance(1000);
    const c = await createFull('List C');
    ctx.clock.advance(1000);
    // Updating A makes it the newest.
    expect((await api('PUT', `/${a.id}`, { body: { description: 'touched' } })).statusCode).toBe(200);

    const all = await api('GET', '/', { token: user });
    expect(all.statusCode).toBe(200);
    const { prompts, total } = all.json() as {
      prompts: { id: string; updated_at: string; is_active: boolean; language_codes: string[] }[];
      total: number;
    };
    expect(total).toBe(await promptCount());
    expect(prompts).toHaveLength(total);
    expect(prompts.slice(0, 3).map((p) => p.id)).toEqual([a.id, c.id, b.id]);
    const times = prompts.map((p) => p.updated_at);
    expect([...times].sort().reverse()).toEqual(times);
    // Summaries carry language codes but neither content nor languages.
    expect(prompts[0]).toMatchObject({ language_codes: ['pt', 'en'], process_count: 0 });
    expect(prompts[0]).not.toHaveProperty('content');
    expect(prompts[0]).not.toHaveProperty('languages');

    const page = await api('GET', '/?skip=1&limit=2', { token: user });
    expect(page.json().prompts.map((p: { id: string }) => p.id)).toEqual([c.id, b.id]);
    expect(page.json().total).toBe(total);

    await api('PUT', `/${c.id}/toggle`);
    const active = await api('GET', '/?active_only=true', { token: user });
    expect(active.json().total).toBe(total - 1);
    expect(active.json().prompts.map((p: { id: string }) => p.id)).not.toContain(c.id);
    expect(active.json().prompts.every((p: { is_active: boolean }) => p.is_active)).toBe(true);
    await api('PUT', `/${c.id}/toggle`);

    expect((await api('GET', '/?limit=0', { token: user })).statusCode).toBe(400);
    expect((await api('GET', '/?limit=5000', { token: user })).statusCode).toBe(400);
    expect((await api('GET', '/?mine=true', { token: user })).statusCode).toBe(400);
  });
});

describe('update', () => {
  test('PUT /{id} changes the description only', async () => {
    const created = await createFull('Describe me');
    ctx.clock.advance(5000);
    const response = await api('PUT', `/${created.id}`, { body: { description: '  A new description  ' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      ...created,
      description: 'A new description',
      updated_at: ctx.clock.now.toISOString(),
    });
    const renamed = await api('PUT', `/${created.id}`, { body: { description: 'x', name: 'Renamed' } });
    expect(renamed.statusCode).toBe(400);
    const blank = await api('PUT', `/${created.id}`, { body: { description: '   ' } });
    expect(blank.statusCode).toBe(422);
    expect(blank.json()).toEqual({ detail: 'The description is required' });
    const blankPt = await api('PUT', `/${created.id}`, { body: { description: '' }, headers: { 'accept-language': 'pt' } });
    expect(blankPt.json()).toEqual({ detail: 'A descrição é obrigatória' });
    expect((await api('PUT', `/${created.id}`, { body: {} })).statusCode).toBe(400);
    expect((await api('GET', `/${created.id}`)).json().description).toBe('A new description');
  });

  test('toggle flips is_active both ways', async () => {
    const created = await createFull('Toggle me');
    const off = await api('PUT', `/${created.id}/toggle`);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ id: created.id, is_active: false, languages: created.languages });
    const on = await api('PUT', `/${created.id}/toggle`);
    expect(on.json()).toMatchObject({ is_active: true });
  });

  test('the full update replaces every field and the languages as a whole', async () => {
    const created = await createFull('Replace me');
    ctx.clock.advance(2000);
    const response = await api('PUT', `/${created.id}/full`, {
      body: {
        name: ' Replaced ',
        category: 'romance',
        description: 'New description',
        content: 'New content',
        languages: { es: { title: 'Título {previous_titles}', final_chapter: 'Fin' } },
      },
    });
    expect(response.statusCode).toBe(200);
    const prompt = response.json();
    expect(prompt).toMatchObject({
      id: created.id,
      name: 'Replaced',
      category: 'romance',
      description: 'New description',
      content: 'New content',
      language_codes: ['es'],
      updated_at: ctx.clock.now.toISOString(),
    });
    expect(prompt.languages).toEqual({
      es: {
        title: 'Título {previous_titles}',
        premise: '',
        narrative_prompt: '',
        chapter_1: '',
        next_chapters: '',
        final_chapter: 'Fin',
      },
    });
    const rows = await ctx.database.db.select().from(promptLanguages).where(eq(promptLanguages.promptId, created.id));
    expect(rows.map((r) => r.language)).toEqual(['es']);

    // Without a category the current one stays.
    const again = await api('PUT', `/${created.id}/full`, {
      body: { name: 'Replaced', description: 'd', content: 'c', languages: { pt: {}, en: {} } },
    });
    expect(again.json()).toMatchObject({ category: 'romance', language_codes: ['pt', 'en'] });
  });
});

describe('validation: a refused call changes nothing', () => {
  let id: string;
  beforeAll(async () => {
    ({ id } = await createFull('Validation target'));
  });

  const CATEGORIES = 'drama_psicologico, suspense, romance, acao, comedia, terror, ficcao_cientifica, fantasia';
  const CODES = 'pt, en, es, fr, de, it, ja, ko, zh, ru, ar, hi, tr, nl, sv, no, da, fi, pl, cs';
  const required = 'Name, description and base content are required';
  const base = { name: 'Valid', description: 'Valid', content: 'Valid' };
  const languages = { pt: {} };

  const cases: [string, Record<string, unknown>, number, string | RegExp][] = [
    ['blank name', { ...base, name: '   ', languages }, 422, required],
    ['blank description', { ...base, description: '', languages }, 422, required],
    ['blank content', { ...base, content: ' \n ', languages }, 422, required],
    ['unknown category', { ...base, category: 'horror', languages }, 422, `Unknown category "horror". Use one of: ${CATEGORIES}`],
    ['unknown language', { ...base, languages: { pt: {}, xx: {} } }, 422, `Unknown language code "xx". Use one of: ${CODES}`],
    ['upper-case language', { ...base, languages: { PT: {} } }, 422, /^Unknown language code "PT"/],
    ['no language', { ...base, languages: {} }, 422, 'A prompt needs at least one language'],
    ['languages missing', { ...base }, 400, /languages/],
    ['name missing', { description: 'd', content: 'c', languages }, 400, /name/],
    ['unknown field', { ...base, languages, is_active: false }, 400, /additional/],
    ['unknown text field', { ...base, languages: { pt: { summary: 'x' } } }, 400, /additional/],
    ['a text that is not a string', { ...base, languages: { pt: { title: { nested: true } } } }, 400, /title/],
    ['a NUL character', { ...base, content: 'a\u0000b', languages }, 400, /content/],
  ];

  test.each(cases)('POST /full with %s', async (_label, body, status, detail) => {
    const before = await snapshot();
    const response = await api('POST', '/full', { body });
    expect(response.statusCode).toBe(status);
    expect(response.json().detail).toEqual(typeof detail === 'string' ? detail : expect.stringMatching(detail));
    expect(await snapshot()).toBe(before);
  });

  test.each(cases)('PUT /{id}/full with %s', async (_label, body, status, detail) => {
    const before = await snapshot();
    const response = await api('PUT', `/${id}/full`, { body });
    expect(response.statusCode).toBe(status);
    expect(response.json().detail).toEqual(typeof detail === 'string' ? detail : expect.stringMatching(detail));
    expect(await snapshot()).toBe(before);
  });

  test.each([
    [{ name: '', description: 'd', content: 'c' }, 422, required],
    [{ name: 'n', description: 'd', content: 'c', category: 'acao ' }, 201, ''],
    [{ name: 'n', description: 'd', content: 'c', category: 'Acao' }, 422, /^Unknown category "Acao"/],
    [{ name: 'n', description: 'd', content: 'c', languages: { pt: {} } }, 400, /additional/],
    [{ name: 'n', description: 'd' }, 400, /content/],
  ])('POST / with %j', async (body, status, detail) => {
    const before = await promptCount();
    const response = await api('POST', '/', { body });
    expect(response.statusCode).toBe(status);
    if (status === 201) {
      expect(response.json().category).toBe('acao');
      expect(await promptCount()).toBe(before + 1);
      return;
    }
    expect(response.json().detail).toEqual(typeof detail === 'string' ? detail : expect.stringMatching(detail));
    expect(await promptCount()).toBe(before);
  });

  test('messages in Portuguese', async () => {
    const pt = { 'accept-language': 'pt-BR' };
    const cases: [Record<string, unknown>, string | RegExp][] = [
      [{ ...base, name: '', languages }, 'Nome, descrição e conteúdo base são obrigatórios'],
      [{ ...base, languages: {} }, 'Um prompt precisa de pelo menos um idioma'],
      [{ ...base, category: 'x', languages }, `Categoria desconhecida "x". Use uma destas: ${CATEGORIES}`],
      [{ ...base, languages: { xx: {} } }, `Código de idioma desconhecido "xx". Use um destes: ${CODES}`],
    ];
    for (const [body, detail] of cases) {
      const response = await api('POST', '/full', { body, headers: pt });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ detail });
    }
  });

  test('malformed JSON is 400', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/prompts/full',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: 'The request body is not valid JSON' });
  });
});

describe('delete', () => {
  test('switches off the processes that use the prompt, clears their prompt and answers how many', async () => {
    const doomed = await createFull('Doomed');
    const other = await createFull('Survivor');
    const first = await insertProcess({ promptId: doomed.id, isActive: true, name: 'Uses doomed 1' });
    const second = await insertProcess({ promptId: doomed.id, isActive: false, name: 'Uses doomed 2' });
    const bystander = await insertProcess({ promptId: other.id, isActive: true, name: 'Uses survivor' });

    expect((await api('GET', `/${doomed.id}`, { token: user })).json().process_count).toBe(2);
    const listed = (await api('GET', '/', { token: user })).json().prompts;
    expect(listed.find((p: { id: string }) => p.id === doomed.id).process_count).toBe(2);
    expect(listed.find((p: { id: string }) => p.id === other.id).process_count).toBe(1);

    const response = await api('DELETE', `/${doomed.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      detail: 'Prompt deleted successfully! 2 processes that used it were switched off and need a new prompt.',
      affected_processes: 2,
    });

    const rows = await ctx.database.db.select().from(processes);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const process of [first, second]) {
      expect(byId.get(process.id)).toMatchObject({ promptId: null, isActive: false, name: process.name, userId });
    }
    expect(byId.get(bystander.id)).toMatchObject({ promptId: other.id, isActive: true });
    const languages = await ctx.database.db.select().from(promptLanguages).where(eq(promptLanguages.promptId, doomed.id));
    expect(languages).toEqual([]);

    expect((await api('GET', `/${doomed.id}`)).statusCode).toBe(404);
    const again = await api('DELETE', `/${doomed.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ detail: 'Prompt not found' });
  });

  test('a prompt nobody uses: 0 affected, message in the caller’s language', async () => {
    const lonely = await createFull('Lonely');
    const before = await promptCount();
    const response = await api('DELETE', `/${lonely.id}`, { headers: { 'accept-language': 'pt-BR' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ detail: 'Prompt excluído com sucesso!', affected_processes: 0 });
    expect(await promptCount()).toBe(before - 1);
  });

  test('admins may delete a built-in prompt too', async () => {
    const response = await api('DELETE', `/${BUILTIN_SUSPENSE}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ detail: 'Prompt deleted successfully!', affected_processes: 0 });
    expect((await api('GET', `/${BUILTIN_SUSPENSE}`, { token: user })).statusCode).toBe(404);
  });
});
