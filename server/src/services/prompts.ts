import { asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { processes, promptLanguages, prompts } from '../db/schema';
import { notFound, unprocessable } from '../errors';
import { translate, type Language } from '../messages';
import type { Page } from './paging';
import type { DeleteResult } from '../contracts/common';
import {
  DEFAULT_CATEGORY,
  LANGUAGE_CODES,
  PROMPT_CATEGORIES,
  TEXT_FIELDS,
  isLanguageCode,
  isPromptCategory,
  type BasicPromptInput,
  type FullPromptInput,
  type LanguageCode,
  type LanguageTexts,
  type PromptCategory,
  type PromptDto,
  type PromptSummaryDto,
} from '../contracts/prompts';

/**
 * Story prompt templates: curated by administrators, read by every signed-in user
 * (docs/api-catalogue.md). A prompt has a base content and, per language, six texts that drive
 * the video engine.
 */

type PromptRow = typeof prompts.$inferSelect;
type LanguageRow = typeof promptLanguages.$inferSelect;

const NAME_MAX = 200;

function languageOrder(code: string): number {
  const index = (LANGUAGE_CODES as readonly string[]).indexOf(code);
  return index === -1 ? LANGUAGE_CODES.length : index;
}

function byLanguage(a: { language: string }, b: { language: string }): number {
  return languageOrder(a.language) - languageOrder(b.language) || a.language.localeCompare(b.language);
}

function textsOf(row: LanguageRow): LanguageTexts {
  return {
    title: row.title,
    premise: row.premise,
    narrative_prompt: row.narrativePrompt,
    chapter_1: row.chapter1,
    next_chapters: row.nextChapters,
    final_chapter: row.finalChapter,
  };
}

/** Whether a language of a prompt has something to write with (not every text blank). */
function hasTexts(row: LanguageRow): boolean {
  return Object.values(textsOf(row)).some((text) => text.trim() !== '');
}

function summaryDto(
  row: PromptRow,
  processCount: number,
  activeProcessCount: number,
  languages: LanguageRow[],
): PromptSummaryDto {
  return {
    id: row.id,
    user_id: row.userId,
    name: row.name,
    description: row.description,
    category: row.category,
    is_active: row.isActive,
    language_codes: languages.map((l) => l.language),
    text_language_codes: languages.filter(hasTexts).map((l) => l.language),
    process_count: processCount,
    active_process_count: activeProcessCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Name, description and content, trimmed; 422 when one is blank. */
function requiredFields(input: BasicPromptInput): { name: string; description: string; content: string } {
  const name = input.name?.trim() ?? '';
  const description = input.description?.trim() ?? '';
  const content = input.content?.trim() ?? '';
  if (!name || !description || !content) throw unprocessable('prompts.fieldsRequired');
  return { name: name.slice(0, NAME_MAX), description, content };
}

/** A category from the list; blank or absent gives `fallback`. */
function parseCategory(value: string | null | undefined, fallback: PromptCategory): PromptCategory {
  const category = value?.trim() ?? '';
  if (!category) return fallback;
  if (!isPromptCategory(category)) {
    throw unprocessable('prompts.categoryInvalid', { category, categories: PROMPT_CATEGORIES.join(', ') });
  }
  return category;
}

/** The languages map of a full create or update: known codes, at least one, missing texts empty. */
function parseLanguages(languages: FullPromptInput['languages']): { code: LanguageCode; texts: LanguageTexts }[] {
  const codes = Object.keys(languages ?? {});
  for (const code of codes) {
    if (!isLanguageCode(code)) {
      throw unprocessable('catalogue.languageInvalid', { code, codes: LANGUAGE_CODES.join(', ') });
    }
  }
  if (codes.length === 0) throw unprocessable('prompts.languageRequired');
  return (codes as LanguageCode[])
    .map((code) => {
      const given = languages[code] ?? {};
      const texts = Object.fromEntries(TEXT_FIELDS.map((field) => [field, given[field]?.trim() ?? ''])) as LanguageTexts;
      return { code, texts };
    })
    .sort((a, b) => languageOrder(a.code) - languageOrder(b.code));
}

export function createPromptService({ db, now }: { db: Db; now: () => Date }) {
  // Written out: in a one-table select drizzle drops the table names from columns, and an
  // unqualified "id" inside the subquery would be the process's id.
  const processCount =
    sql<number>`(select count(*)::int from "processes" where "processes"."prompt_id" = "prompts"."id")`.mapWith(Number);
  const activeProcessCount =
    sql<number>`(select count(*)::int from "processes" where "processes"."prompt_id" = "prompts"."id" and "processes"."is_active")`.mapWith(
      Number,
    );

  /** Language rows of these prompts, in display order. */
  async function languageRows(ids: string[]): Promise<LanguageRow[]> {
    if (ids.length === 0) return [];
    const rows = await db.select().from(promptLanguages).where(inArray(promptLanguages.promptId, ids));
    return rows.sort(byLanguage);
  }

  async function get(id: string): Promise<PromptDto> {
    const [found] = await db
      .select({ prompt: prompts, processCount, activeProcessCount })
      .from(prompts)
      .where(eq(prompts.id, id));
    if (!found) throw notFound('prompts.notFound');
    const rows = await languageRows([id]);
    return {
      ...summaryDto(found.prompt, found.processCount, found.activeProcessCount, rows),
      content: found.prompt.content,
      languages: Object.fromEntries(rows.map((r) => [r.language, textsOf(r)])),
    };
  }

  /** Every prompt (or only active ones), most recently updated first. */
  async function list(page: Page & { active_only?: boolean }): Promise<{ prompts: PromptSummaryDto[]; total: number }> {
    const where = page.active_only ? eq(prompts.isActive, true) : undefined;
    const rows = await db
      .select({ prompt: prompts, processCount, activeProcessCount })
      .from(prompts)
      .where(where)
      .orderBy(desc(prompts.updatedAt), desc(prompts.createdAt), asc(prompts.id))
      .offset(page.skip)
      .limit(page.limit);
    const [total] = await db.select({ n: count() }).from(prompts).where(where);
    const languagesOf = new Map<string, LanguageRow[]>();
    for (const row of await languageRows(rows.map((r) => r.prompt.id))) {
      languagesOf.set(row.promptId, [...(languagesOf.get(row.promptId) ?? []), row]);
    }
    return {
      prompts: rows.map((r) => summaryDto(r.prompt, r.processCount, r.activeProcessCount, languagesOf.get(r.prompt.id) ?? [])),
      total: total?.n ?? 0,
    };
  }

  /** The basic create: name, description, content and category, no languages. */
  async function create(userId: string, input: BasicPromptInput): Promise<PromptDto> {
    const fields = requiredFields(input);
    const category = parseCategory(input.category, DEFAULT_CATEGORY);
    const at = now();
    const [row] = await db
      .insert(prompts)
      .values({ userId, ...fields, category, createdAt: at, updatedAt: at })
      .returning({ id: prompts.id });
    return get(row!.id);
  }

  /** The full create: the prompt and its languages in one transaction. */
  async function createFull(userId: string, input: FullPromptInput): Promise<PromptDto> {
    const fields = requiredFields(input);
    const category = parseCategory(input.category, DEFAULT_CATEGORY);
    const languages = parseLanguages(input.languages);
    const at = now();
    const id = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(prompts)
        .values({ userId, ...fields, category, createdAt: at, updatedAt: at })
        .returning({ id: prompts.id });
      await tx.insert(promptLanguages).values(languages.map((l) => languageValues(row!.id, l)));
      return row!.id;
    });
    return get(id);
  }

  /** Changes the description only. */
  async function updateDescription(id: string, input: { description: string }): Promise<PromptDto> {
    const description = input.description?.trim() ?? '';
    if (!description) throw unprocessable('prompts.descriptionRequired');
    const updated = await db
      .update(prompts)
      .set({ description, updatedAt: now() })
      .where(eq(prompts.id, id))
      .returning({ id: prompts.id });
    if (updated.length === 0) throw notFound('prompts.notFound');
    return get(id);
  }

  /**
   * The full update: the prompt row and its languages, replaced as a whole, in one transaction.
   * An absent category keeps the current one.
   */
  async function updateFull(id: string, input: FullPromptInput): Promise<PromptDto> {
    const fields = requiredFields(input);
    const languages = parseLanguages(input.languages);
    await db.transaction(async (tx) => {
      // Locks the row, so concurrent full updates of one prompt apply one after the other.
      const [current] = await tx.select({ category: prompts.category }).from(prompts).where(eq(prompts.id, id)).for('update');
      if (!current) throw notFound('prompts.notFound');
      const category = parseCategory(input.category, current.category);
      await tx
        .update(prompts)
        .set({ ...fields, category, updatedAt: now() })
        .where(eq(prompts.id, id));
      await tx.delete(promptLanguages).where(eq(promptLanguages.promptId, id));
      await tx.insert(promptLanguages).values(languages.map((l) => languageValues(id, l)));
    });
    return get(id);
  }

  async function toggle(id: string): Promise<PromptDto> {
    const updated = await db
      .update(prompts)
      .set({ isActive: sql`not ${prompts.isActive}`, updatedAt: now() })
      .where(eq(prompts.id, id))
      .returning({ id: prompts.id });
    if (updated.length === 0) throw notFound('prompts.notFound');
    return get(id);
  }

  /**
   * Deletes the prompt. Processes that used it lose it (prompt_id null) and are switched off in
   * the same transaction; nothing else of them changes. Answers how many were affected.
   */
  async function remove(id: string, language: Language): Promise<DeleteResult> {
    const affected = await db.transaction(async (tx) => {
      const switchedOff = await tx
        .update(processes)
        .set({ promptId: null, isActive: false, updatedAt: now() })
        .where(eq(processes.promptId, id))
        .returning({ id: processes.id });
      const deleted = await tx.delete(prompts).where(eq(prompts.id, id)).returning({ id: prompts.id });
      if (deleted.length === 0) throw notFound('prompts.notFound');
      return switchedOff.length;
    });
    return {
      detail:
        affected === 0
          ? translate(language, 'prompts.deleted')
          : translate(language, 'prompts.deletedWithProcesses', { count: affected }),
      affected_processes: affected,
    };
  }

  return { list, get, create, createFull, updateDescription, updateFull, toggle, remove };
}

function languageValues(promptId: string, { code, texts }: { code: LanguageCode; texts: LanguageTexts }) {
  return {
    promptId,
    language: code,
    title: texts.title,
    premise: texts.premise,
    narrativePrompt: texts.narrative_prompt,
    chapter1: texts.chapter_1,
    nextChapters: texts.next_chapters,
    finalChapter: texts.final_chapter,
  } satisfies typeof promptLanguages.$inferInsert;
}

export type PromptService = ReturnType<typeof createPromptService>;
