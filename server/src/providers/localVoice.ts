import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * The local voice: espeak-ng compiled to JavaScript (`@echogarden/espeak-ng-emscripten`, GPL-3.0
 * like espeak-ng), shipped in node_modules, so narration needs no system package. Its synthesis is
 * synchronous and would block the event loop for the length of a chapter, so it runs in a worker
 * thread: one per process, started on first use and ended after a minute without work; requests
 * take turns. A request that is aborted or times out ends the thread (the next one starts afresh).
 *
 * Besides the audio (22,050 Hz mono 16-bit) it answers where every word starts: espeak-ng's own word
 * events, the exact positions in the audio it returns, mapped back onto the text (`alignWords`).
 */

export interface LocalSynthesisRequest {
  text: string;
  /** An espeak-ng voice: a language (`pt-br`, `en-us`, `cmn`...) and optionally a variant (`+f3`). */
  voice: string;
  /** Words per minute, 80-450; espeak-ng's default (175) when absent. */
  wordsPerMinute?: number;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** A word of the text and where it starts in the audio. */
export interface TimedWord {
  /** The word as written (punctuation attached). */
  text: string;
  /** Its place in the text given, in UTF-16 units (JavaScript string offsets). */
  offset: number;
  length: number;
  /** Seconds from the start of the audio. */
  start: number;
  /** True when espeak-ng reported this word itself; false when it spoke it merged with the one before ("in the"). */
  exact: boolean;
}

export interface LocalSynthesis {
  samples: Int16Array;
  sampleRate: number;
  durationSeconds: number;
  words: TimedWord[];
}

export class LocalVoiceError extends Error {
  constructor(
    readonly code: 'invalidVoice' | 'invalidText' | 'timeout' | 'cancelled' | 'failed',
    message: string,
  ) {
    super(message);
    this.name = 'LocalVoiceError';
  }
}

/** What the worker reports of one word: 1-based code-point position in the SSML text, length, milliseconds. */
interface WordEvent {
  position: number;
  length: number;
  ms: number;
}

interface WorkerAnswer {
  id: number;
  ok: boolean;
  samples?: Int16Array;
  sampleRate?: number;
  words?: WordEvent[];
  code?: 'invalidVoice' | 'failed';
  message?: string;
}

export const DEFAULT_LOCAL_VOICE_TIMEOUT_MS = 5 * 60_000;

/** The package and version of the voice engine, for the health answer. */
export const LOCAL_VOICE_VERSION: string = (() => {
  try {
    const { name, version } = require('@echogarden/espeak-ng-emscripten/package.json') as { name: string; version: string };
    return `${name} ${version}`;
  } catch {
    return 'unknown';
  }
})();
/** The thread is ended after this long without work (it holds ~120 MB). */
const IDLE_MS = 60_000;

/** The worker thread's program (plain JavaScript; the package is ESM only, so it is imported). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let ready = null;
function engine() {
  if (!ready) ready = import(workerData.moduleUrl).then(async (m) => {
    const module = await m.default();
    return new module.eSpeakNGWorker();
  });
  return ready;
}
parentPort.on('message', async (request) => {
  try {
    const tts = await engine();
    if (tts.set_voice(request.voice) !== 0) {
      parentPort.postMessage({ id: request.id, ok: false, code: 'invalidVoice', message: 'unknown voice ' + request.voice });
      return;
    }
    tts.set_rate(request.rate || 175);
    const chunks = [];
    let total = 0;
    const words = [];
    tts.synthesize(request.ssml, (samples, events) => {
      if (samples && samples.length) { chunks.push(samples); total += samples.length; }
      for (const e of events) if (e.type === 'word') words.push({ position: e.text_position, length: e.word_length, ms: e.audio_position });
      return 0;
    });
    const samples = new Int16Array(total);
    let at = 0;
    for (const chunk of chunks) { samples.set(chunk, at); at += chunk.length; }
    parentPort.postMessage({ id: request.id, ok: true, samples, sampleRate: tts.samplerate, words }, [samples.buffer]);
  } catch (error) {
    parentPort.postMessage({ id: request.id, ok: false, code: 'failed', message: String(error && error.message || error) });
  }
});
`;

/**
 * `text` as espeak-ng's SSML input (`&`, `<` and `>` escaped, control characters as spaces), and
 * for each code point of it the index of the code point of `text` it came from.
 */
export function toSsml(text: string): { ssml: string; origin: number[] } {
  const parts: string[] = [];
  const origin: number[] = [];
  let index = 0;
  for (const char of text) {
    const replaced = char === '&' ? '&amp;' : char === '<' ? '&lt;' : char === '>' ? '&gt;' : /\p{Cc}/u.test(char) ? ' ' : char;
    for (const _ of replaced) origin.push(index);
    parts.push(replaced);
    index += 1;
  }
  return { ssml: parts.join(''), origin };
}

/**
 * Every word of `text` (runs without spaces) with its start in the audio. Words espeak-ng reported
 * take its time; a word it spoke merged with the one before (no event of its own, as "the" in "in
 * the") takes a share of the time between its neighbours in proportion to characters, so starts
 * never go backwards. `events` are in SSML positions; `origin` maps them back (toSsml).
 */
export function alignWords(text: string, events: WordEvent[], origin: number[], durationSeconds: number): TimedWord[] {
  // Code-point index -> UTF-16 offset in text.
  const offsets: number[] = [];
  let utf16 = 0;
  for (const char of text) {
    offsets.push(utf16);
    utf16 += char.length;
  }
  offsets.push(utf16);
  const words: Array<{ text: string; offset: number; length: number; firstPoint: number; lastPoint: number }> = [];
  const pattern = /\S+/gu;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const firstPoint = offsets.indexOf(match.index);
    const lastPoint = offsets.indexOf(match.index + match[0].length) - 1;
    words.push({ text: match[0], offset: match.index, length: match[0].length, firstPoint, lastPoint });
  }
  // Each event goes to the word holding its first character (events for punctuation-only runs are dropped).
  const times = new Array<number | undefined>(words.length).fill(undefined);
  let w = 0;
  for (const event of [...events].sort((a, b) => a.position - b.position)) {
    const point = origin[event.position - 1];
    if (point === undefined) continue;
    while (w < words.length && words[w]!.lastPoint < point) w += 1;
    if (w >= words.length) break;
    if (words[w]!.firstPoint <= point && times[w] === undefined) times[w] = event.ms / 1000;
  }
  // Fill the gaps: a word without an event lies between the known starts around it.
  const timed: TimedWord[] = [];
  let i = 0;
  let previous = 0;
  while (i < words.length) {
    if (times[i] !== undefined) {
      const start = Math.max(previous, times[i]!);
      timed.push({ text: words[i]!.text, offset: words[i]!.offset, length: words[i]!.length, start, exact: true });
      previous = start;
      i += 1;
      continue;
    }
    let j = i;
    while (j < words.length && times[j] === undefined) j += 1;
    // Words i..j-1 have no time: spread them from the last known start to the next one (or the end).
    const before = timed.length > 0 ? timed[timed.length - 1]! : null;
    const from = before ? before.start : 0;
    const to = Math.max(from, j < words.length ? times[j]! : durationSeconds);
    const weight = (k: number) => words[k]!.length + 1;
    const lead = before ? before.length + 1 : 0;
    let total = lead;
    for (let k = i; k < j; k += 1) total += weight(k);
    let acc = lead;
    for (let k = i; k < j; k += 1) {
      const start = Math.max(previous, from + ((to - from) * acc) / Math.max(1, total));
      timed.push({ text: words[k]!.text, offset: words[k]!.offset, length: words[k]!.length, start, exact: false });
      previous = start;
      acc += weight(k);
    }
    i = j;
  }
  return timed;
}

let worker: Worker | null = null;
let idleTimer: NodeJS.Timeout | null = null;
let nextId = 1;
let queue: Promise<unknown> = Promise.resolve();
const pending = new Map<number, { resolve: (answer: WorkerAnswer) => void; reject: (error: Error) => void }>();

function moduleUrl(): string {
  return pathToFileURL(require.resolve('@echogarden/espeak-ng-emscripten')).href;
}

function stopWorker(reason: Error): void {
  const current = worker;
  worker = null;
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  for (const [, waiter] of pending) waiter.reject(reason);
  pending.clear();
  if (current) void current.terminate();
}

function startWorker(): Worker {
  const created = new Worker(WORKER_SOURCE, { eval: true, workerData: { moduleUrl: moduleUrl() } });
  created.on('message', (answer: WorkerAnswer) => {
    const waiter = pending.get(answer.id);
    pending.delete(answer.id);
    waiter?.resolve(answer);
  });
  created.on('error', (error) => {
    if (worker === created) stopWorker(new LocalVoiceError('failed', `the local voice stopped: ${error.message}`));
  });
  created.on('exit', () => {
    if (worker === created) stopWorker(new LocalVoiceError('failed', 'the local voice stopped'));
  });
  return created;
}

/** Ends the voice's thread now (at shutdown and in tests); the next request starts a new one. */
export function stopLocalVoice(): void {
  stopWorker(new LocalVoiceError('cancelled', 'the local voice was stopped'));
}

function ask(
  message: { ssml: string; voice: string; rate: number },
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<WorkerAnswer> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new LocalVoiceError('cancelled', 'the narration was cancelled'));
      return;
    }
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    if (!worker) worker = startWorker();
    // Held while it works (so an awaiting caller is not left without an event loop); let go when idle.
    worker.ref();
    const id = nextId++;
    let done = false;
    const finish = () => {
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (pending.size === 0 && worker) {
        worker.unref();
        idleTimer = setTimeout(() => stopWorker(new LocalVoiceError('cancelled', 'idle')), IDLE_MS);
        idleTimer.unref();
      }
    };
    const onAbort = () => {
      if (done) return;
      pending.delete(id);
      finish();
      stopWorker(new LocalVoiceError('cancelled', 'the narration was cancelled'));
      reject(new LocalVoiceError('cancelled', 'the narration was cancelled'));
    };
    const timer = setTimeout(() => {
      if (done) return;
      pending.delete(id);
      finish();
      stopWorker(new LocalVoiceError('timeout', 'the local voice timed out'));
      reject(new LocalVoiceError('timeout', `the local voice took longer than ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    pending.set(id, {
      resolve: (answer) => {
        finish();
        resolve(answer);
      },
      reject: (error) => {
        finish();
        reject(error);
      },
    });
    worker.postMessage({ id, ...message });
  });
}

/** An espeak-ng voice: a language (`pt`, `pt-br`, `en-us`, ...) and optionally a variant (`+f3`). */
export const ESPEAK_VOICE = /^[a-z]{2,3}(-[a-z0-9]+)*(\+[a-z0-9]+)?$/i;

/**
 * Speaks `text` with the local voice. Requests take turns on the one thread. Throws
 * LocalVoiceError: `invalidVoice`, `invalidText`, `timeout`, `cancelled` or `failed`.
 */
export function synthesizeLocal(request: LocalSynthesisRequest): Promise<LocalSynthesis> {
  const { text, voice } = request;
  if (!ESPEAK_VOICE.test(voice)) return Promise.reject(new LocalVoiceError('invalidVoice', `Invalid espeak-ng voice "${voice}"`));
  if (!text.trim()) return Promise.reject(new LocalVoiceError('invalidText', 'Nothing to say: the text is empty'));
  let rate = 175;
  if (request.wordsPerMinute !== undefined) {
    rate = Math.round(request.wordsPerMinute);
    if (!Number.isFinite(rate) || rate < 80 || rate > 450)
      return Promise.reject(
        new LocalVoiceError('failed', `Words per minute must be between 80 and 450 (got ${request.wordsPerMinute})`),
      );
  }
  const { ssml, origin } = toSsml(text);
  const run = async (): Promise<LocalSynthesis> => {
    const answer = await ask({ ssml, voice, rate }, request.signal, request.timeoutMs ?? DEFAULT_LOCAL_VOICE_TIMEOUT_MS);
    if (!answer.ok) {
      if (answer.code === 'invalidVoice') throw new LocalVoiceError('invalidVoice', `Unknown espeak-ng voice "${voice}"`);
      throw new LocalVoiceError('failed', `the local voice failed: ${answer.message ?? 'unknown error'}`);
    }
    const samples = answer.samples ?? new Int16Array(0);
    const sampleRate = answer.sampleRate ?? 22_050;
    if (samples.length === 0) throw new LocalVoiceError('failed', 'the local voice made no audio');
    const durationSeconds = samples.length / sampleRate;
    return { samples, sampleRate, durationSeconds, words: alignWords(text, answer.words ?? [], origin, durationSeconds) };
  };
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}

/** True when the local voice loads and speaks (a word, once per process). */
let availability: Promise<boolean> | null = null;
export function localVoiceAvailable(): Promise<boolean> {
  if (!availability) {
    availability = synthesizeLocal({ text: 'ok', voice: 'en-us', timeoutMs: 60_000 }).then(
      () => true,
      () => false,
    );
    void availability.then((ok) => {
      if (!ok) availability = null;
    });
  }
  return availability;
}
