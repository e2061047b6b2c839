import 'i18next';
import type { DEFAULT_VARIABLES } from './i18n';
import type { Resources } from './resources';

/** Typed translation keys: `t('nav.dashbord')` or `t('auth:login.nope')` fails to compile. */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: Resources;
    returnNull: false;
    defaultVariables: typeof DEFAULT_VARIABLES;
  }
}
