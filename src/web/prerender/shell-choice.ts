/**
 * Runs inline in <head>, before the body is parsed, to pick what the first paint shows
 * (issue 19): the travel details shell pre-rendered in the customer's language on the entry
 * page, the splash anywhere else. It also sets <html lang dir> at once, so the Arabic shell
 * paints right to left. Its source is inlined as it is, so it imports nothing and reads the
 * language as startup-query.ts does: `?lang=` wins over the stored choice, then English.
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
  var path = window.location.pathname.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');
  html.lang = lang;
  html.dir = lang === 'ar' ? 'rtl' : 'ltr';
  html.setAttribute('data-shell', path === '/' || path === '/traveller-details' ? lang : 'splash');
}
