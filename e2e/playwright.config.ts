import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * The browser suite: Debian's Chromium (never a downloaded browser) against the real server,
 * started as the README says (`npm start`) on a fresh embedded database, with the media tools of
 * the machine hidden (scripts/without-media-tools.sh).
 */
const port = Number(process.env.E2E_PORT || 3210);
const dataDir = process.env.E2E_DATA_DIR || fs.mkdtempSync(path.join(os.tmpdir(), 'svc-e2e-'));
export const ADMIN_EMAIL = 'admin@e2e.test';
/** Fixed ports of `npm run fakes` for the suite: fake Google + YouTube, fake OpenAI, fake proxy, fake mail. */
export const FAKES = {
  google: port + 81,
  openai: port + 82,
  proxy: port + 83,
  smtp: port + 85,
  inbox: port + 86,
  channelId: 'UCe2eFakeChannel00000001',
};

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.e2e.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  outputDir: '../test-results',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    locale: 'en-US',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      command: 'npm run fakes',
      cwd: '..',
      url: `http://127.0.0.1:${FAKES.google}/generate_204`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        FAKE_GOOGLE_PORT: String(FAKES.google),
        FAKE_OPENAI_PORT: String(FAKES.openai),
        FAKE_PROXY_PORT: String(FAKES.proxy),
        FAKE_SMTP_PORT: String(FAKES.smtp),
        FAKE_SMTP_INBOX_PORT: String(FAKES.inbox),
        FAKE_CHANNEL_ID: FAKES.channelId,
        // Two short sentences a chapter: a shorter narration is a shorter video to render.
        FAKE_STORY: 'brief',
      },
    },
    {
      // As on a bare machine: the server finds no system ffmpeg, ffprobe, espeak-ng or fonts, so every
      // run of the suite proves that what npm installs is enough (the browser keeps its own fonts).
      command: `scripts/without-media-tools.sh ${process.env.E2E_SKIP_BUILD ? 'node server/dist/server.js' : 'npm start'}`,
      cwd: '..',
      url: `http://127.0.0.1:${port}/api/v1/health`,
      timeout: 240_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ADMIN_EMAIL,
        LOG_LEVEL: 'warn',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        GOOGLE_AUTH_URL: `http://127.0.0.1:${FAKES.google}/o/oauth2/v2/auth`,
        GOOGLE_TOKEN_URL: `http://127.0.0.1:${FAKES.google}/token`,
        YOUTUBE_API_URL: `http://127.0.0.1:${FAKES.google}/`,
        OPENAI_BASE_URL: `http://127.0.0.1:${FAKES.openai}/v1`,
        PROXY_CHECK_URL: `http://127.0.0.1:${FAKES.google}/generate_204`,
        // Confirmation emails go to the fake mail server, whose inbox the suite reads to follow links.
        SMTP_URL: `smtp://127.0.0.1:${FAKES.smtp}`,
        // Every fake listens on 127.0.0.1, which the egress guard refuses for user-entered addresses.
        ALLOW_PRIVATE_URLS: 'true',
        // The suite signs up a few dozen accounts from one address: more than a person would in an hour.
        AUTH_RATE_LIMIT_PER_HOUR: '1000',
        // Short stories with locally drawn scene cards keep a full run within seconds.
        IMAGE_PROVIDER: 'local',
        STORY_CHAPTERS: '2',
      },
    },
  ],
});
