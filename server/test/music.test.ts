import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { pcmToWav } from '../src/lib/wav';
import { resolveMediaTools } from '../src/media/ffmpeg';
import { MUSIC_MAX_BYTES } from '../src/services/music';
import { TEST_ADMIN_EMAIL, buildTestApp, call, signUp, type TestContext } from './helper';

let ctx: TestContext;
let admin: string;
let user: string;
let scratch: string;

/** A stereo tone of `seconds` at 44.1 kHz, 16-bit, as a WAV file's bytes. */
function toneWav(seconds: number, amplitude = 0.3): Buffer {
  const rate = 44_100;
  const pcm = Buffer.alloc(Math.round(seconds * rate) * 4);
  for (let i = 0; i < pcm.length / 4; i += 1) {
    const sample = Math.round(Math.sin((2 * Math.PI * 220 * i) / rate) * amplitude * 32767);
    pcm.writeInt16LE(sample, i * 4);
    pcm.writeInt16LE(sample, i * 4 + 2);
  }
  return pcmToWav(pcm, { sampleRate: rate, channels: 2 });
}

beforeAll(async () => {
  ctx = await buildTestApp();
  admin = (await signUp(ctx.app, { email: TEST_ADMIN_EMAIL })).token;
  user = (await signUp(ctx.app)).token;
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'music-test-'));
}, 60_000);

afterAll(async () => {
  await ctx.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

interface Track {
  id: string;
  name: string;
  mood: string;
  format: string;
  size_bytes: number;
  duration_seconds: number;
  is_active: boolean;
  audio_url: string;
  process_count: number;
}

function upload(
  bytes: Buffer,
  query: Record<string, string>,
  options: { token?: string; type?: string; language?: string } = {},
) {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v1/music/?${new URLSearchParams(query).toString()}`,
    payload: bytes,
    headers: {
      authorization: `Bearer ${options.token ?? admin}`,
      'content-type': options.type ?? 'audio/wav',
      ...(options.language ? { 'accept-language': options.language } : {}),
    },
  });
}

async function rowCount(): Promise<number> {
  const rows = await ctx.database.db.execute(sql`select count(*)::int as n from music_tracks`);
  return Number((rows as unknown as { rows: Array<{ n: number }> }).rows[0]!.n);
}

const musicFiles = () => fs.readdirSync(path.join(ctx.config.mediaDir, 'music')).filter((name) => !name.startsWith('.'));

describe('the music library', () => {
  test('an admin uploads a WAV: it is measured, listed for every user and played by its signed link with ranges', async () => {
    const wav = toneWav(6);
    const response = await upload(wav, { name: '  Quiet piano  ', mood: 'calm' });
    expect(response.statusCode).toBe(201);
    const track = response.json() as Track;
    expect(track).toMatchObject({
      name: 'Quiet piano',
      mood: 'calm',
      format: 'wav',
      size_bytes: wav.length,
      is_active: true,
      process_count: 0,
    });
    expect(track.duration_seconds).toBeCloseTo(6, 0);
    expect(track.audio_url).toMatch(new RegExp(`^/api/v1/music/${track.id}/audio\\?expires=\\d+&signature=`));

    const list = await call(ctx.app, 'GET', '/api/v1/music/?active_only=true', { token: user });
    expect(list.statusCode).toBe(200);
    expect(list.json().music.map((t: Track) => t.id)).toContain(track.id);

    // No session needed (an <audio> element sends none), the link is.
    const whole = await ctx.app.inject({ method: 'GET', url: track.audio_url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('audio/wav');
    expect(whole.rawPayload.equals(wav)).toBe(true);
    const part = await ctx.app.inject({ method: 'GET', url: track.audio_url, headers: { range: 'bytes=0-99' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-99/${wav.length}`);
    expect(part.rawPayload.equals(wav.subarray(0, 100))).toBe(true);
    const tampered = track.audio_url.replace(/signature=./, (s) =>
      s.endsWith('A') ? `${s.slice(0, -1)}B` : `${s.slice(0, -1)}A`,
    );
    expect((await ctx.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(403);
  }, 60_000);

  test('an MP3 is accepted whatever content type says, and what it is comes from its bytes', async () => {
    const tools = await resolveMediaTools();
    const source = path.join(scratch, 'tone.wav');
    const mp3 = path.join(scratch, 'tone.mp3');
    fs.writeFileSync(source, toneWav(8));
    execFileSync(tools.ffmpeg.path, ['-loglevel', 'error', '-y', '-i', source, '-c:a', 'libmp3lame', '-b:a', '96k', mp3]);
    const response = await upload(
      fs.readFileSync(mp3),
      { name: 'Night drive', mood: 'mysterious' },
      { type: 'application/octet-stream' },
    );
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ format: 'mp3', mood: 'mysterious' });
    const played = await ctx.app.inject({ method: 'GET', url: (response.json() as Track).audio_url });
    expect(played.headers['content-type']).toBe('audio/mpeg');
  }, 60_000);

  test.each([
    ['a user', () => upload(toneWav(6), { name: 'x', mood: 'calm' }, { token: user }), 403],
    ['no name', () => upload(toneWav(6), { name: ' ', mood: 'calm' }), 422],
    ['an unknown mood', () => upload(toneWav(6), { name: 'x', mood: 'sleepy' }), 422],
    ['no file', () => upload(Buffer.alloc(0), { name: 'x', mood: 'calm' }), 422],
    ['a PNG', () => upload(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), { name: 'x', mood: 'calm' }), 415],
    [
      'a PNG sent as a PNG',
      () => upload(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), { name: 'x', mood: 'calm' }, { type: 'image/png' }),
      415,
    ],
    ['a damaged MP3', () => upload(Buffer.concat([Buffer.from('ID3'), Buffer.alloc(4000, 7)]), { name: 'x', mood: 'calm' }), 422],
    ['a track of 2 seconds', () => upload(toneWav(2), { name: 'x', mood: 'calm' }), 422],
    ['a JSON body', () => call(ctx.app, 'POST', '/api/v1/music/?name=x&mood=calm', { token: admin, body: { a: 1 } }), 422],
  ])(
    '%s is refused with a detail, and nothing is stored',
    async (_, send, status) => {
      const before = await rowCount();
      const filesBefore = musicFiles();
      const response = await send();
      expect(response.statusCode).toBe(status);
      expect(typeof response.json().detail).toBe('string');
      if (status === 415) expect(response.json().detail).toBe('The file is not MP3, WAV or Ogg audio');
      expect(await rowCount()).toBe(before);
      expect(musicFiles()).toEqual(filesBefore);
    },
    60_000,
  );

  test("a file over 20 MB is 413 in the caller's language, before it is stored", async () => {
    const before = await rowCount();
    const big = Buffer.concat([toneWav(1), Buffer.alloc(MUSIC_MAX_BYTES)]);
    const response = await upload(big, { name: 'Too long', mood: 'epic' }, { language: 'pt-BR' });
    expect(response.statusCode).toBe(413);
    expect(response.json().detail).toMatch(/grande demais/);
    expect(await rowCount()).toBe(before);
  }, 60_000);

  test("rename, switch off (the users' list hides it), delete (the file goes, processes go on without it)", async () => {
    const track = (await upload(toneWav(6), { name: 'Storm', mood: 'dramatic' })).json() as Track;
    const renamed = await call(ctx.app, 'PUT', `/api/v1/music/${track.id}`, {
      token: admin,
      body: { name: 'Big storm', mood: 'epic' },
    });
    expect(renamed.json()).toMatchObject({ name: 'Big storm', mood: 'epic' });
    expect((await call(ctx.app, 'PUT', `/api/v1/music/${track.id}`, { token: admin, body: { mood: 'loud' } })).statusCode).toBe(
      422,
    );
    expect((await call(ctx.app, 'PUT', `/api/v1/music/${track.id}`, { token: user, body: { name: 'Mine' } })).statusCode).toBe(
      403,
    );

    expect((await call(ctx.app, 'PUT', `/api/v1/music/${track.id}/toggle`, { token: admin })).json().is_active).toBe(false);
    const active = await call(ctx.app, 'GET', '/api/v1/music/?active_only=true', { token: user });
    expect(active.json().music.map((t: Track) => t.id)).not.toContain(track.id);

    expect(musicFiles()).toContain(`${track.id}.wav`);
    const removed = await call(ctx.app, 'DELETE', `/api/v1/music/${track.id}`, {
      token: admin,
      headers: { 'accept-language': 'pt' },
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ detail: 'Música excluída com sucesso!', affected_processes: 0 });
    expect(musicFiles()).not.toContain(`${track.id}.wav`);
    expect((await call(ctx.app, 'GET', `/api/v1/music/${track.id}`, { token: user })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: track.audio_url })).statusCode).toBe(404);
  }, 60_000);
});
