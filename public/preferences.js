// Runs before anything paints (a blocking script in index.html's head; the server's Content
// Security Policy allows no inline script): the theme and the language the visitor chose, as
// src/app/persisted.ts keeps them in localStorage, so that a light-theme page never starts dark.
//
// On the pages served for /login and /signup, which hold the screen already rendered in one
// language and theme (src/app/prerender.tsx), the attributes set here say whether it is the
// visitor's (CSS shows it only then); this script focuses its first field when the page is parsed,
// and holds back a submit until the app can send it (src/lib/prerendered.ts). It also keeps the
// view cookie, by which the server picks that page.
/* global document, localStorage, navigator, requestAnimationFrame -- a browser script */
(function () {
  var root = document.documentElement;
  var preferences = {};
  var signedIn = false;
  try {
    var stored = JSON.parse(localStorage.getItem('persist:preferences') || '{}');
    if (stored.theme) preferences.theme = JSON.parse(stored.theme);
    if (stored.language) preferences.language = JSON.parse(stored.language);
    var auth = JSON.parse(localStorage.getItem('persist:auth') || '{}');
    signedIn = typeof auth.token === 'string' && typeof JSON.parse(auth.token) === 'string';
  } catch {
    // nothing stored, or storage blocked: the defaults
  }
  var theme = preferences.theme === 'light' ? 'light' : 'dark';
  if (theme === 'light') root.setAttribute('data-theme', 'light');
  var language = preferences.language || (/^pt/i.test(navigator.language || '') ? 'pt' : 'en');
  root.lang = language === 'pt' ? 'pt-BR' : 'en';
  if (signedIn) root.setAttribute('data-signed-in', '');
  // The view (`en-dark`...): which prerendered page the server sends next time, kept in a cookie
  // (src/lib/prerendered.ts, VIEW_COOKIE), and which variant this page shows.
  var view = (language === 'pt' ? 'pt' : 'en') + '-' + theme;
  document.cookie = 'storyflow_view=' + view + '; path=/; max-age=31536000; samesite=lax';

  var styles = document.querySelectorAll('style[data-prerender]');
  if (styles.length === 0) return;
  // A page in the other theme (the server guessed): its styles must not colour this one, and the
  // app's Emotion cache must not take their rules for its own.
  for (var i = 0; i < styles.length; i += 1) {
    var name = styles[i].getAttribute('data-prerender');
    if (name !== 'all' && name !== theme) styles[i].parentNode.removeChild(styles[i]);
  }
  var variant = '[data-prerender-variant="' + view + '"]';
  // Parsed, in the frame that first shows the card: its first field gets the focus, as the app's
  // would. (Not as soon as it is parsed: focusing lays the page out, which the frame does anyway,
  // and the app's deferred script runs right after parsing, in the same task.)
  document.addEventListener('readystatechange', function focusFirstField() {
    document.removeEventListener('readystatechange', focusFirstField);
    requestAnimationFrame(function () {
      var field = signedIn ? null : document.querySelector(variant + ' input');
      if (field && (!document.activeElement || document.activeElement === document.body)) field.focus();
    });
  });
  // A prerendered form has no handler yet: never let the browser send it itself (the password would
  // end up in the address). The app sends it once it has taken over.
  document.addEventListener(
    'submit',
    function (event) {
      var form = event.target;
      if (form && form.closest && form.closest('[data-prerender-variant]')) {
        event.preventDefault();
        form.setAttribute('data-submit-requested', '');
      }
    },
    true,
  );
})();
