/**
 * Prints, as JSON on stdout, the screens rendered at build time (src/app/prerender.tsx, its
 * `PRERENDERED_SCREENS`): `{ "login-en-dark.html": { head, root }, ... }`, one page per screen,
 * language and theme, which webpack.config.js writes under those names. Run by the production
 * build with NODE_ENV=production (the class names are then the ones the app's bundle makes):
 *
 *   NODE_ENV=production node --import tsx scripts/prerender.tsx
 */
import { prerenderPages } from '../src/app/prerender';

process.stdout.write(JSON.stringify(prerenderPages()));
