/**
 * Prints, as JSON on stdout, the sign-in screen rendered at build time (src/app/prerender.tsx):
 * `{ "en-dark": { head, root }, ... }`, one page per language and theme, which webpack.config.js
 * writes as login-<variant>.html. Run by the production build with NODE_ENV=production (the class
 * names are then the ones the app's bundle makes):
 *
 *   NODE_ENV=production node --import tsx scripts/prerender.tsx
 */
import { prerenderLoginPages } from '../src/app/prerender';

process.stdout.write(JSON.stringify(prerenderLoginPages()));
