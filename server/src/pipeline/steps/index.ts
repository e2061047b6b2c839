import type { ProcessStep } from '../../runLayout';
import type { Step } from '../context';
import { creatingStory } from './creatingStory';
import { generatingAudios } from './generatingAudios';
import { generatingImages } from './generatingImages';
import { generatingTexts } from './generatingTexts';
import { generatingVideo } from './generatingVideo';
import { publishingVideo } from './publishingVideo';
import { starting } from './starting';

/**
 * The seven steps by key; they run in the order of PROCESS_STEPS (runLayout.ts). Keyed, not listed
 * again: a key without its step, or a step without its key, fails the type check.
 */
export const STEPS: { readonly [key in ProcessStep]: Step } = {
  starting,
  generating_texts: generatingTexts,
  creating_story: creatingStory,
  generating_audios: generatingAudios,
  generating_images: generatingImages,
  generating_video: generatingVideo,
  publishing_video: publishingVideo,
};
