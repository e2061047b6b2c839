import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../lib/atomicWrite';
import type { StepContext } from '../context';

/** Writes a step's output as JSON in the execution's folder (whole, or not at all): runLayout.ts names the files. */
export async function writeOutput(ctx: StepContext, name: string, data: unknown): Promise<void> {
  await writeFileAtomic(path.join(ctx.workDir, name), `${JSON.stringify(data, null, 2)}\n`);
}

/** Whether a step's file is already there (a retry keeps what an earlier attempt made). */
export async function exists(file: string): Promise<boolean> {
  return (await fs.stat(file).catch(() => undefined))?.isFile() ?? false;
}
