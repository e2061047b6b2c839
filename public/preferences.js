// Runs before anything paints (a blocking script in index.html's head; the server's Content
// Security Policy allows no inline script): the theme and the language the visitor chose, as
// src/app/persisted.ts keeps them in localStorage, so that a light-theme page never starts dark.
/* global document, localStorage, navigator -- a browser script */
(function () {
  var root = document.documentElement;
  var preferences = {};
  try {
    var stored = JSON.parse(localStorage.getItem('persist:preferences') || '{}');
    if (stored.theme) preferences.theme = JSON.parse(stored.theme);
    if (stored.language) preferences.language = JSON.parse(stored.language);
  } catch {
    // nothing stored, or storage blocked: the defaults
  }
  if (preferences.theme === 'light') root.setAttribute('data-theme', 'light');
  var language = preferences.language || (/^pt/i.test(navigator.language || '') ? 'pt' : 'en');
  root.lang = language === 'pt' ? 'pt-BR' : 'en';
})();
