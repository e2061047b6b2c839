import { FALLBACK_TEXTS, STORY_LIMITS, cleanProse, fill, languageName, limitText } from '../story';
import { SHORT_CHAPTER_CHARS, SHORT_INSTRUCTION, runFormat } from '../format';
import type { StepContext } from '../context';
import { RUN_FILES } from '../../runLayout';
import { ask, systemOf, textsOf } from './chat';
import { writeOutput } from './outputs';

/**
 * Step 3: chapter 1, the next chapters and the final chapter (STORY_CHAPTERS in all), each from
 * the prompt's text for it. A running summary, rewritten after each chapter, keeps names and facts
 * consistent; each chapter is saved as it comes, so a retry continues with the next one. A Short
 * is one chapter (the prompt's chapter 1 text, asked to tell the whole story briefly).
 */
export async function creatingStory(ctx: StepContext): Promise<void> {
  const texts = await textsOf(ctx);
  const system = systemOf(texts, ctx.language);
  const language = languageName(ctx.language);
  const plan = runFormat(ctx);
  const short = plan.format === 'short';
  const total = plan.chapters(ctx.config.storyChapters);
  const { title, premise } = ctx.checkpoint.texts!;
  const story = ctx.checkpoint.story ?? { chapters: [], summary: '' };

  for (let number = story.chapters.length + 1; number <= total; number += 1) {
    const template =
      number === 1
        ? texts.chapter1.trim() || FALLBACK_TEXTS.chapter1
        : number === total
          ? texts.finalChapter.trim() || FALLBACK_TEXTS.final
          : texts.nextChapters.trim() || FALLBACK_TEXTS.next;
    const values = { title, premise, summary: story.summary || premise, chapter_number: number, total_chapters: total, language };
    const chapterRequest = short ? `${fill(template, values)}\n\n${SHORT_INSTRUCTION}` : fill(template, values);
    const chapter = limitText(
      cleanProse(
        await ask(
          ctx,
          'chat.chapter',
          system,
          chapterRequest,
          'pipeline.storyFailed',
          { chapter: number },
          STORY_LIMITS.chapter.tokens,
        ),
      ),
      short ? SHORT_CHAPTER_CHARS : STORY_LIMITS.chapter.chars,
    );
    story.chapters.push(chapter);
    if (number < total) {
      const request = `${fill(FALLBACK_TEXTS.summary, { language })}\n\n${story.summary ? `Summary so far: ${story.summary}\n\n` : ''}Chapter ${number}:\n${chapter}`;
      story.summary = limitText(
        cleanProse(
          await ask(
            ctx,
            'chat.summary',
            system,
            request,
            'pipeline.storyFailed',
            { chapter: number },
            STORY_LIMITS.summary.tokens,
          ),
        ),
        STORY_LIMITS.summary.chars,
      );
    }
    ctx.checkpoint.story = story;
    await ctx.save();
  }
  await writeOutput(ctx, RUN_FILES.story, { language: ctx.language, title, premise, ...story });
}
