// Lint rules: typescript-eslint recommended, React hooks rules for the web app, and the import
// boundaries of docs/web.md, "Layout" (features never import each other; shared code imports no feature).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const features = [
  'auth',
  'dashboard',
  'processes',
  'channels',
  'prompts',
  'voices',
  'history',
  'subscription',
  'settings',
  'proxies',
];

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'dist',
      'server/dist',
      'coverage',
      'test-results',
      'playwright-report',
      'data',
      'src/api/openapi.gen.ts',
      'src/lib/apiEnums.gen.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  ...features.map((feature) => ({
    files: [`src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: features
                .filter((f) => f !== feature)
                .flatMap((f) => [`**/features/${f}`, `**/features/${f}/**`, `../${f}`, `../${f}/**`]),
              message: 'Features never import each other; compose them in src/app.',
            },
            { group: ['**/app/router', '**/app/App', '**/app/layout/**'], message: 'Features do not import the app shell.' },
          ],
        },
      ],
    },
  })),
  {
    files: ['src/components/**/*.{ts,tsx}', 'src/lib/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['**/features/**', '**/api', '**/api/**'], message: 'Shared code imports no feature and no api.' }],
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts', 'scripts/**/*.js', 'e2e/**/*.ts', '*.js', '*.ts', '*.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/routes/**', 'server/src/app.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/routes', '**/routes/**'], message: 'Nothing imports routes.' }] },
      ],
    },
  },
);
