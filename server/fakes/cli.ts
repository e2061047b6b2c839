/**
 * `npm run fakes`: the outside services on 127.0.0.1, so every flow can be clicked through without
 * a network. Prints the environment that points the console at them.
 *   FAKE_GOOGLE_PORT (8788): OAuth consent + token endpoints and the YouTube Data API; any OAuth
 *     client id/secret is accepted, and consent is given by an account owning FAKE_CHANNEL_ID.
 *   FAKE_OPENAI_PORT (8787): the OpenAI API; any key is accepted except ones containing "invalid".
 *   FAKE_PROXY_PORT (8789): an HTTP CONNECT proxy requiring proxyuser:proxypass.
 *   FAKE_ELEVENLABS_PORT (FAKE_PROXY_PORT + 1, so 8790): the ElevenLabs API; any key is accepted except ones containing "invalid".
 *   FAKE_SMTP_PORT (8791): a mail server keeping every message; FAKE_SMTP_INBOX_PORT (8792) lists them
 *     as JSON at /messages, so confirmation and reset links can be followed.
 *   FAKE_TIKTOK_PORT (FAKE_SMTP_INBOX_PORT + 1, so 8793): TikTok's Login Kit (PKCE) and Content Posting API;
 *     any client key is accepted, and consent is given by the creator @fakestories (an unaudited
 *     app's rules apply unless the console sets TIKTOK_APP_AUDITED).
 *   FAKE_META_PORT (FAKE_SMTP_INBOX_PORT + 2, so 8794): Meta's login dialog, Graph API and upload host;
 *     any app id is accepted, and consent is given by a user whose one Facebook Page has the
 *     Instagram professional account @fake.stories linked.
 * The OpenAI fake also speaks (/v1/audio/speech, WAV or PCM) and draws (/v1/images/generations, PNG).
 *   FAKE_STORY=brief: chapters of two short sentences instead of two long ones (the browser suite's
 *     choice: a shorter narration is a shorter video to render).
 */
import { startFakeElevenLabs } from './elevenlabs';
import { startFakeGoogle } from './google';
import { startFakeMeta } from './meta';
import { startFakeOpenAI } from './openai';
import { startHttpProxy } from './proxies';
import { startFakeSmtp } from './smtp';
import { createStoryResponder } from './storyResponder';
import { startFakeTiktok } from './tiktok';

async function main(): Promise<void> {
  const channelId = process.env.FAKE_CHANNEL_ID ?? 'UCfakeChannel00000000001';
  const google = await startFakeGoogle({
    port: Number(process.env.FAKE_GOOGLE_PORT ?? 8788),
    lenient: {
      channels: [{ id: channelId, title: 'Fake Stories Channel', subscriberCount: 1520, videoCount: 48, viewCount: 230_400 }],
    },
  });
  const openai = await startFakeOpenAI({
    port: Number(process.env.FAKE_OPENAI_PORT ?? 8787),
    // Any key works, except one that says it is invalid: both test outcomes can be clicked.
    rejectKey: (key: string) => key.includes('invalid'),
    // Titles, premises, chapters and summaries the engine can make a video of.
    respond: createStoryResponder({ brief: process.env.FAKE_STORY === 'brief' }),
  });
  const proxyPort = Number(process.env.FAKE_PROXY_PORT ?? 8789);
  const proxy = await startHttpProxy({ port: proxyPort, username: 'proxyuser', password: 'proxypass' });
  const elevenlabs = await startFakeElevenLabs({
    // The port after the proxy's: 8790 by default, E2E_PORT + 84 in the browser suite.
    port: Number(process.env.FAKE_ELEVENLABS_PORT ?? proxyPort + 1),
    rejectKey: (key: string) => key.includes('invalid'),
  });

  const inboxPort = Number(process.env.FAKE_SMTP_INBOX_PORT ?? 8792);
  const smtp = await startFakeSmtp({ port: Number(process.env.FAKE_SMTP_PORT ?? 8791), inboxPort });
  // The ports after the inbox's (8793 and 8794; E2E_PORT + 87 and + 88 in the browser suite).
  const tiktok = await startFakeTiktok({
    port: Number(process.env.FAKE_TIKTOK_PORT ?? inboxPort + 1),
    lenient: {
      user: {
        openId: 'fake-open-id-0001',
        displayName: 'Fake Stories',
        username: 'fakestories',
        avatarUrl: 'https://example.com/fake-stories.png',
        maxVideoPostDurationSec: 600,
      },
    },
  });
  const meta = await startFakeMeta({
    port: Number(process.env.FAKE_META_PORT ?? inboxPort + 2),
    lenient: {
      users: [
        {
          id: '100000000000001',
          name: 'Fake Owner',
          pages: [
            {
              id: '200000000000001',
              name: 'Fake Stories Page',
              instagram: {
                id: '17841400000000001',
                username: 'fake.stories',
                name: 'Fake Stories',
                profilePictureUrl: 'https://example.com/fake-stories-ig.png',
              },
            },
          ],
        },
      ],
    },
  });

  console.log(`Fakes are running:
  Google OAuth + YouTube Data API  ${google.url}   (channel owned by the consenting account: ${channelId})
  OpenAI API                       ${openai.url}   (any key works; a key containing "invalid" is refused)
                                   chat, speech (wav/pcm) and images (png)
  HTTP proxy                       http://proxyuser:proxypass@127.0.0.1:${proxy.port}
  ElevenLabs API                   ${elevenlabs.url}   (any key works; a key containing "invalid" is refused)
  Mail (SMTP)                      ${smtp.url}   (messages listed at ${smtp.inboxUrl}/messages)
  TikTok (Login Kit + Posting API) ${tiktok.url}   (any client key; consent by @fakestories)
  Meta (dialog + Graph + upload)   ${meta.url}   (any app id; consent by the owner of @fake.stories)

Start the console against them with:
  GOOGLE_AUTH_URL=${google.authUrl} GOOGLE_TOKEN_URL=${google.tokenUrl} YOUTUBE_API_URL=${google.apiUrl} \\
  OPENAI_BASE_URL=${openai.url} PROXY_CHECK_URL=${google.url}/generate_204 \\
  ELEVENLABS_BASE_URL=${elevenlabs.url} ELEVENLABS_API_KEY=fake-elevenlabs-key \\
  SMTP_URL=${smtp.url} \\
  TIKTOK_AUTH_URL=${tiktok.authUrl} TIKTOK_API_URL=${tiktok.apiUrl} TIKTOK_UPLOAD_ORIGINS=${tiktok.url} \\
  TIKTOK_CLIENT_KEY=fake-tiktok-key TIKTOK_CLIENT_SECRET=fake-tiktok-secret \\
  META_AUTH_URL=${meta.authUrl} META_GRAPH_URL=${meta.apiUrl} META_UPLOAD_URL=${meta.uploadUrl} \\
  META_APP_ID=1000000000001 META_APP_SECRET=fake-meta-secret \\
  ALLOW_PRIVATE_URLS=true npm start
(ALLOW_PRIVATE_URLS lets the console reach the fake proxy, which runs on this machine.)`);

  const stop = async () => {
    await Promise.allSettled([
      google.close(),
      openai.close(),
      proxy.close(),
      elevenlabs.close(),
      smtp.close(),
      tiktok.close(),
      meta.close(),
    ]);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
