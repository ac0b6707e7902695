import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, MOBILE, TEXTS, baseUrl, expectNoProblems, openPage, otherLanguage, sharedPage, waitForApp, type Lang, type OpenPage, browserForThisFile } from './harness';
import { textIn } from './journey-steps';

/** The main-site pages the footer links to (spec §1). */
const MAIN_SITE_SLUGS = [
  'car-insurance',
  'bike-insurance-lebanon',
  'travel-insurance',
  'expat-health-insurance',
  'health-insurance',
  'help-center',
  'contact-us',
  'faqs',
  'about-us',
  'insurance-partners',
  'blog',
  'privacy-policy',
  'terms-and-conditions',
  'corporate-solutions',
];
const MAIN_SITE = 'https://www.safar.example';
const TOLL_FREE = '+961 1 500 500';
const TOLL_FREE_TEL = 'tel:+9611500500';
const EMAIL = 'care@safar.example';
const SOCIAL = [
  { name: /^facebook$/i, host: 'www.facebook.com' },
  { name: /^instagram$/i, host: 'www.instagram.com' },
  { name: /^linkedin$/i, host: 'www.linkedin.com' },
  { name: /^x$/i, host: 'x.com' },
];

const browser = browserForThisFile();

interface Shell extends OpenPage {
  /** The Content-Security-Policy the page was served with. */
  csp: string;
}

/** Opens `/?lang=<lang>` in a fresh context and waits for the app. */
async function openShell(lang: Lang, viewport: { width: number; height: number }): Promise<Shell> {
  const opened = await openPage(browser(), viewport);
  const response = await opened.page.goto(`/?lang=${lang}`);
  await waitForApp(opened.page);
  return { ...opened, csp: response?.headers()['content-security-policy'] ?? '' };
}

const visibleTexts = (page: Page, selector: string) =>
  page.locator(selector).filter({ visible: true }).allInnerTexts();

describe.each(['en', 'ar'] as const)('shell in %s', (lang) => {
  const texts = TEXTS[lang];
  const other = otherLanguage(lang);
  // The checks below only read the page: one page at each width serves them all.
  const desktop = sharedPage(() => openShell(lang, DESKTOP));
  const mobile = sharedPage(() => openShell(lang, MOBILE));

  test(`/?lang=${lang} redirects to /traveller-details and sets <html lang="${lang}" dir="${texts.dir}">, and the tab's title in ${lang}`, async () => {
    const opened = await desktop();
    const { page } = opened;
    const url = new URL(page.url());
    expect(url.pathname).toBe('/traveller-details');
    expect(url.searchParams.get('lang')).toBe(lang);
    expect(await page.locator('html').getAttribute('lang')).toBe(lang);
    expect(await page.locator('html').getAttribute('dir')).toBe(texts.dir);
    // The screen's heading names the tab, in the page's language only (issue 21, WCAG 2.4.2).
    await expect.poll(() => page.title()).toBe(textIn(lang, '{title} · Safar', { title: textIn(lang, 'Travel details') }));
    expectNoProblems(opened);
  });

  test(`the header shows the logo link home, a wa.me WhatsApp link, the toll-free tel: link and a switch to ${other}`, async () => {
    const opened = await desktop();
    const { page } = opened;
    const header = page.locator('header');

    const logo = header.locator('a[href="/traveller-details"]');
    expect(await logo.isVisible()).toBe(true);
    expect(await logo.getByRole('img', { name: 'Safar' }).count()).toBe(1);

    const whatsapp = header.locator('a[href^="https://wa.me/"]').filter({ visible: true });
    expect(await whatsapp.count()).toBe(1);
    expect(await whatsapp.getAttribute('href')).toMatch(/^https:\/\/wa\.me\/\d+$/);

    const tel = header.locator(`a[href="${TOLL_FREE_TEL}"]`).filter({ visible: true });
    expect(await tel.count()).toBe(1);
    expect(await tel.innerText()).toContain(TOLL_FREE);

    const language = page.getByTestId('language-switch');
    expect(await language.isVisible()).toBe(true);
    expect((await language.innerText()).trim()).toBe(texts.otherLanguageLabel);
    expect(await language.getAttribute('lang')).toBe(other);
    expectNoProblems(opened);
  });

  test('at 375 px the header keeps WhatsApp, the toll-free number (in the link name) and the language switch', async () => {
    const opened = await mobile();
    const { page } = opened;
    const header = page.locator('header');
    expect(await header.locator('a[href^="https://wa.me/"]').filter({ visible: true }).count()).toBe(1);
    const tel = header.locator(`a[href="${TOLL_FREE_TEL}"]`).filter({ visible: true });
    expect(await tel.count()).toBe(1);
    expect(await tel.getAttribute('aria-label')).toContain(TOLL_FREE);
    expect(await page.getByTestId('language-switch').isVisible()).toBe(true);
    // Nothing in the header may be pushed off a small screen.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);
    expectNoProblems(opened);
  });

  test('at 320 px with the web fonts never arriving (fallback fonts, as on a slow line) nothing runs off the screen', async () => {
    const opened = await openPage(browser(), { width: 320, height: 640 });
    const { page } = opened;
    await page.route(/\.woff2?(\?|$)/, (route) => route.abort());
    await page.goto(`/?lang=${lang}`);
    await waitForApp(page);
    await page.getByTestId('language-switch').waitFor({ state: 'visible' });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);
    await opened.context.close();
  });

  test('the footer shows the contact e-mail, 4 social links, the accepted card logos and the 14 main-site links', async () => {
    const opened = await desktop();
    const { page } = opened;
    const footer = page.locator('footer');

    const email = footer.locator(`a[href="mailto:${EMAIL}"]`);
    expect(await email.count()).toBe(1);
    expect((await email.innerText()).trim()).toBe(EMAIL);

    for (const social of SOCIAL) {
      const link = footer.getByRole('link', { name: social.name });
      expect(await link.count(), `${social.host} link`).toBe(1);
      expect(new URL((await link.getAttribute('href')) ?? '').host).toBe(social.host);
    }

    const cards = footer.getByRole('list', { name: lang === 'ar' ? 'بطاقات الدفع المقبولة' : 'Accepted payment cards' });
    expect(await cards.count()).toBe(1);
    const cardNames = await cards.getByRole('listitem').evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
    expect(cardNames).toEqual(['Visa', 'Mastercard', 'American Express']);

    const hrefs = await footer.locator(`a[href^="${MAIN_SITE}/"]`).evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect([...hrefs].sort()).toEqual(MAIN_SITE_SLUGS.map((slug) => `${MAIN_SITE}/${slug}`).sort());
    expectNoProblems(opened);
  });

  test(`at 1280 px the stepper shows the 4 steps in ${lang} with the first current and the mobile bar hidden`, async () => {
    const opened = await desktop();
    const { page } = opened;
    const steps = page.locator('[data-testid^="wizard-step-"]');
    expect(await steps.count()).toBe(4);
    expect((await steps.allInnerTexts()).map((text) => text.replace(/\d/g, '').trim())).toEqual(texts.steps);
    const current = await steps.evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-current')));
    expect(current).toEqual(['step', null, null, null]);
    expect(await steps.first().isVisible()).toBe(true);
    expect(await page.getByTestId('wizard-mobile').isVisible()).toBe(false);
    expectNoProblems(opened);
  });

  test(`at 375 px the mobile wizard shows "${texts.stepOfFirst}" and the desktop stepper is hidden`, async () => {
    const opened = await mobile();
    const { page } = opened;
    const wizard = page.getByTestId('wizard-mobile');
    expect(await wizard.isVisible()).toBe(true);
    const currentText = await wizard.locator('[aria-current="step"]').innerText();
    expect(currentText).toContain(texts.stepOfFirst);
    expect(currentText).toContain(texts.steps[0]);
    expect(await wizard.getByRole('progressbar', { name: texts.stepOfFirst }).count()).toBe(1);
    expect(await visibleTexts(page, '[data-testid^="wizard-step-"]')).toEqual([]);
    expectNoProblems(opened);
  });

  test(`the page is served with its screen pre-rendered and not yet live; the app marks it live once ready, and the h1 is "${texts.steps[0]}"`, async () => {
    const html = await (await fetch(`${baseUrl()}/traveller-details`)).text();
    expect(html).toContain('data-testid="screen-traveller-details"');
    expect(html).not.toContain('data-app=');
    const opened = await desktop();
    const { page } = opened;
    expect(await page.evaluate(() => document.documentElement.dataset.app)).toBe('live');
    const headings = page.locator('main h1');
    expect(await headings.count()).toBe(1);
    expect((await headings.innerText()).trim()).toBe(texts.steps[0]);
    expectNoProblems(opened);
  });

  test.each([MOBILE, DESKTOP])('loads at $width px under a Content-Security-Policy with no console errors, page errors or CSP violations, using server company information', async (viewport) => {
    const opened = await (viewport === MOBILE ? mobile : desktop)();
    expect(opened.csp, 'the page is served with a CSP').toContain("script-src 'self'");
    // Let late requests (fonts, company information) settle before judging.
    await opened.page.waitForLoadState('networkidle');
    expect(opened.warnings.filter((warning) => warning.includes('built-in company information'))).toEqual([]);
    expectNoProblems(opened);
  });
});
