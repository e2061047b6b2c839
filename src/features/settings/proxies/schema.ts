/**
 * The proxy form (spec §5): name and URL required; the URL is http://, https:// or socks5://, with
 * a host and an explicit port, optionally with user:password@.
 */
import { object, string } from 'yup';
import type { ProxyServer } from '../../../api';
import type { ValidationKey } from '../../../components';

const required: ValidationKey = 'validation.fillAllFields';
const invalidUrl: ValidationKey = 'validation.proxyUrl';

/** The formats the form shows as examples. */
export const PROXY_URL_EXAMPLES = [
  'http://host:port',
  'http://user:password@host:port',
  'https://host:port',
  'socks5://user:password@host:port',
] as const;

// scheme :// [user[:password]@] host-or-[ipv6] : port [/]
const PROXY_URL = /^(https?|socks5):\/\/(?:[^\s:@/]+(?::[^\s@/]*)?@)?(\[[0-9a-f:.]+\]|[^\s:@/[\]]+):(\d{1,5})\/?$/i;

export function isProxyUrl(value: string): boolean {
  const match = PROXY_URL.exec(value.trim());
  if (!match) return false;
  const port = Number(match[3]);
  return port >= 1 && port <= 65535;
}

export interface ProxyFormValues {
  name: string;
  url: string;
}

export const proxySchema = object({
  name: string().trim().required(required),
  url: string()
    .trim()
    .required(required)
    .test('proxy-url', invalidUrl, (value) => !value || isProxyUrl(value)),
});

/** Editing starts from the URL as answered (password masked: left as is, the server keeps it). */
export function formValuesOf(proxy?: ProxyServer): ProxyFormValues {
  return { name: proxy?.name ?? '', url: proxy?.url ?? '' };
}
