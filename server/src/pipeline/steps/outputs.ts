import path from 'node:path';
import { writeFileAtomic } from '../../lib/atomicWrite';
import type { StepContext } from '../context';

/** The text outputs of steps 2 and 3, kept beside the media: `texts.json` and `story.json`. */
export const TEXT_FILES = { texts: 'texts.json', story: 'story.json' } as const;

/** Writes a step's output as JSON in the execution's folder (whole, or not at all). */
export async function writeOutput(ctx: StepContext, name: string, data: unknown): Promise<void> {
  await writeFileAtomic(path.join(ctx.workDir, name), `${JSON.stringify(data, null, 2)}\n`);
}
