import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FAKE_ELEVENLABS_VOICES, startFakeElevenLabs, type FakeElevenLabs } from '../fakes/elevenlabs';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { closedPort, startSilentServer, startSocks5Proxy, startTarget, type ProxyLog, type Running } from '../fakes/proxies';
import { createChatModelClient } from '../src/providers/chatModel';
import { createElevenLabsClient } from '../src/providers/elevenlabs';
import { createOpenAIMediaClient } from '../src/providers/openaiMedia';
import { ProviderError } from '../src/providers/providerError';
import { closeSharedDispatchers, proxyDispatcher, type SocksFailure, SocksProxyError } from '../src/providers/proxies';
import { fetchWithRetry } from '../src/providers/retry';
import { checkProxy } from '../src/providers/proxyCheck';
import { PublishError, createYoutubePublisher } from '../src/providers/youtubeUpload';

/**
 * socks5:// proxies in the engine's clients: every client that the video engine uses (chat model,
 * speech, images, ElevenLabs, the YouTube publisher) sends its requests through the SOCKS5 proxy
 * of `proxyDispatcher`, with the URL's credentials; refusals say why; and the proxy test says
 * "connected" exactly when those clients can use the proxy. The fake proxy (fakes/proxies.ts)
 * counts the CONNECTs and the HTTP requests that go through them.
 */

const USER = 'proxy user';
const PASSWORD = 'p@ss:w/rd';
const KEY = 'sk-test-socks-key-0123456789abcdefWXYZ';
const ELEVEN_KEY = 'eleven-socks-key-0123456789';
const GOOGLE_CLIENT = { clientId: 'socks.apps.googleusercontent.com', clientSecret: 'GOCSPX-socks' };
const CHANNEL = 'UC_socks_channel';

let socks: Running & ProxyLog;
let openSocks: Running & ProxyLog;
let fake: FakeOpenAI;
let eleven: FakeElevenLabs;
let google: FakeGoogle;
let dir: string;
let credentials: typeof GOOGLE_CLIENT & { refreshToken: string };

/** The proxy's URL with credentials percent-encoded, as admins type them. */
const socksUrl = (user = USER, password = PASSWORD) =>
  `socks5://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${socks.port}`;

beforeAll(async () => {
  socks = await startSocks5Proxy({ username: USER, password: PASSWORD });
  openSocks = await startSocks5Proxy();
  fake = await startFakeOpenAI({ apiKeys: [KEY] });
  eleven = await startFakeElevenLabs({ apiKeys: [ELEVEN_KEY] });
  google = await startFakeGoogle();
  google.addClient(GOOGLE_CLIENT.clientId, GOOGLE_CLIENT.clientSecret);
  const account = google.addAccount([{ id: CHANNEL, title: 'Socks', subscriberCount: 3, videoCount: 0, viewCount: 9 }]);
  credentials = { ...GOOGLE_CLIENT, refreshToken: google.issueRefreshToken(GOOGLE_CLIENT.clientId, account) };
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-socks-'));
});

afterEach(() => fake.reset());

afterAll(async () => {
  await closeSharedDispatchers();
  await Promise.all([socks.close(), openSocks.close(), fake.close(), eleven.close(), google.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** What the proxy logged from now on, when `work` is done. */
async function through<T>(proxy: ProxyLog, work: () => Promise<T>) {
  const tunnels = proxy.tunnels.length;
  const requests = proxy.requests.length;
  const refusals = proxy.refusals;
  const result = await work();
  return {
    result,
    tunnels: proxy.tunnels.slice(tunnels),
    requests: proxy.requests.slice(requests),
    refusals: proxy.refusals - refusals,
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

const host = (port: number) => `127.0.0.1:${port}`;

describe('proxyDispatcher with a socks5:// proxy', () => {
  test('sends the request through the proxy, with the percent-decoded credentials', async () => {
    const dispatcher = proxyDispatcher(socksUrl())!;
    try {
      const seen = await through(socks, async () => {
        const response = await fetchWithRetry(
          `${fake.url}/models`,
          { method: 'GET', headers: { authorization: `Bearer ${KEY}` }, dispatcher },
          { timeoutMs: 5_000, maxRetries: 0 },
        );
        expect(response.status).toBe(200);
        await response.arrayBuffer();
      });
      expect(seen).toMatchObject({ tunnels: [host(fake.port)], requests: [`GET ${host(fake.port)}/v1/models`], refusals: 0 });
      // An IP literal is asked for as an IPv4 address.
      expect(socks.addressTypes.at(-1)).toBe(1);
    } finally {
      await dispatcher.close();
    }
  });

  test('a proxy without authentication is used without credentials', async () => {
    const seen = await through(openSocks, async () => {
      const response = await fetchWithRetry(
        `${fake.url}/models`,
        { method: 'GET', headers: { authorization: `Bearer ${KEY}` } },
        { timeoutMs: 5_000, maxRetries: 0, proxyUrl: `socks5://127.0.0.1:${openSocks.port}` },
      );
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    });
    expect(seen.requests).toEqual([`GET ${host(fake.port)}/v1/models`]);
  });

  test.each<[string, () => string, string, SocksFailure['step']]>([
    [
      'a wrong password',
      () => socksUrl(USER, 'wrong-password'),
      'the SOCKS5 proxy refused the username or password',
      'auth_failed',
    ],
    [
      'no credentials for a proxy that needs them',
      () => `socks5://127.0.0.1:${socks.port}`,
      'the SOCKS5 proxy requires a username and password',
      'auth_required',
    ],
  ])('%s: unreachable with the reason, not retried, nothing sent', async (_, url, reason, step) => {
    const seen = await through(socks, async () => {
      const error = await rejection(
        fetchWithRetry(
          `${fake.url}/models`,
          { method: 'GET' },
          { timeoutMs: 5_000, maxRetries: 3, backoffBaseMs: 1, proxyUrl: url() },
        ),
      );
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ kind: 'unreachable', message: `could not reach the server (${reason})` });
      expect((error as Error).message).not.toContain(PASSWORD);
    });
    expect(seen.tunnels).toEqual([]);
    expect(fake.requests).toHaveLength(0);
    // The same refusal would come again: one attempt only.
    if (step === 'auth_failed') expect(seen.refusals).toBe(1);
  });

  test('credentials longer than SOCKS5 allows fail before anything is sent', async () => {
    const dispatcher = proxyDispatcher(socksUrl(USER, 'x'.repeat(256)))!;
    try {
      const seen = await through(socks, () =>
        rejection(fetchWithRetry(`${fake.url}/models`, { method: 'GET', dispatcher }, { timeoutMs: 5_000, maxRetries: 0 })),
      );
      expect(seen.result).toMatchObject({
        kind: 'unreachable',
        message: 'could not reach the server (SOCKS5 username and password must be at most 255 bytes each)',
      });
      expect(seen.tunnels).toEqual([]);
    } finally {
      await dispatcher.close();
    }
  });

  test('the proxy reaching no target is a refusal with its reply code', async () => {
    const dead = await closedPort();
    const dispatcher = proxyDispatcher(socksUrl())!;
    try {
      const error = await rejection(
        fetchWithRetry(`http://127.0.0.1:${dead}/`, { method: 'GET', dispatcher }, { timeoutMs: 5_000, maxRetries: 0 }),
      );
      expect(error).toMatchObject({
        kind: 'unreachable',
        message: 'could not reach the server (the SOCKS5 proxy could not reach the target (reply 5))',
      });
    } finally {
      await dispatcher.close();
    }
  });

  test('the error of a handshake never carries the proxy settings (its password)', async () => {
    const dispatcher = proxyDispatcher(socksUrl(USER, 'wrong-password'))!;
    try {
      const error = await rejection(dispatcher.request({ origin: new URL(fake.url).origin, path: '/v1/models', method: 'GET' }));
      expect(error).toBeInstanceOf(SocksProxyError);
      expect(error).toMatchObject({ code: 'ESOCKS', failure: { step: 'auth_failed' } });
      expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain('wrong-password');
    } finally {
      await dispatcher.close();
    }
  });
});

describe("the engine's clients through a socks5:// proxy", () => {
  test('the chat model (official openai client): requests go through the proxy; refused credentials are unreachable', async () => {
    const dispatcher = proxyDispatcher(socksUrl())!;
    const wrong = proxyDispatcher(socksUrl(USER, 'wrong-password'))!;
    try {
      const client = createChatModelClient({ apiKey: KEY, baseUrl: fake.url, model: 'gpt-4o-mini', dispatcher, maxRetries: 0 });
      const seen = await through(socks, () => client.complete({ messages: [{ role: 'user', content: 'Say hi' }] }));
      expect(seen.result).toEqual(expect.any(String));
      expect(seen.requests).toEqual([`POST ${host(fake.port)}/v1/chat/completions`]);
      expect(fake.requests).toHaveLength(1);

      const refused = createChatModelClient({
        apiKey: KEY,
        baseUrl: fake.url,
        model: 'gpt-4o-mini',
        dispatcher: wrong,
        maxRetries: 0,
      });
      const failed = await through(socks, () => rejection(refused.complete({ messages: [{ role: 'user', content: 'Say hi' }] })));
      expect(failed.result).toBeInstanceOf(ProviderError);
      expect(failed.result).toMatchObject({ kind: 'unreachable' });
      expect(failed.refusals).toBe(1);
      expect(fake.requests).toHaveLength(1);
    } finally {
      await Promise.all([dispatcher.close(), wrong.close()]);
    }
  });

  test('OpenAI speech and images: every request goes through the proxy', async () => {
    const client = createOpenAIMediaClient({
      apiKey: KEY,
      baseUrl: fake.url,
      proxyUrl: socksUrl(),
      timeoutMs: 10_000,
      maxRetries: 0,
    });
    try {
      const seen = await through(socks, async () => {
        await client.speak({ text: 'Through the socks proxy.', voice: 'alloy', outFile: path.join(dir, 'speech.wav') });
        await client.image({ prompt: 'A lighthouse at dusk', outFile: path.join(dir, 'image.png') });
      });
      expect(fs.statSync(path.join(dir, 'speech.wav')).size).toBeGreaterThan(44);
      expect(fs.readFileSync(path.join(dir, 'image.png')).subarray(1, 4).toString('latin1')).toBe('PNG');
      expect(seen.tunnels.length).toBeGreaterThan(0);
      expect(seen.tunnels.every((t) => t === host(fake.port))).toBe(true);
      expect(seen.requests.map((r) => r.replace(/\?.*$/, ''))).toEqual(
        fake.requests.map((r) => `${r.method} ${host(fake.port)}${r.path}`),
      );
      expect(fake.requests.map((r) => r.path)).toEqual(expect.arrayContaining(['/v1/audio/speech', '/v1/images/generations']));
    } finally {
      await client.close();
    }
  });

  test('ElevenLabs: the narration goes through the proxy', async () => {
    const client = createElevenLabsClient({ apiKey: ELEVEN_KEY, baseUrl: eleven.url, proxyUrl: socksUrl(), timeoutMs: 10_000 });
    try {
      const seen = await through(socks, () =>
        client.speak({
          text: 'A quiet night.',
          voiceId: FAKE_ELEVENLABS_VOICES[0]!.voice_id,
          outFile: path.join(dir, 'eleven.wav'),
        }),
      );
      expect(seen.tunnels).toEqual([host(eleven.port)]);
      expect(seen.requests).toEqual([
        `POST ${host(eleven.port)}/v1/text-to-speech/${FAKE_ELEVENLABS_VOICES[0]!.voice_id}?output_format=pcm_22050`,
      ]);
      expect(eleven.requests).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  describe('the YouTube publisher (google-auth-library and googleapis over gaxios)', () => {
    const publisher = () =>
      createYoutubePublisher(
        { tokenUrl: google.tokenUrl, authUrl: google.authUrl, apiUrl: google.apiUrl },
        { chunkBytes: 256 * 1024, backoffBaseMs: 1, maxRetries: 1, timeoutMs: 10_000 },
      );

    test('the token refresh, the resumable upload, the thumbnail, the captions and the statistics go through the proxy', async () => {
      const video = path.join(dir, 'video.mp4');
      fs.writeFileSync(video, crypto.randomBytes(600_000));
      const thumbnail = path.join(dir, 'thumb.jpg');
      fs.writeFileSync(thumbnail, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), crypto.randomBytes(5_000)]));
      const captions = path.join(dir, 'captions.srt');
      fs.writeFileSync(captions, '1\n00:00:00,000 --> 00:00:02,000\nOlá.\n');
      const before = google.requests.length;
      const proxyUrl = socksUrl();
      const seen = await through(socks, async () => {
        const { videoId } = await publisher().uploadVideo({
          credentials,
          file: video,
          metadata: {
            title: 'Pelo proxy',
            description: 'Enviado por um proxy SOCKS5.',
            tags: ['socks'],
            language: 'pt-BR',
            publishAt: null,
            madeForKids: false,
            syntheticMedia: true,
          },
          onSession: async () => undefined,
          proxyUrl,
        });
        await publisher().setThumbnail({ credentials, videoId, file: thumbnail, proxyUrl });
        await publisher().insertCaptions({ credentials, videoId, language: 'pt', file: captions, proxyUrl });
        const stats = await publisher().videoStats({ credentials, videoIds: [videoId], proxyUrl });
        const channels = await publisher().channelStats({ credentials, channelIds: [CHANNEL], proxyUrl });
        return { videoId, stats, channels };
      });
      const { videoId, stats, channels } = seen.result;
      expect(google.videos.has(videoId)).toBe(true);
      expect(google.thumbnails.get(videoId)).toMatchObject({ contentType: 'image/jpeg' });
      expect(google.captions.at(-1)).toMatchObject({ videoId, language: 'pt', body: expect.stringContaining('Olá.') });
      expect(stats.get(videoId)).toMatchObject({ privacyStatus: 'private' });
      expect(channels.get(CHANNEL)).toMatchObject({ subscribers: 3 });

      // Every request Google received came through the proxy, and nothing else went through it.
      const googleHost = new URL(google.url).host;
      const received = google.requests.slice(before).map((r) => `${r.method} ${googleHost}${r.path}`);
      expect(received).toEqual(
        expect.arrayContaining([
          `POST ${googleHost}/token`,
          `POST ${googleHost}/upload/youtube/v3/videos`,
          `PUT ${googleHost}/upload/youtube/v3/videos`,
          `POST ${googleHost}/upload/youtube/v3/thumbnails/set`,
          `GET ${googleHost}/youtube/v3/videos`,
          `GET ${googleHost}/youtube/v3/channels`,
        ]),
      );
      expect(seen.requests.map((r) => r.replace(/\?.*$/, ''))).toEqual(received);
      expect(seen.tunnels.every((t) => t === googleHost)).toBe(true);
      expect(seen.refusals).toBe(0);
    });

    test('refused credentials fail the call as a network failure that names the proxy’s refusal', async () => {
      const before = google.requests.length;
      const error = await rejection(
        publisher().videoStats({ credentials, videoIds: ['abc'], proxyUrl: socksUrl(USER, 'wrong-password') }),
      );
      expect(error).toBeInstanceOf(PublishError);
      expect(error).toMatchObject({ kind: 'network' });
      expect((error as Error).message).toMatch(/SOCKS5 proxy refused the username or password/);
      expect((error as Error).message).not.toContain('wrong-password');
      expect(google.requests.length).toBe(before);
    });
  });
});

describe('the proxy test says "connected" exactly when the engine can use the proxy', () => {
  let target: Running & { requests: { method: string; url: string; host: string }[] };
  let silent: Running;

  beforeAll(async () => {
    target = await startTarget();
    silent = await startSilentServer();
  });
  afterAll(async () => {
    await Promise.all([target.close(), silent.close()]);
  });

  test.each<[string, () => Promise<string>, string | null]>([
    ['username and password', async () => socksUrl(), null],
    ['no authentication needed', async () => `socks5://127.0.0.1:${openSocks.port}`, null],
    [
      'a wrong password',
      async () => socksUrl(USER, 'wrong-password'),
      'SOCKS5 authentication failed: check the username and password',
    ],
    ['no credentials', async () => `socks5://127.0.0.1:${socks.port}`, 'the SOCKS5 proxy requires a username and password'],
    ['a closed port', async () => `socks5://127.0.0.1:${await closedPort()}`, 'connection refused'],
    [
      'a web server, not a proxy',
      async () => `socks5://127.0.0.1:${target.port}`,
      'the server does not speak the SOCKS5 proxy protocol',
    ],
    ['a server that never answers', async () => `socks5://127.0.0.1:${silent.port}`, 'timed out after 0.5 s'],
  ])('%s', async (_, makeUrl, reason) => {
    const url = await makeUrl();
    const checkTarget = `http://localhost:${target.port}/generate_204`;
    const result = await checkProxy({ url: new URL(url), target: checkTarget, allowPrivate: true, timeoutMs: 500 });
    expect(result.ok).toBe(reason === null);
    if (reason !== null) expect(result.error).toBe(reason);

    // The engine's own client, through the same proxy, to the same target.
    const engineCall = await fetchWithRetry(
      checkTarget,
      { method: 'HEAD' },
      { timeoutMs: 500, maxRetries: 0, proxyUrl: url },
    ).then(
      async (response) => {
        await response.arrayBuffer();
        return true;
      },
      () => false,
    );
    expect(engineCall).toBe(result.ok);
  });

  test('a proxy that cannot reach the target reports the SOCKS5 reply', async () => {
    const dead = await closedPort();
    const result = await checkProxy({ url: new URL(socksUrl()), target: `http://127.0.0.1:${dead}/`, allowPrivate: true });
    expect(result).toMatchObject({
      ok: false,
      error: `the SOCKS5 proxy could not reach 127.0.0.1:${dead} (reply 5)`,
      failure: { key: 'proxies.failure.socksConnectFailed' },
    });
  });

  test('a proxy on a private address is refused unless private addresses are allowed', async () => {
    const result = await checkProxy({
      url: new URL(socksUrl()),
      target: `http://localhost:${target.port}/`,
      allowPrivate: false,
    });
    expect(result).toMatchObject({ ok: false, failure: { key: 'proxies.failure.addressNotAllowed' } });
  });
});
