import path from 'node:path';
import { mediaToolsEnv, resolveMediaTools } from '../../media/ffmpeg';
import { makeSceneCard } from '../../media/sceneCards';
import { renderSettingsFor } from '../../media/render';
import { RUN_FILES } from '../../runLayout';
import { warn, type StepContext } from '../context';
import { splitScenes } from '../story';
import { runFormat } from '../format';
import { narrationText } from './generatingAudios';
import { openaiClient, providerFailure } from './mediaClients';
import { exists } from './outputs';

/**
 * An image model's portrait size, for a Short (landscape is the client's default): what each of
 * OpenAI's models accepts, and gpt-image-1's for any other (a local server's) model.
 */
export function portraitImageSize(model: string): string {
  if (model.startsWith('dall-e-2')) return '1024x1024';
  if (model.startsWith('dall-e')) return '1024x1792';
  return '1024x1536';
}

/**
 * Step 5: one image per scene (the format's scenes per chapter: two for a video, four in a
 * Short's one chapter), landscape for a video and portrait for a Short: OpenAI images with the
 * user's key (IMAGE_PROVIDER=openai), or scene cards drawn on this server (IMAGE_PROVIDER=local).
 */
export async function generatingImages(ctx: StepContext): Promise<void> {
  const chapters = ctx.checkpoint.story!.chapters;
  const title = ctx.checkpoint.texts!.title;
  const plan = runFormat(ctx);
  const scenes: Array<{ chapter: number; text: string }> = [];
  chapters.forEach((chapter, index) => {
    const text = index === 0 ? narrationText(ctx, 0) : chapter;
    for (const scene of splitScenes(text, plan.scenesPerChapter)) scenes.push({ chapter: index, text: scene });
  });
  const done = ctx.checkpoint.images?.files ?? [];
  const files: string[] = [];
  const openai = ctx.config.imageProvider === 'openai' ? await openaiClient(ctx, 'image') : undefined;
  let size: string | undefined;
  if (openai && plan.height > plan.width) {
    const endpoints = await ctx.services.chatModel.mediaEndpointsFor(ctx.userId);
    size = portraitImageSize(endpoints?.image.model || ctx.config.openaiImageModel);
  }

  for (let index = 0; index < scenes.length; index += 1) {
    const scene = scenes[index]!;
    const name = RUN_FILES.scene(index + 1);
    const outFile = path.join(ctx.workDir, name);
    if (done[index] === name && (await exists(outFile))) {
      files.push(name);
      continue;
    }
    await ctx.progress(index, scenes.length, 'images');
    try {
      if (openai) {
        const prompt = `A cinematic, painterly illustration for a narrated story titled "${title}". No text, letters or captions in the image. Scene: ${scene.text.slice(0, 900)}`;
        await openai.image({ prompt, outFile, signal: ctx.signal, ...(size ? { size } : {}) });
        await ctx.recordCall('openai', 'images.generate');
      } else {
        // The size of the frame the render makes (RENDER_SCALE shrinks both alike).
        const frame = renderSettingsFor(plan.format, ctx.config.renderScale);
        const card = await makeSceneCard({
          output: outFile,
          title,
          text: scene.text,
          index: index + 1,
          total: scenes.length,
          width: frame.width,
          height: frame.height,
          signal: ctx.signal,
          tools: await resolveMediaTools(mediaToolsEnv(ctx.config)),
        });
        if (card.missingGlyphs.length > 0) warn(ctx, 'pipeline.fontsMissing', { characters: card.missingGlyphs.join(' ') });
      }
    } catch (error) {
      throw providerFailure(error, 'OpenAI', 'pipeline.imageFailed', { scene: index + 1 });
    }
    files.push(name);
    ctx.checkpoint.images = { files, chapterOf: scenes.map((s) => s.chapter), texts: scenes.map((s) => s.text) };
    await ctx.save();
    await ctx.progress(index + 1, scenes.length, 'images');
  }
  ctx.checkpoint.images = { files, chapterOf: scenes.map((s) => s.chapter), texts: scenes.map((s) => s.text) };
}
