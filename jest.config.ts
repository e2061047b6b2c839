import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from 'jest';

const SERVER_TESTS = path.join(__dirname, 'server', 'test');

/**
 * On PostgreSQL (`npm run test:pg` sets DATABASE_URL) only the server suites that reach a database
 * run again: one that never builds an app or opens a database (media, voice, parsing, clients
 * against fakes) behaves the same on both, and `npm test` already ran it on PGlite. So do the
 * engine suites about media and providers (formats and music, OpenAI speech and images, other
 * media servers, socks proxies): their runs make the same statements as engine.test.ts, which runs
 * on PostgreSQL, and most of their time is ffmpeg's.
 */
const MEDIA_PATH_SUITES = ['engineFormats.test.ts', 'engineOpenai.test.ts', 'engineMediaServers.test.ts', 'engineSocks.test.ts'];
/**
 * Suites that run the embedded database whatever DATABASE_URL says, as `npm start` and
 * `npm run backup` do by default (a killed server restarted on its DATA_DIR; a backup and restore
 * of one): on PostgreSQL they would repeat exactly the same work.
 */
const EMBEDDED_ONLY_SUITES = ['crash.test.ts', 'backup.test.ts'];

function databaseFreeSuites(): string[] {
  if (!process.env.DATABASE_URL) return [];
  return fs
    .readdirSync(SERVER_TESTS)
    .filter((file) => file.endsWith('.test.ts'))
    .filter(
      (file) =>
        MEDIA_PATH_SUITES.includes(file) ||
        EMBEDDED_ONLY_SUITES.includes(file) ||
        !/buildTestApp|freshDatabase|openDatabase|database|DATABASE_URL/i.test(
          fs.readFileSync(path.join(SERVER_TESTS, file), 'utf8'),
        ),
    )
    .map((file) => `/server/test/${file.replace(/\./g, '\\.')}$`);
}

const tsJest = (tsconfig: string) => ({
  '^.+\\.tsx?$': ['ts-jest', { tsconfig, diagnostics: false }] as [string, object],
});

/**
 * Two projects in one run: the web app in jsdom and the API server in node.
 * `npm run typecheck` does the type checking; ts-jest only transpiles.
 */
const config: Config = {
  // Password hashing (scrypt), database clones and full screens are slow on a loaded 2-core machine.
  testTimeout: 30_000,
  // Jest keeps one core for itself by default, which leaves a 2-core machine one worker; many
  // suites wait on ffmpeg, espeak-ng or a database, so two workers there finish a quarter sooner.
  maxWorkers: Math.max(2, os.cpus().length - 1),
  // Every test file's time at the end of the run, slowest first (scripts/jest-suite-times.js).
  reporters: ['default', '<rootDir>/scripts/jest-suite-times.js'],
  projects: [
    {
      displayName: 'web',
      testEnvironment: 'jsdom',
      roots: ['<rootDir>/src', '<rootDir>/locales'],
      testMatch: ['**/*.test.ts', '**/*.test.tsx'],
      transform: tsJest('<rootDir>/tsconfig.json'),
      setupFiles: ['<rootDir>/src/testing/polyfills.ts'],
      setupFilesAfterEnv: ['<rootDir>/src/testing/setup.ts'],
      moduleNameMapper: { '\\.(css|svg|png|jpg)$': '<rootDir>/src/testing/fileMock.ts' },
    },
    {
      displayName: 'server',
      testEnvironment: 'node',
      roots: ['<rootDir>/server'],
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '/dist/', ...databaseFreeSuites()],
      transform: tsJest('<rootDir>/server/tsconfig.json'),
      globalSetup: '<rootDir>/server/test/globalSetup.ts',
      globalTeardown: '<rootDir>/server/test/globalTeardown.ts',
    },
  ],
};

export default config;
