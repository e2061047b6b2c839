/**
 * What every execution (a run of a process) is made of, written once for the engine, the services
 * and the routes: its steps, in order, and the files of its folder, MEDIA_DIR/<execution id>/
 * (providers/mediaStorage.ts). A leaf: it imports nothing.
 */

/**
 * The seven steps of an execution, in order (spec section 4); `execution_steps` holds these keys.
 * The engine's step table (pipeline/steps/index.ts) is keyed by them, so a step without a key or a
 * key without a step fails the type check, and each step's file is named after its key
 * (`generating_texts` is pipeline/steps/generatingTexts.ts; server/test/steps.test.ts holds it).
 */
export const PROCESS_STEPS = [
  'starting',
  'generating_texts',
  'creating_story',
  'generating_audios',
  'generating_images',
  'generating_video',
  'publishing_video',
] as const;
export type ProcessStep = (typeof PROCESS_STEPS)[number];

/** The files of a run's folder, by the step that writes them. Chapters and scenes count from 1. */
export const RUN_FILES = {
  /** Step 2: the title and the premise. */
  texts: 'texts.json',
  /** Step 3: the chapters and the running summary. */
  story: 'story.json',
  /** Step 4: a chapter's narration. */
  chapterAudio: (chapter: number) => `chapter-${chapter}.wav`,
  /** Step 4: a piece of a chapter's narration, while a cloud voice speaks it piece by piece. */
  audioPiece: (audioFile: string, piece: number) => audioFile.replace(/\.wav$/, `.piece-${piece}.wav`),
  /** Step 4: where a narration's words (or pieces) start, beside it. */
  words: (audioFile: string) => audioFile.replace(/\.wav$/, '.words.json'),
  /** Step 5: a scene's image. */
  scene: (scene: number) => `scene-${scene}.png`,
  /** Step 6: the chapters' narration joined into one track. */
  narration: 'narration.wav',
  /** Step 6: the run's own copy of its background music (`extension` with its dot, or empty). */
  music: (extension: string) => `music${extension}`,
  /** Step 6: the narration with the music mixed under it. */
  soundtrack: 'soundtrack.wav',
  /** Step 6: the render's scratch folder. */
  renderDir: 'render',
  /** Step 6: the rendered video, its thumbnail, and its subtitles as SubRip (YouTube's caption track). */
  video: 'video.mp4',
  thumbnail: 'thumbnail.jpg',
  captions: 'captions.srt',
} as const;
