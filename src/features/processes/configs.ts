import type { YoutubeApi } from '../../api';

/**
 * The API configurations a process on this channel may use: enabled ones that upload to the
 * channel's own YouTube id (the server refuses any other pair). Without a channel chosen yet, every
 * enabled one.
 */
export function configsFor(youtubeApis: readonly YoutubeApi[], channelYoutubeId: string | undefined): YoutubeApi[] {
  return youtubeApis.filter(
    (config) => config.is_enabled && (channelYoutubeId === undefined || config.channel_id === channelYoutubeId),
  );
}

/** The configuration to start with: the active one when it is among them, else the first. */
export function preferredConfig(configs: readonly YoutubeApi[]): YoutubeApi | undefined {
  return configs.find((config) => config.is_active) ?? configs[0];
}
