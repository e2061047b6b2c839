// First: read what was persisted and start fetching what the opened screen needs (app/startup.ts).
import { startup } from './app/startup';

/** Ends the current task: the browser may handle input, and paint, before the next step. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The rest of the entry chunk is evaluated in steps, each in a task of its own: React, Material
 * UI's theme, RTK Query's slice, every resource's endpoints, the store, the router, then the app
 * (i18next, the providers) and its start, whose first render yields too (app/boot.tsx). Evaluated
 * at once, the chunk kept a phone's main thread busy for a third of a second in one task
 * (Lighthouse's total blocking time: e2e/lighthouse.e2e.ts); each step is at most a tenth of it.
 * A module evaluated in a step is not evaluated again by the next. `eager`: the modules stay in
 * the entry chunk, no request more.
 */
const STEPS: Array<() => Promise<unknown>> = [
  () => import(/* webpackMode: "eager" */ 'react-dom/client'),
  () => import(/* webpackMode: "eager" */ './app/theme'),
  () => import(/* webpackMode: "eager" */ './api/apiSlice'),
  () => import(/* webpackMode: "eager" */ './api'),
  () => import(/* webpackMode: "eager" */ './app/store'),
  () => import(/* webpackMode: "eager" */ './app/router'),
];

async function main() {
  for (const step of STEPS) {
    await nextTask();
    await step();
  }
  await nextTask();
  const { boot } = await import(/* webpackMode: "eager" */ './app/boot');
  await boot(startup);
}

void main();
