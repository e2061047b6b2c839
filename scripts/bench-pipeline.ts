/**
 * `npm run bench:pipeline`: one 3-chapter story end to end, as the engine runs it in production,
 * against the fake chat-model server and the fake YouTube (the network parts), with the local voice
 * (espeak-ng in WebAssembly) and locally drawn scene cards; prints which ffmpeg ran and the time of
 * each step, the upload included. Everything runs in a temporary DATA_DIR on the embedded database,
 * removed at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { openDatabase } from '../server/src/db';
import { memoryMailer } from '../server/src/providers/mailer';
import { createEngine } from '../server/src/pipeline/engine';
import { mediaToolsEnv, resolveMediaTools } from '../server/src/media/ffmpeg';
import { startFakeGoogle } from '../server/fakes/google';
import { startFakeOpenAI } from '../server/fakes/openai';
import { createStoryResponder } from '../server/fakes/storyResponder';

const CHAPTERS = 3;
const BUILTIN_DRAMA = '5ebd8341-10e8-4ab7-85f4-5694d6a6f88b';
const HELENA = '387bfe25-192a-4eb3-aa8b-be1f9e202b9a';

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pipeline-'));
  const fake = await startFakeOpenAI({ respond: createStoryResponder() });
  const google = await startFakeGoogle();
  google.addClient('bench.apps.googleusercontent.com', 'GOCSPX-bench');
  const account = google.addAccount([
    { id: 'UC_bench_channel', title: 'Bench', subscriberCount: 0, videoCount: 0, viewCount: 0 },
  ]);
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') });
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    OPENAI_BASE_URL: fake.url,
    GOOGLE_AUTH_URL: google.authUrl,
    GOOGLE_TOKEN_URL: google.tokenUrl,
    YOUTUBE_API_URL: google.apiUrl,
    IMAGE_PROVIDER: 'local',
    STORY_CHAPTERS: String(CHAPTERS),
    WEB_DIR: path.join(dataDir, 'no-web'),
  });
  const queued: string[] = [];
  const app = await buildApp({
    config,
    database,
    mailer: memoryMailer(),
    logger: false,
    enqueue: async (id) => {
      queued.push(id);
      return null;
    },
  });
  try {
    const request = async (method: 'GET' | 'POST', url: string, body?: unknown, token?: string) => {
      const response = await app.inject({
        method,
        url: `/api/v1${url}`,
        ...(body === undefined ? {} : { payload: body as object }),
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      if (response.statusCode >= 400) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
      return response.json();
    };
    const { access_token: token } = await request('POST', '/auth/register', {
      name: 'Bench',
      email: 'bench@example.com',
      password: 'bench-secret',
      plan: 'monthly',
    });
    await request('POST', '/chatgpt/config', { api_key: 'sk-bench-0123456789abcdef' }, token);
    const channel = await request('POST', '/channels/', { channel_id: 'UC_bench_channel', name: 'Bench' }, token);
    const youtubeApi = await request(
      'POST',
      '/youtube-apis/',
      {
        name: 'Bench',
        channel_id: 'UC_bench_channel',
        client_id: 'bench.apps.googleusercontent.com',
        client_secret: 'GOCSPX-bench',
        refresh_token: google.issueRefreshToken('bench.apps.googleusercontent.com', account),
      },
      token,
    );
    const process = await request(
      'POST',
      '/processes/',
      {
        name: 'Bench story',
        channel_id: channel.id,
        youtube_api_id: youtubeApi.id,
        prompt_id: BUILTIN_DRAMA,
        language: 'pt',
        voice_id: HELENA,
      },
      token,
    );
    const { execution_id: executionId } = await request('POST', `/processes/${process.id}/execute`, undefined, token);

    const engine = createEngine({
      services: app.services,
      config,
      log: { info: () => undefined, warn: () => undefined, error: (obj) => console.error(obj) },
    });
    const started = performance.now();
    await engine.run(executionId);
    const wall = (performance.now() - started) / 1000;
    const execution = await request('GET', `/executions/${executionId}`, undefined, token);

    const tools = await resolveMediaTools(mediaToolsEnv(config));
    console.log(
      `bench:pipeline — a ${CHAPTERS}-chapter story, fake chat model and YouTube, local voice (espeak-ng), local scene cards`,
    );
    console.log(
      `ffmpeg ${tools.ffmpeg.version} (${tools.ffmpeg.source}), ffprobe ${tools.ffprobe.version} (${tools.ffprobe.source})`,
    );
    console.log(`story: "${execution.story_title}", video ${execution.video_duration_seconds ?? '?'} s\n`);
    console.log('step                 time (s)  status');
    for (const step of execution.steps as Array<{ key: string; status: string; duration_ms: number | null }>) {
      const seconds = step.duration_ms === null ? '-' : (step.duration_ms / 1000).toFixed(2);
      console.log(`${step.key.padEnd(20)} ${seconds.padStart(8)}  ${step.status}`);
    }
    console.log(`${'total'.padEnd(20)} ${wall.toFixed(2).padStart(8)}`);
    if (execution.status === 'error') console.log(`\nthe run ended at step ${execution.current_step + 1}: ${execution.error}`);
  } finally {
    await app.close();
    await database.close();
    await fake.close();
    await google.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
