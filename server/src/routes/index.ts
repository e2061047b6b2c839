import type { FastifyInstance } from 'fastify';
import authRoutes from './auth';
import channelRoutes from './channels';
import chatModelRoutes from './chatModel';
import executionRoutes from './executions';
import healthRoutes from './health';
import mediaRoutes from './media';
import notificationRoutes from './notifications';
import publicationRoutes from './publications';
import subscriptionRoutes from './subscription';
import processRoutes from './processes';
import proxyRoutes from './proxies';
import promptRoutes from './prompts';
import voiceRoutes from './voices';
import voiceSampleRoutes from './voiceSamples';
import musicRoutes from './music';
import youtubeApiRoutes from './youtubeApis';
import youtubeAuthRoutes from './youtubeAuth';
import platformAccountRoutes from './platformAccounts';
import platformAuthRoutes from './platformAuth';

/** Every route of the API, mounted under /api/v1. */
export async function registerApiRoutes(app: FastifyInstance): Promise<void> {
  await app.register(healthRoutes);
  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(channelRoutes, { prefix: '/channels' });
  await app.register(chatModelRoutes, { prefix: '/chatgpt' });
  await app.register(youtubeApiRoutes, { prefix: '/youtube-apis' });
  await app.register(youtubeAuthRoutes, { prefix: '/youtube-auth' });
  await app.register(platformAccountRoutes, { prefix: '/platform-accounts' });
  await app.register(platformAuthRoutes, { prefix: '/platform-auth/tiktok', platform: 'tiktok' });
  await app.register(platformAuthRoutes, { prefix: '/platform-auth/instagram', platform: 'instagram' });
  await app.register(proxyRoutes, { prefix: '/proxies' });
  await app.register(promptRoutes, { prefix: '/prompts' });
  await app.register(voiceRoutes, { prefix: '/voices' });
  await app.register(voiceSampleRoutes, { prefix: '/voice-samples' });
  await app.register(musicRoutes, { prefix: '/music' });
  await app.register(processRoutes, { prefix: '/processes' });
  await app.register(executionRoutes, { prefix: '/executions' });
  await app.register(mediaRoutes, { prefix: '/media' });
  await app.register(publicationRoutes, { prefix: '/publications' });
  await app.register(subscriptionRoutes, { prefix: '/subscription' });
  await app.register(notificationRoutes, { prefix: '/notifications' });
}
