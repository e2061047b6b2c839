import type { StepContext } from '../src/pipeline/context';
import { STEPS } from '../src/pipeline/steps';
import { isSafeMediaName } from '../src/providers/mediaStorage';
import { PROCESS_STEPS, RUN_FILES } from '../src/runLayout';

/** `generating_texts` -> `generatingTexts`: a step's file and function are named after its key. */
const camelCase = (key: string) => key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

describe('the steps of a run', () => {
  it('has one step per key of PROCESS_STEPS, each in the file named after its key', async () => {
    expect(Object.keys(STEPS).sort()).toEqual([...PROCESS_STEPS].sort());
    for (const key of PROCESS_STEPS) {
      const name = camelCase(key);
      const module = (await import(`../src/pipeline/steps/${name}`)) as Record<string, unknown>;
      expect({ key, step: module[name] }).toEqual({ key, step: STEPS[key] });
    }
  });

  it('names the run folder’s files as the media links and the storage accept them', () => {
    const run = '6f1d2c3b-0a9e-4f8d-9c7b-1a2b3c4d5e6f';
    const names = [
      RUN_FILES.texts,
      RUN_FILES.story,
      RUN_FILES.chapterAudio(1),
      RUN_FILES.audioPiece(RUN_FILES.chapterAudio(2), 3),
      RUN_FILES.words(RUN_FILES.chapterAudio(1)),
      RUN_FILES.scene(12),
      RUN_FILES.narration,
      RUN_FILES.music('.mp3'),
      RUN_FILES.soundtrack,
      RUN_FILES.renderDir,
      RUN_FILES.video,
      RUN_FILES.thumbnail,
      RUN_FILES.captions,
    ];
    expect(names.filter((name) => !isSafeMediaName(run, name))).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
    expect(RUN_FILES.audioPiece('chapter-2.wav', 3)).toBe('chapter-2.piece-3.wav');
    expect(RUN_FILES.words('chapter-1.wav')).toBe('chapter-1.words.json');
  });
});

/**
 * Steps 1 and 7 check what the process lacks with the process service's narrow read (its needs),
 * not the API's answer for the process (a join of six tables, translated).
 */
describe('the steps that check a process’s needs', () => {
  function stubbed(needs: string[]) {
    const asked: string[] = [];
    const ctx = {
      userId: 'user-1',
      process: { id: 'process-1', youtubeApiId: 'config-1', voiceId: null, format: 'video' },
      checkpoint: {},
      services: {
        processes: {
          needs: async (userId: string, id: string) => {
            asked.push(`needs of ${id} for ${userId}`);
            return { needs, language: 'en' };
          },
          get: async () => {
            throw new Error('a step read the API’s answer for the process');
          },
        },
        youtubeApis: { credentialsFor: async () => undefined },
      },
      chat: async () => ({}),
    } as unknown as StepContext;
    return { ctx, asked };
  }

  it('step 1 ends the run with every need, in the process’s language', async () => {
    const { ctx, asked } = stubbed(['voice', 'language']);
    await expect(STEPS.starting(ctx)).rejects.toMatchObject({
      name: 'StepFailure',
      key: 'pipeline.needs',
      params: { needs: 'voice,language', language: 'en' },
    });
    expect(asked).toEqual(['needs of process-1 for user-1']);
    // With nothing lacking it goes on to the next check (here, the configuration's authorization).
    await expect(STEPS.starting(stubbed([]).ctx)).rejects.toMatchObject({ key: 'pipeline.youtubeNotAuthorized' });
  });

  it('step 7 ends the run with the needs that stop the upload only', async () => {
    const { ctx, asked } = stubbed(['voice_inactive', 'youtube_api_disabled']);
    await expect(STEPS.publishing_video(ctx)).rejects.toMatchObject({
      key: 'pipeline.needs',
      params: { needs: 'youtube_api_disabled', language: 'en' },
    });
    expect(asked).toEqual(['needs of process-1 for user-1']);
    await expect(STEPS.publishing_video(stubbed(['voice_inactive']).ctx)).rejects.toMatchObject({
      key: 'pipeline.youtubeNotAuthorized',
    });
  });
});
