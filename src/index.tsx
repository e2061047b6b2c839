// First: read what was persisted and start fetching what the opened screen needs (app/startup.ts).
import { startup } from './app/startup';

/** Ends the current task: the browser may handle input, and paint, before the next step. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The rest of the entry chunk is evaluated in steps, each in a task of its own: React, then the
 * app (Material UI, the store, the router, i18next) and its start, whose first render yields too
 * (app/boot.tsx). Evaluated at once, the chunk kept a phone's main thread busy for a third of a
 * second in one task (Lighthouse's total blocking time: e2e/lighthouse.e2e.ts). `eager`: the
 * modules stay in the entry chunk, no request more.
 */
async function main() {
  await nextTask();
  await import(/* webpackMode: "eager" */ 'react-dom/client');
  await nextTask();
  const { boot } = await import(/* webpackMode: "eager" */ './app/boot');
  await boot(startup);
}

void main();
