import { afterEach, describe, expect, it } from 'vitest';
import { applyStartupQuery } from '../journey/startup-query';
import { chooseShell } from './shell-choice';

/** Opens `url` in the test DOM's window with `stored` as the saved language, and runs the inline chooser. */
function choose(url: string, stored: string | null) {
  window.history.replaceState(null, '', url);
  localStorage.clear();
  if (stored !== null) localStorage.setItem('language', stored);
  chooseShell();
  const html = document.documentElement;
  return { shell: html.getAttribute('data-shell'), lang: html.lang, dir: html.dir, title: document.title };
}

afterEach(() => {
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('the inline chooser of the first paint (issue 19)', () => {
  it.each([
    ['/traveller-details', null, 'en', 'ltr'],
    ['/traveller-details?lang=ar', null, 'ar', 'rtl'],
    ['/', 'ar', 'ar', 'rtl'],
    ['/traveller-details/', 'ar', 'ar', 'rtl'],
    ['/traveller-details?lang=en', 'ar', 'en', 'ltr'],
    ['/traveller-details?lang=fr', 'ar', 'ar', 'rtl'],
    ['/traveller-details//', null, 'en', 'ltr'],
    ['/compare-quotes?uuid=x&lang=ar', null, 'ar', 'rtl'],
    ['/checkout', 'ar', 'ar', 'rtl'],
    ['/payment-result?ref=1', null, 'en', 'ltr'],
  ])("shows the page's pre-rendered screen on %s (stored %s) in %s, %s, the tab named in that language", (url, stored, lang, dir) => {
    expect(choose(url, stored)).toEqual({ shell: lang, lang, dir, title: lang === 'ar' ? 'Safar سفر · تأمين السفر' : 'Safar · Travel insurance' });
  });

  it.each([
    ['?lang=ar', null],
    ['?lang=en', 'ar'],
    ['', 'ar'],
    ['', 'en'],
    ['', 'fr'],
    ['?lang=xx', 'ar'],
    ['?lang=', null],
  ])('picks the language the app will pick (query %j, stored %j), so the hydrated screen matches', (query, stored) => {
    const chosen = choose(`/traveller-details${query}`, stored).lang;
    expect(chosen).toBe(applyStartupQuery(query).lang);
  });
});
