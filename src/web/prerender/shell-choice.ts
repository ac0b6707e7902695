/**
 * Runs inline in <head>, before the body is parsed, to pick what the first paint shows
 * (issue 19): of the page's screen, pre-rendered at build time in both languages, the copy in
 * the customer's language. It also sets <html lang dir> at once, so the Arabic copy paints
 * right to left, and names the tab in that language. Its source is inlined as it is, so it
 * imports nothing and reads the language as startup-query.ts does: `?lang=` wins over the
 * stored choice, then English.
 */
export function chooseShell(): void {
  var html = document.documentElement;
  var lang = 'en';
  try {
    var asked = new URLSearchParams(window.location.search).get('lang');
    var stored = window.localStorage.getItem('language');
    lang = asked === 'ar' || asked === 'en' ? asked : stored === 'ar' ? 'ar' : 'en';
  } catch (refused) {
    // Storage refused (a private mode): English, as the app decides too.
  }
  html.lang = lang;
  html.dir = lang === 'ar' ? 'rtl' : 'ltr';
  html.setAttribute('data-shell', lang);
  // The tab's name in the page's language until the screen's heading names it (page-heading.tsx).
  document.title = lang === 'ar' ? 'Safar سفر · تأمين السفر' : 'Safar · Travel insurance';
}
