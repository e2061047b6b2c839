import type { FakeGoogle } from '../fakes/google';
import { call, signUp, type TestContext } from './helper';

/** The built-in catalogue's drama prompt and Helena (pt-BR, the local voice). */
export const BUILTIN_DRAMA = '5ebd8341-10e8-4ab7-85f4-5694d6a6f88b';
export const HELENA = '387bfe25-192a-4eb3-aa8b-be1f9e202b9a';
export const RUNNABLE_KEY = 'sk-test-runnable-key-0123456789abcdef';

export interface RunnableUser {
  token: string;
  userId: string;
  channel: string;
  config: string;
  platformChannel: string;
}

/**
 * A user who can run a process to the upload: a chat-model key (the app's OPENAI_BASE_URL is the
 * fake), a channel, and a YouTube configuration authorized on the fake Google for that channel.
 */
export async function runnableUser(
  ctx: TestContext,
  google: FakeGoogle,
  platformChannel = `UC_run_${Date.now()}`,
): Promise<RunnableUser> {
  const { token, user } = await signUp(ctx.app);
  const chat = await call(ctx.app, 'POST', '/api/v1/chatgpt/config', { token, body: { api_key: RUNNABLE_KEY } });
  if (chat.statusCode !== 201) throw new Error(`chat-model config: ${chat.body}`);
  google.addClient('runnable.apps.googleusercontent.com', 'GOCSPX-runnable');
  const channel = await call(ctx.app, 'POST', '/api/v1/channels/', {
    token,
    body: { channel_id: platformChannel, name: 'Histórias' },
  });
  const refreshToken = google.issueRefreshToken(
    'runnable.apps.googleusercontent.com',
    google.addAccount([{ id: platformChannel, title: 'Histórias', subscriberCount: 1, videoCount: 0, viewCount: 0 }]),
  );
  const config = await call(ctx.app, 'POST', '/api/v1/youtube-apis/', {
    token,
    body: {
      name: 'Main',
      channel_id: platformChannel,
      client_id: 'runnable.apps.googleusercontent.com',
      client_secret: 'GOCSPX-runnable',
      refresh_token: refreshToken,
    },
  });
  if (config.statusCode !== 201) throw new Error(`youtube config: ${config.body}`);
  return { token, userId: user.id, channel: channel.json().id, config: config.json().id, platformChannel };
}

/** A process of `user` with the built-in prompt and voice; answers its id. */
export async function runnableProcess(
  ctx: TestContext,
  user: RunnableUser,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const response = await call(ctx.app, 'POST', '/api/v1/processes/', {
    token: user.token,
    body: {
      name: 'Segredos',
      channel_id: user.channel,
      youtube_api_id: user.config,
      prompt_id: BUILTIN_DRAMA,
      language: 'pt',
      voice_id: HELENA,
      ...overrides,
    },
  });
  if (response.statusCode !== 201) throw new Error(`process: ${response.body}`);
  return response.json().id;
}

/** Polls `read` every 50 ms until `done` says so (or fails after `ms`). */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
