import type { ProcessFormat } from '../contracts/processes';
import type { StepContext } from './context';

/**
 * What a run makes, by the process's format (docs/pipeline-media.md, "Formats"): a `video`
 * (1920x1080, STORY_CHAPTERS chapters, two scenes each) or a `short`, a vertical YouTube Short
 * (1080x1920, at most three minutes: one chapter that tells the whole story, four scenes,
 * larger subtitles higher up, clear of the phone's buttons and captions, a vertical thumbnail).
 * The format is read once, at step 1, into the checkpoint: a run finishes as it began even if
 * the process changes meanwhile.
 */
export interface FormatPlan {
  format: ProcessFormat;
  width: number;
  height: number;
  /** Chapters of the story, given the configured STORY_CHAPTERS. */
  chapters(configured: number): number;
  scenesPerChapter: number;
  /** Longest narration, seconds (YouTube files a vertical video up to 3 minutes as a Short). */
  maxSeconds: number | null;
  /** Characters per subtitle line and per cue (two lines); the style is the render's (media/render.ts). */
  subtitles: { lineChars: number; maxChars: number };
}

/** A Short's narration: three minutes at most, with a margin for the container's rounding. */
export const SHORT_MAX_SECONDS = 178;
/** The most a too-long Short's narration is sped up to fit; beyond it the run fails and says so. */
export const SHORT_MAX_TEMPO = 1.25;
/** Characters a Short's chapter may have (about 400 words: under three minutes at 150 words a minute). */
export const SHORT_CHAPTER_CHARS = 2_400;
/** What a Short's one chapter is asked to be, after the prompt's own chapter text. */
export const SHORT_INSTRUCTION =
  'This is a YouTube Short: tell the whole story in this one chapter, from its opening hook to its ending, in about 250 words (under two minutes read aloud). Narrated text only.';

const PLANS: Record<ProcessFormat, FormatPlan> = {
  video: {
    format: 'video',
    width: 1920,
    height: 1080,
    chapters: (configured) => configured,
    scenesPerChapter: 2,
    maxSeconds: null,
    subtitles: { lineChars: 42, maxChars: 84 },
  },
  short: {
    format: 'short',
    width: 1080,
    height: 1920,
    chapters: () => 1,
    scenesPerChapter: 4,
    maxSeconds: SHORT_MAX_SECONDS,
    // 68 px bold on a 1080-wide frame with 10 % margins holds 20 characters a line.
    subtitles: { lineChars: 20, maxChars: 40 },
  },
};

export function formatPlan(format: string | null | undefined): FormatPlan {
  return format === 'short' ? PLANS.short : PLANS.video;
}

/** The run's format: the one step 1 recorded, else the process's. */
export function runFormat(ctx: Pick<StepContext, 'checkpoint' | 'process'>): FormatPlan {
  return formatPlan(ctx.checkpoint.format ?? ctx.process.format);
}
