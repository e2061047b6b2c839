import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { YoutubeApi } from '../../api';
import type { SelectOption } from '../../components/SelectInput';

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

export interface ConfigChoice {
  /** The user's configurations; undefined while they load. */
  youtubeApis: readonly YoutubeApi[] | undefined;
  /** The chosen channel's record id ('' for none) and YouTube id (undefined when unknown). */
  channelId: string;
  channelYoutubeId: string | undefined;
  /** The configuration chosen in the form, and the one stored on the process (if any). */
  chosenId: string;
  stored?: { id: string | null; name: string | null };
  /** Sets the form's configuration. */
  choose: (id: string) => void;
}

/**
 * The configuration field of a process form: the chosen channel's own configurations as options,
 * plus the stored (or just chosen) one while it does not fit, labelled with why; and the switch to
 * one of the channel's own configurations whenever the channel changes (or, for a new process,
 * once the list arrives). A stored configuration is kept until the user picks another channel.
 */
export function useConfigChoice({ youtubeApis, channelId, channelYoutubeId, chosenId, stored, choose }: ConfigChoice): {
  options: SelectOption[];
  matching: YoutubeApi[];
} {
  const { t } = useTranslation('processes');
  const matching = configsFor(youtubeApis ?? [], channelYoutubeId);
  const options: SelectOption[] = matching.map((config) => ({ value: config.id, label: config.name }));
  for (const id of new Set([stored?.id, chosenId])) {
    if (!id || options.some((option) => option.value === id)) continue;
    const config = youtubeApis?.find((candidate) => candidate.id === id);
    const name = config?.name ?? (id === stored?.id ? stored.name : null) ?? id;
    const label = !config
      ? name
      : config.is_enabled
        ? t('form.otherChannelOption', { name })
        : t('form.disabledOption', { name });
    options.unshift({ value: id, label });
  }

  const matchingKey = matching.map((config) => config.id).join(',');
  const seenChannel = useRef(channelId);
  const loaded = youtubeApis !== undefined;
  useEffect(() => {
    const channelChanged = seenChannel.current !== channelId;
    seenChannel.current = channelId;
    if (!loaded || matching.some((config) => config.id === chosenId)) return;
    if (stored?.id && !channelChanged) return;
    choose(preferredConfig(matching)?.id ?? '');
    // eslint-disable-next-line react-hooks/exhaustive-deps -- matchingKey stands for the list
  }, [loaded, channelId, matchingKey, chosenId]);
  return { options, matching };
}
