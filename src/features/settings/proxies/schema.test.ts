import { isProxyUrl, PROXY_URL_EXAMPLES, proxySchema } from './schema';

describe('proxy URL', () => {
  it.each([
    'http://proxy.example.com:8080',
    'http://user:secret@10.0.0.1:3128',
    'https://proxy.example.com:443/',
    'socks5://user:pa:ss@proxy.example.com:1080',
    'socks5://[2001:db8::1]:1080',
    'http://user:••••••••abcd@host:8080',
  ])('accepts %s', (url) => {
    expect(isProxyUrl(url)).toBe(true);
  });

  it.each([
    'proxy.example.com:8080',
    'ftp://proxy.example.com:21',
    'http://proxy.example.com',
    'http://proxy.example.com:0',
    'http://proxy.example.com:70000',
    'http://:8080',
    'socks4://host:1080',
    'http://host:8080/path',
  ])('refuses %s', (url) => {
    expect(isProxyUrl(url)).toBe(false);
  });

  it('shows examples in the four accepted forms', () => {
    expect(PROXY_URL_EXAMPLES).toHaveLength(4);
  });

  it('reports a bad URL with the proxyUrl message', async () => {
    await expect(proxySchema.validate({ name: 'A', url: 'example.com' })).rejects.toThrow('validation.proxyUrl');
    await expect(proxySchema.validate({ name: ' ', url: 'http://h:1' })).rejects.toThrow('validation.fillAllFields');
  });
});
