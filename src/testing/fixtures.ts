import type {
  AuthResult,
  Channel,
  ChatModelConfig,
  Prompt,
  PlatformAccount,
  PlatformAccountList,
  PromptSummary,
  Process,
  PromptTexts,
  ProxyServer,
  Publication,
  User,
  Voice,
  MusicTrack,
  YoutubeApi,
} from '../api';

export const testUser: User = {
  id: '5f0c6e9e-3d7a-4d2b-9d8e-2f4b1c0a9e11',
  name: 'Ana Souza',
  email: 'ana@example.com',
  plan: 'starter',
  plan_name: 'Starter',
  billing_period: 'monthly',
  time_zone: 'America/Sao_Paulo',
  is_admin: false,
  email_verified: true,
  is_admin_pending: false,
  created_at: '2025-01-15T12:00:00.000Z',
};

export const adminUser: User = { ...testUser, id: 'a0000000-0000-4000-8000-000000000001', name: 'Root Admin', is_admin: true };

export function authResult(user: User = testUser, token = 'token-123'): AuthResult {
  return { access_token: token, token_type: 'bearer', user };
}

/** The preloaded state of a signed-in visitor (the guard then asks GET /auth/me). */
export const signedInState = { auth: { token: 'stored-token' } };

const stamp = '2025-03-01T12:00:00.000Z';

export function channelFixture(overrides: Partial<Channel> = {}): Channel {
  return {
    id: 'ch-1',
    channel_id: 'UCmainchannel000000000001',
    name: 'Main channel',
    min_views: 1000,
    is_active: true,
    subscriber_count: 1234567,
    video_count: 321,
    view_count: 98765432,
    stats_updated_at: stamp,
    process_count: 2,
    active_process_count: 0,
    created_at: stamp,
    updated_at: stamp,
    ...overrides,
  };
}

export function youtubeApiFixture(overrides: Partial<YoutubeApi> = {}): YoutubeApi {
  return {
    id: 'yt-1',
    name: 'Main OAuth',
    channel_id: 'UCmainchannel000000000001',
    client_id: 'client-1.apps.googleusercontent.com',
    has_client_secret: true,
    client_secret_masked: '••••••••cret',
    has_api_key: false,
    api_key_masked: null,
    has_refresh_token: true,
    secret_unreadable: false,
    is_active: true,
    is_enabled: true,
    is_connected: true,
    active_process_count: 0,
    last_tested: '2025-03-07T17:05:00.000Z',
    created_at: stamp,
    updated_at: stamp,
    ...overrides,
  };
}

export const OAUTH_REDIRECT_URI = 'http://localhost/api/v1/youtube-auth/callback';

export function youtubeApiList(configs: YoutubeApi[]) {
  return { youtube_apis: configs, total: configs.length, oauth_redirect_uri: OAUTH_REDIRECT_URI };
}

export function platformAccountFixture(overrides: Partial<PlatformAccount> = {}): PlatformAccount {
  return {
    id: 'pa-1',
    platform: 'tiktok',
    name: 'Stories on TikTok',
    username: 'nightstories',
    display_name: 'Night Stories',
    avatar_url: 'https://p16.tiktokcdn.example/avatar.jpg',
    external_id: 'open-id-1',
    is_active: true,
    is_connected: true,
    private_only: false,
    needs_authorization: false,
    choices: null,
    uses_operator_app: false,
    client_id: 'tiktok-client-key',
    has_client_secret: true,
    max_duration_sec: 600,
    disconnect_reason: null,
    last_tested: '2025-03-07T17:05:00.000Z',
    created_at: stamp,
    updated_at: stamp,
    ...overrides,
  };
}

export const PLATFORM_REDIRECT_URIS = {
  tiktok: 'http://localhost/api/v1/platform-auth/tiktok/callback',
  instagram: 'http://localhost/api/v1/platform-auth/instagram/callback',
};

export function platformAccountList(
  accounts: PlatformAccount[],
  operatorApps: PlatformAccountList['operator_apps'] = { tiktok: false, instagram: false },
): PlatformAccountList {
  return {
    platform_accounts: accounts,
    total: accounts.length,
    redirect_uris: PLATFORM_REDIRECT_URIS,
    operator_apps: operatorApps,
  };
}

export function proxyFixture(overrides: Partial<ProxyServer> = {}): ProxyServer {
  return {
    id: 'px-1',
    name: 'Office proxy',
    url: 'http://user:••••••••abcd@proxy.example.com:8080',
    has_password: true,
    is_active: true,
    is_connected: true,
    last_tested: '2025-03-07T17:05:00.000Z',
    created_at: stamp,
    updated_at: stamp,
    ...overrides,
  };
}

export function chatModelConfigFixture(overrides: Partial<ChatModelConfig> = {}): ChatModelConfig {
  return {
    has_api_key: true,
    api_key_masked: '••••••••wxyz',
    secret_unreadable: false,
    base_url: null,
    model: 'gpt-4o-mini',
    speech_base_url: null,
    speech_model: null,
    image_base_url: null,
    image_model: null,
    is_connected: true,
    last_tested: '2025-03-07T17:05:00.000Z',
    created_at: stamp,
    updated_at: stamp,
    ...overrides,
  };
}

export function promptTexts(prefix: string): PromptTexts {
  return {
    title: `${prefix} title`,
    premise: `${prefix} premise`,
    narrative_prompt: `${prefix} narrative`,
    chapter_1: `${prefix} chapter 1`,
    next_chapters: `${prefix} next chapters`,
    final_chapter: `${prefix} final chapter`,
  };
}

/** A full prompt (with pt and en texts); pass `languages: {}` for one with basic data only. */
export function promptFixture(overrides: Partial<Prompt> = {}): Prompt {
  const languages = overrides.languages ?? { pt: promptTexts('PT'), en: promptTexts('EN') };
  return {
    id: 'pr-1',
    user_id: null,
    name: 'Family secrets',
    description: 'A family hides a secret for decades.',
    category: 'suspense',
    is_active: true,
    // The keys of a fixture's languages are codes (a test may also pass one the server would refuse).
    language_codes: Object.keys(languages) as Prompt['language_codes'],
    text_language_codes: Object.entries(languages)
      .filter(([, texts]) => Object.values(texts ?? {}).some((text) => String(text).trim() !== ''))
      .map(([code]) => code) as Prompt['language_codes'],
    process_count: 3,
    active_process_count: 0,
    created_at: stamp,
    updated_at: '2025-03-07T17:05:00.000Z',
    content: 'Write a gripping story about a family secret.',
    ...overrides,
    languages,
  };
}

/** The list's row of a prompt: no content, no languages. */
export function promptSummaryOf(prompt: Prompt): PromptSummary {
  const { content: _content, languages: _languages, ...summary } = prompt;
  return summary;
}

export function voiceFixture(overrides: Partial<Voice> = {}): Voice {
  return {
    id: 'vo-1',
    name: 'Ana Narradora',
    type: 'Narrador',
    sample_url: '/api/v1/voice-samples/vo-1.wav',
    description: 'A warm Brazilian narrator.',
    language: 'pt',
    gender: 'female',
    provider: 'espeak',
    provider_voice_id: 'pt-br+f3',
    is_active: true,
    process_count: 2,
    active_process_count: 0,
    created_at: stamp,
    updated_at: '2025-03-07T17:05:00.000Z',
    ...overrides,
  };
}

/** A background music track as GET /music answers it (active, an MP3). */
export function musicFixture(overrides: Partial<MusicTrack> = {}): MusicTrack {
  return {
    id: 'mu-1',
    name: 'Quiet piano',
    mood: 'calm',
    format: 'mp3',
    size_bytes: 3_145_728,
    duration_seconds: 154.3,
    is_active: true,
    audio_url: '/api/v1/music/mu-1/audio?expires=1741350000000&signature=abc',
    process_count: 1,
    created_at: stamp,
    updated_at: '2025-03-07T17:05:00.000Z',
    ...overrides,
  };
}

/** A process as GET /processes answers it (idle, active, never executed). */
export function processFixture(overrides: Partial<Process> = {}): Process {
  return {
    id: 'p-1',
    name: 'Night stories',
    channel_id: 'ch-1',
    channel_name: 'Main channel',
    youtube_api_id: 'yt-1',
    youtube_api_name: 'Main OAuth',
    prompt_id: 'pr-1',
    prompt_name: 'Family secrets',
    language: 'pt',
    voice_id: 'vo-1',
    voice_name: 'Ana Narradora',
    is_active: true,
    status: 'idle',
    execution_step: null,
    execution_steps: null,
    last_execution: null,
    next_execution: '2025-03-10T12:00:00.000Z',
    publication_time: '09:00',
    publish_mode: 'auto',
    format: 'video',
    music_id: null,
    music_name: null,
    music_active: null,
    last_error: null,
    needs: [],
    latest_execution_id: null,
    created_at: '2025-03-07T12:00:00.000Z',
    updated_at: '2025-03-07T12:00:00.000Z',
    ...overrides,
  };
}

/** A publication as GET /publications answers it (published, public, on YouTube). */
export function publicationFixture(overrides: Partial<Publication> = {}): Publication {
  const videoId = overrides.video_id === undefined ? 'dQw4w9WgXcQ' : overrides.video_id;
  return {
    id: 'pub-1',
    process_id: 'p-1',
    execution_id: 'ex-1',
    process_name: 'Night stories',
    channel_id: 'ch-1',
    channel_name: 'Main channel',
    video_title: 'The secret in the attic',
    video_id: videoId,
    published_at: '2025-03-08T12:00:00.000Z',
    views: 1234,
    likes: 56,
    status: 'published',
    visibility: 'public',
    failure_reason: null,
    below_min_views: false,
    thumbnail_url: videoId ? `https://i.ytimg.com/vi/${videoId}/mqdefault.jpg` : null,
    watch_url: videoId ? `https://www.youtube.com/watch?v=${videoId}` : null,
    created_at: '2025-03-07T12:00:00.000Z',
    updated_at: '2025-03-08T12:00:00.000Z',
    ...overrides,
  };
}
