import { prerenderedCard, removePrerenderedCards } from '../testing/prerenderedCard';
import { readPrerenderedForm } from './prerendered';

describe('readPrerenderedForm', () => {
  afterEach(removePrerenderedCards);

  /** The prerendered card of public/preferences.js's choice (en, dark), with its two fields. */
  function card() {
    const { variant, inputs } = prerenderedCard([
      { name: 'email', type: 'text', value: '' },
      { name: 'password', type: 'password', value: '' },
    ]);
    return { variant, email: inputs.email!, password: inputs.password! };
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

  it('reads a group of radio buttons as the value of the one checked', () => {
    const { inputs } = prerenderedCard([
      { name: 'plan', type: 'radio', value: 'monthly', checked: false },
      { name: 'plan', type: 'radio', value: 'annual', checked: true },
    ]);
    inputs['plan=annual']!.focus();

    expect(readPrerenderedForm()).toMatchObject({ values: { plan: 'annual' }, focused: 'plan', selection: null });
  });
});
