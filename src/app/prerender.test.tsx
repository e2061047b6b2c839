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

  it('names every rule of the card for Emotion, each where its text is', () => {
    const { head, root } = prerenderPages()['signup-en-dark.html']!;
    const styles = [...head.matchAll(/<style data-prerender="dark" data-emotion="([^"]+)">([^<]*)<\/style>/g)];
    const classes = [...root.matchAll(/class="([^"]*)"/g)].flatMap((match) => match[1]!.split(' '));
    // (Emotion's class names: `css-<hash>`, with a label after it outside production builds.)
    const used = [...new Set(classes.filter((name) => /^css-[a-z0-9]+/.test(name) && name !== 'css-0'))];
    const classNames = styles.at(-1)![1]!.split(' ');

    expect(classNames[0]).toBe('css');
    for (const name of used) {
      expect(classNames).toContain(name.slice('css-'.length));
      expect(styles.at(-1)![2]).toContain(`.${name}`);
    }
    for (const [, names, css] of styles.slice(0, -1)) {
      expect(names).toMatch(/^css-global [a-zA-Z0-9-]+$/);
      expect(css).not.toMatch(/^\.css-/);
    }
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
    const card = root.slice(0, root.lastIndexOf('<span id="prerendered-end">'));
    const ids = [...card.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    for (const id of ids) expect(id).toContain('pt-light-');
    // No frame is painted before the card is parsed whole: the element after it is awaited.
    expect(root.endsWith('</div><span id="prerendered-end"></span>')).toBe(true);
    expect(head.startsWith('<link rel="expect" href="#prerendered-end" blocking="render">')).toBe(true);
    expect(root).not.toMatch(/autofocus/i);
    // Each field says when it is filled (the rules that lift its label read :placeholder-shown).
    expect(root.match(/<input placeholder=" "/g)).toHaveLength(2);
    // The rules that show it, then the theme's own as Emotion writes them: each global style
    // (CssBaseline, the autofill keyframes) in an element of its own, then the class rules.
    expect(head.match(/<style data-prerender="[a-z]+"[^>]*>/g)).toEqual([
      '<style data-prerender="all">',
      expect.stringMatching(/^<style data-prerender="light" data-emotion="css-global [a-zA-Z0-9-]+">$/),
      expect.stringMatching(/^<style data-prerender="light" data-emotion="css-global [a-zA-Z0-9-]+">$/),
      expect.stringMatching(/^<style data-prerender="light" data-emotion="css( [a-zA-Z0-9-]+)+">$/),
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
