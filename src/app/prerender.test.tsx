/**
 * @jest-environment node
 */
// Node, as the build runs it (scripts/prerender.tsx): no document, so Emotion collects the rules
// instead of inserting them.
import { prerenderPages, renderVariant } from './prerender';

describe('the screens rendered at build time', () => {
  it('is the real sign-in card in each language: title, fields, links', () => {
    const en = renderVariant('login', 'en', 'dark').html;
    const pt = renderVariant('login', 'pt', 'light').html;

    expect(en).toContain('>Sign in</h1>');
    expect(en).toMatch(/<input[^>]*type="email"[^>]*name="email"/);
    expect(en).toMatch(/<input[^>]*type="password"[^>]*name="password"/);
    expect(en).toContain('href="/forgot-password"');
    expect(en).toContain('href="/signup"');
    expect(pt).toContain('>Entrar</h1>');
    expect(pt).toContain('Esqueceu sua senha?');
  });

  it('is the real sign-up card in each language: title, fields, the plan chosen by default', () => {
    const en = renderVariant('signup', 'en', 'dark').html;
    const pt = renderVariant('signup', 'pt', 'light').html;

    expect(en).toContain('>Create your account</h1>');
    for (const field of ['name', 'email', 'password']) expect(en).toMatch(new RegExp(`<input[^>]*name="${field}"`));
    expect(en).toMatch(/<input type="radio"[^>]*name="plan" checked="" value="monthly"/);
    expect(en).toMatch(/<input type="radio"[^>]*name="plan" value="annual"/);
    expect(en).toContain('href="/login"');
    expect(pt).toContain('>Crie sua conta</h1>');
  });

  it('carries every rule its classes need, each theme its own colours', () => {
    const dark = renderVariant('login', 'en', 'dark');
    const light = renderVariant('login', 'en', 'light');
    const signUp = renderVariant('signup', 'pt', 'dark');
    const css = (variant: typeof dark) => variant.rules.map(([, rules]) => rules).join('');

    for (const variant of [dark, light, signUp]) {
      const classes = [...variant.html.matchAll(/class="([^"]*)"/g)].flatMap((match) => match[1]!.split(' '));
      // (Emotion's class names: `css-<hash>`, with a label after it outside production builds.)
      const emotionClasses = [...new Set(classes.filter((name) => /^css-[a-z0-9]+/.test(name) && name !== 'css-0'))];
      expect(emotionClasses.length).toBeGreaterThan(10);
      for (const name of emotionClasses) expect(css(variant)).toContain(`.${name}`);
    }
    expect(css(dark)).toContain('background-color:#0f1115');
    expect(css(light)).toContain('background-color:#f5f6fa');
  });

  it('makes a page per screen, language and theme, its card shown only to a visitor of that choice', () => {
    const pages = prerenderPages();

    expect(Object.keys(pages).sort()).toEqual(
      ['login', 'signup'].flatMap((screen) =>
        ['en-dark', 'en-light', 'pt-dark', 'pt-light'].map((variant) => `${screen}-${variant}.html`),
      ),
    );
    const { head, root } = pages['login-pt-light.html']!;
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

    // The sign-up page: its text fields say when they are filled, its radio buttons show the one checked.
    const signUp = pages['signup-en-dark.html']!;
    expect(signUp.root).toContain('>Create your account</h1>');
    expect(signUp.root).not.toMatch(/autofocus/i);
    expect(signUp.root.match(/<input placeholder=" "/g)).toHaveLength(3);
    expect(signUp.root).not.toMatch(/<input placeholder=" " type="radio"/);
    expect(signUp.head).toContain('.MuiRadio-root:has(input:checked) svg+svg{transform:scale(1)}');
  });
});
