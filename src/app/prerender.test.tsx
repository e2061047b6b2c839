/**
 * @jest-environment node
 */
// Node, as the build runs it (scripts/prerender.tsx): no document, so Emotion collects the rules
// instead of inserting them.
import { prerenderLoginPages, renderLoginVariant } from './prerender';

describe('the sign-in screen rendered at build time', () => {
  it('is the real card in each language: title, fields, links', () => {
    const en = renderLoginVariant('en', 'dark').html;
    const pt = renderLoginVariant('pt', 'light').html;

    expect(en).toContain('>Sign in</h1>');
    expect(en).toMatch(/<input[^>]*type="email"[^>]*name="email"/);
    expect(en).toMatch(/<input[^>]*type="password"[^>]*name="password"/);
    expect(en).toContain('href="/forgot-password"');
    expect(en).toContain('href="/signup"');
    expect(pt).toContain('>Entrar</h1>');
    expect(pt).toContain('Esqueceu sua senha?');
  });

  it('carries every rule its classes need, each theme its own colours', () => {
    const dark = renderLoginVariant('en', 'dark');
    const light = renderLoginVariant('en', 'light');
    const css = (variant: typeof dark) => variant.rules.map(([, rules]) => rules).join('');

    for (const variant of [dark, light]) {
      const classes = [...variant.html.matchAll(/class="([^"]*)"/g)].flatMap((match) => match[1]!.split(' '));
      // (Emotion's class names: `css-<hash>`, with a label after it outside production builds.)
      const emotionClasses = [...new Set(classes.filter((name) => /^css-[a-z0-9]+/.test(name) && name !== 'css-0'))];
      expect(emotionClasses.length).toBeGreaterThan(10);
      for (const name of emotionClasses) expect(css(variant)).toContain(`.${name}`);
    }
    expect(css(dark)).toContain('background-color:#0f1115');
    expect(css(light)).toContain('background-color:#f5f6fa');
  });

  it('makes a page per language and theme, its card shown only to a visitor of that choice', () => {
    const pages = prerenderLoginPages();

    expect(Object.keys(pages).sort()).toEqual(['en-dark', 'en-light', 'pt-dark', 'pt-light']);
    const { head, root } = pages['pt-light'];
    expect(root.match(/data-prerender-variant="[^"]+"/g)).toEqual(['data-prerender-variant="pt-light"']);
    expect(head).toContain(
      'html[lang=pt-BR][data-theme=light]:not([data-signed-in]) [data-prerender-variant=pt-light]{display:block}',
    );
    expect(root).toContain('>Entrar</h1>');
    // Its ids are its own (never one the app's first render makes), and nothing takes the focus by itself.
    const ids = [...root.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    for (const id of ids) expect(id).toContain('pt-light-');
    expect(root).not.toMatch(/autofocus/i);
    // Each field says when it is filled (the rules that lift its label read :placeholder-shown).
    expect(root.match(/<input placeholder=" "/g)).toHaveLength(2);
    // The rules that show it, then the theme's own.
    expect(head.match(/<style data-prerender="[a-z]+">/g)).toEqual([
      '<style data-prerender="all">',
      '<style data-prerender="light">',
    ]);
    expect(head).toContain('background-color:#f5f6fa');
    expect(head).not.toContain('background-color:#0f1115');
  });
});
