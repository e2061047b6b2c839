import { readPrerenderedForm } from './prerendered';

describe('readPrerenderedForm', () => {
  afterEach(() => document.querySelector('[data-prerender-variant]')?.remove());

  /** The prerendered card of public/preferences.js's choice (en, dark), with its two fields. */
  function card() {
    document.documentElement.lang = 'en';
    document.documentElement.dataset.theme = 'dark';
    const variant = document.createElement('div');
    variant.setAttribute('data-prerender-variant', 'en-dark');
    variant.innerHTML = '<form><input name="email" type="text"><input name="password" type="password"></form>';
    document.body.append(variant);
    const [email, password] = Array.from(variant.querySelectorAll('input'));
    return { variant, email: email!, password: password! };
  }

  it('answers null when the page has no prerendered card', () => {
    expect(readPrerenderedForm()).toBeNull();
  });

  it('reads again what was typed after the first read, once React has removed the card', () => {
    const { variant, email, password } = card();
    email.value = 'ana@exa';
    email.focus();
    const first = readPrerenderedForm()!;
    expect(first).toMatchObject({ values: { email: 'ana@exa', password: '' }, focused: 'email', submitRequested: false });

    // The visitor goes on typing while React renders, then React's commit removes the card.
    email.value = 'ana@example.com';
    email.setSelectionRange(3, 3);
    password.value = 'se';
    variant.querySelector('form')!.setAttribute('data-submit-requested', '');
    variant.remove();

    expect(first.again()).toMatchObject({
      values: { email: 'ana@example.com', password: 'se' },
      focused: 'email',
      selection: { start: 3, end: 3 },
      submitRequested: true,
    });
  });
});
