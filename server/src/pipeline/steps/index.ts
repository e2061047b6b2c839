import type { Step } from '../context';
import { creatingStory } from './storyStep';
import { generatingAudios, generatingImages } from './media';
import { publishingVideo } from './publishing';
import { starting } from './starting';
import { generatingTexts } from './texts';
import { generatingVideo } from './video';

/** The seven steps, in the order of PROCESS_STEPS. */
export const STEPS: readonly Step[] = [
  starting,
  generatingTexts,
  creatingStory,
  generatingAudios,
  generatingImages,
  generatingVideo,
  publishingVideo,
];
