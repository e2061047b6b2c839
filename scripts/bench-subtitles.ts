/**
 * `npm run bench:subtitles`: how close the subtitles are to the words they show.
 *
 * For a ~250-word chapter in Portuguese and one in English it does what the pipeline does: the
 * local voice (espeak-ng) narrates the title and the chapter into a WAV with its word timings
 * (step 4), concatAudio joins and levels it (step 6), and narrationCues builds the cues from both
 * (step 6). Then it finds, independently of the voice's word timings, where each cue's words
 * really start in that audio:
 *
 *   1. each cue's text is spoken again on its own, by the same voice, into a separate recording;
 *      there the words start where the sound starts after the silence the voice puts first
 *      (energy above -20 dB of that recording's loudest frame);
 *   2. these recordings, one after the other, are aligned onto the chapter's narration by dynamic
 *      time warping of their spectra (server/tools/speechAlign.ts: 10 ms frames, 24 mel bands,
 *      each band's mean removed), which pairs every moment of the cues spoken alone with the moment
 *      of the narration that sounds the same, whatever the pauses and tempo around it;
 *   3. the moment paired with a cue's first sound is where its words really start.
 *
 * It prints, per language, the offsets between each cue's start and that moment (median, p95,
 * max, in ms) against the targets (p95 <= 150 ms, max <= 300 ms), and in the same run the offsets
 * of cues timed the old way (each chapter's time shared by length), as the reference. Exit code 0
 * even when a target is missed (1 only when the bench itself fails).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { concatAudio } from '../server/src/media/audio';
import { resolveMediaTools } from '../server/src/media/ffmpeg';
import { subtitleCues, type Cue } from '../server/src/media/subtitles';
import { narrationCues } from '../server/src/pipeline/steps/generatingVideo';
import { espeakSpeak } from '../server/src/providers/speech';
import { FRAME_SECONDS, features, readWav, speechOnset, warp } from '../server/tools/speechAlign';

const TARGET_P95_MS = 150;
const TARGET_MAX_MS = 300;

const CHAPTERS = {
  en: {
    voice: 'en-us+f3',
    title: 'The Lighthouse Keeper’s Daughter',
    text:
      'Maria climbed the hundred steps of the old lighthouse long after midnight. The storm had broken every window on ' +
      'the way up, and the wind howled through the iron stairs like a wounded animal. She counted each step out loud, ' +
      'because her father had taught her that a voice keeps fear at a distance. At the top she found his lantern, still ' +
      'warm, and a notebook open on the desk. The last page was written in a hand she did not know. "If you are reading ' +
      'this, the light must not go out tonight," it said. "A ship is coming, and it carries someone who has waited ' +
      'twenty years to come home." Maria looked out at the black sea. For a long moment she saw nothing but rain. ' +
      'Then, far away, a small green light blinked three times. She turned the great wheel of the lamp with both hands, ' +
      'slowly, the way she had watched her father do a thousand times. The beam swept across the water, found the ship, ' +
      'and held it. Down below, the waves broke against the rocks, louder than before, as if the sea itself were ' +
      'angry that someone had been found. When dawn came, grey and quiet, a small boat reached the beach. An old woman ' +
      'stepped onto the sand, looked up at the tower, and raised her hand. Maria knew her at once, although they had ' +
      'never met: she had her father’s eyes, and she was smiling.',
  },
  pt: {
    voice: 'pt-br+f3',
    title: 'A Filha do Faroleiro',
    text:
      'Maria subiu os cem degraus do velho farol muito depois da meia-noite. A tempestade tinha quebrado todas as ' +
      'janelas do caminho, e o vento uivava pela escada de ferro como um animal ferido. Ela contava cada degrau em voz ' +
      'alta, porque o pai lhe ensinara que uma voz mantém o medo à distância. No alto, encontrou a lanterna dele, ainda ' +
      'quente, e um caderno aberto sobre a mesa. A última página estava escrita numa letra que ela não conhecia. "Se ' +
      'você está lendo isto, a luz não pode se apagar esta noite", dizia. "Um navio está chegando, e ele traz alguém ' +
      'que esperou vinte anos para voltar para casa." Maria olhou para o mar escuro. Por um longo momento, não viu nada ' +
      'além da chuva. Então, bem longe, uma pequena luz verde piscou três vezes. Ela girou a grande roda da lâmpada com ' +
      'as duas mãos, devagar, do jeito que tinha visto o pai fazer mil vezes. O feixe varreu a água, encontrou o navio ' +
      'e o segurou. Lá embaixo, as ondas quebravam contra as pedras, mais fortes do que antes, como se o próprio mar ' +
      'estivesse furioso porque alguém tinha sido encontrado. Quando o dia nasceu, cinzento e calmo, um pequeno barco ' +
      'chegou à praia. Uma senhora pisou na areia, olhou para a torre e levantou a mão. Maria a reconheceu na hora, ' +
      'embora nunca tivessem se visto: ela tinha os olhos do pai, e estava sorrindo.',
  },
} as const;

interface Figures {
  cues: number;
  median: number;
  p95: number;
  max: number;
}

function figures(offsetsMs: number[]): Figures {
  const sorted = offsetsMs.map(Math.abs).sort((a, b) => a - b);
  const pick = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
  return { cues: sorted.length, median: pick(0.5), p95: pick(0.95), max: sorted[sorted.length - 1] ?? NaN };
}

/** Where each cue's words really start in `narrationFile`, seconds (see the top of this file). */
async function trueStarts(cues: Cue[], narrationFile: string, voice: string, dir: string): Promise<number[]> {
  const recording = readWav(fs.readFileSync(narrationFile));
  const spoken: Float32Array[] = [];
  const onsets: number[] = [];
  let length = 0;
  let sampleRate = 0;
  for (const [index, cue] of cues.entries()) {
    const file = path.join(dir, `cue-${index}.wav`);
    await espeakSpeak({ text: cue.text.replace(/\n/g, ' '), voice, outFile: file });
    const alone = readWav(fs.readFileSync(file));
    sampleRate = alone.sampleRate;
    const own = features(alone.samples, alone.sampleRate);
    onsets.push(Math.round(length / (FRAME_SECONDS * sampleRate)) + speechOnset(own.energy));
    spoken.push(alone.samples);
    length += alone.samples.length;
  }
  const joined = new Float32Array(length);
  let at = 0;
  for (const part of spoken) {
    joined.set(part, at);
    at += part.length;
  }
  const reference = features(joined, sampleRate);
  const narration = features(recording.samples, recording.sampleRate);
  const band = Math.abs(reference.rows.length - narration.rows.length) + Math.round(4 / FRAME_SECONDS);
  const paired = warp(reference.rows, narration.rows, band);
  return onsets.map((frame) => paired[Math.min(frame, paired.length - 1)]! * FRAME_SECONDS);
}

const ms = (value: number) => `${Math.round(value)} ms`;
const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');

async function main(): Promise<void> {
  const tools = await resolveMediaTools();
  console.log(`bench:subtitles — espeak-ng (WebAssembly) narration, ffmpeg ${tools.ffmpeg.version} (${tools.ffmpeg.source})`);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-subtitles-'));
  let failed = false;
  try {
    for (const [language, chapter] of Object.entries(CHAPTERS)) {
      const dir = path.join(root, language);
      fs.mkdirSync(dir);
      // Step 4 and 6 as the pipeline does them: chapter 1 opens with the title.
      const text = `${chapter.title}.\n\n${chapter.text}`;
      const words = text.split(/\s+/u).length;
      const chapterFile = path.join(dir, 'chapter-1.wav');
      const spoken = await espeakSpeak({ text, voice: chapter.voice, outFile: chapterFile });
      const narrationFile = path.join(dir, 'narration.wav');
      const joined = await concatAudio([chapterFile], narrationFile, { tools });
      const piece = { text, offset: joined.offsets[0] ?? 0, duration: joined.durations[0] ?? spoken.durationSeconds };
      const cues = narrationCues([{ ...piece, words: spoken.words.map(({ offset, start }) => ({ offset, start })) }]);
      const byLength = subtitleCues([{ text, start: piece.offset, duration: piece.duration }]);
      const truth = await trueStarts(cues, narrationFile, chapter.voice, dir);
      const now = figures(cues.map((cue, i) => (cue.start - truth[i]!) * 1000));
      const before = figures(byLength.map((cue, i) => (cue.start - truth[i]!) * 1000));
      const ok = now.p95 <= TARGET_P95_MS && now.max <= TARGET_MAX_MS;
      failed ||= !ok;
      console.log(
        `\n${language}: ${words} words, ${joined.durationSeconds.toFixed(1)} s of narration, ${now.cues} cues (voice ${chapter.voice})`,
      );
      console.log(
        `  cue start - where its words start: median ${ms(now.median)}, p95 ${ms(now.p95)} (target <= ${TARGET_P95_MS} ms ${verdict(now.p95 <= TARGET_P95_MS)}), max ${ms(now.max)} (target <= ${TARGET_MAX_MS} ms ${verdict(now.max <= TARGET_MAX_MS)})`,
      );
      console.log(
        `  reference, cues timed by length (before): median ${ms(before.median)}, p95 ${ms(before.p95)}, max ${ms(before.max)}`,
      );
    }
    console.log(`\n${failed ? 'a target was MISSED' : 'all targets met'}`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
