import {
  FALLBACK_TEXTS,
  STORY_LIMITS,
  cleanProse,
  cleanTitle,
  fill,
  languageName,
  limitText,
  titleKey,
  titleRequest,
} from '../story';
import { StepFailure, type StepContext } from '../context';
import { normalizeTitle } from '../../services/executionRuns';
import { RUN_FILES } from '../../runLayout';
import { ask, systemOf, textsOf } from './chat';
import { writeOutput } from './outputs';

/** Attempts at a title this process has not made yet before the run gives up. */
export const TITLE_ATTEMPTS = 4;

/**
 * Step 2: the title and premise. The title must not repeat one this process made in this language:
 * the history goes to the model (in the prompt's `{previous_titles}`, or as an instruction of its
 * own when the prompt has none), and an answer whose titleKey matches an earlier title (the same
 * words in another order, another number, accents or case) or one refused in this run is asked
 * again with a changed request, up to TITLE_ATTEMPTS times. The accepted title is recorded at once
 * (the database's unique index settles two runs racing for one).
 */
export async function generatingTexts(ctx: StepContext): Promise<void> {
  const texts = await textsOf(ctx);
  const system = systemOf(texts, ctx.language);
  const language = languageName(ctx.language);
  let title = ctx.checkpoint.texts?.title;

  if (!title) {
    const previous = await ctx.services.runs.previousTitles(ctx.process.id, ctx.language);
    const used = new Set(previous.map(titleKey));
    const refused: string[] = [];
    for (let attempt = 0; attempt < TITLE_ATTEMPTS && !title; attempt += 1) {
      const instruction = titleRequest(texts.title, {
        language,
        avoid: [...previous, ...refused],
        attempt,
        ...(refused.length > 0 ? { taken: refused[refused.length - 1]! } : {}),
      });
      const candidate = cleanTitle(
        await ask(ctx, 'chat.title', system, instruction, 'pipeline.textsFailed', {}, STORY_LIMITS.title.tokens),
      );
      if (!candidate || !normalizeTitle(candidate)) continue;
      const key = titleKey(candidate);
      if (!used.has(key) && (await ctx.services.runs.reserveTitle(ctx.process.id, ctx.language, candidate))) {
        title = candidate;
      } else {
        refused.push(candidate);
        used.add(key);
      }
    }
    if (!title) {
      const last = refused[refused.length - 1] ?? '';
      throw new StepFailure('pipeline.repeatedTitle', { title: last }, `the chat model repeated a title: ${last}`);
    }
    ctx.checkpoint.texts = { title, premise: '' };
    await ctx.save();
  }

  const premiseInstruction = fill(texts.premise.trim() || FALLBACK_TEXTS.premise, { language, title });
  const premise = limitText(
    cleanProse(
      await ask(ctx, 'chat.premise', system, premiseInstruction, 'pipeline.textsFailed', {}, STORY_LIMITS.premise.tokens),
    ),
    STORY_LIMITS.premise.chars,
  );
  ctx.checkpoint.texts = { title, premise };
  await writeOutput(ctx, RUN_FILES.texts, { language: ctx.language, title, premise });
}
