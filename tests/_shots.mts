import { chromium } from 'playwright-core';
import { signRequest, SIGNATURE_HEADERS } from '../src/contract/signing';
const base = process.argv[2] ?? 'http://localhost:8091';
const key = 'safar-dev-signing-secret-change-me';
async function post(path: string, body: unknown) {
  const text = JSON.stringify(body);
  const p = await signRequest(key, text, Date.now());
  const res = await fetch(base + path, { method: 'POST', body: text, headers: { 'content-type': 'application/json', [SIGNATURE_HEADERS.nonce]: p.nonce, [SIGNATURE_HEADERS.timestamp]: p.timestamp, [SIGNATURE_HEADERS.signature]: p.signature } });
  return res.json();
}
const id = Math.floor(Math.random() * 9e6) + 1e6;
const lead = await post('/miscellaneous/travel/wiz/add-customer-lead', {
  name: 'Rania Haddad', email: `shots.${id}@example.com`, phone_country_code: '+961', phone_number: `7${String(id).slice(0, 7)}`,
  inbound_outbound: true, trip_type: 1, start_date: '2026-12-05', end_date: '2026-12-15', destination_id: [250, 380], source_id: 422,
  no_of_traveller: 3, is_family: true, lang: 'en',
  travellers_info: [{ dob: '1985-01-10' }, { dob: '1987-02-11' }, { dob: '2015-03-12' }],
}) as any;
const uuid = lead.data.uuid;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
for (const lang of ['en', 'ar']) for (const width of [375, 1280]) {
  const context = await browser.newContext({ viewport: { width, height: width < 500 ? 812 : 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/compare-quotes?uuid=${uuid}&lang=${lang}`);
  await page.getByTestId('quote-card').first().waitFor({ timeout: 20000 });
  await page.waitForTimeout(500);
  await page.screenshot({ path: `/tmp/shots/list-${lang}-${width}.png` });
  await page.screenshot({ path: `/tmp/shots/listfull-${lang}-${width}.png`, fullPage: true });
  console.log(lang, width, 'overflow', await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth));
  await page.getByTestId('open-benefits').first().click();
  await page.getByTestId('benefits-drawer-body').waitFor();
  await page.waitForTimeout(600);
  await page.screenshot({ path: `/tmp/shots/drawer-${lang}-${width}.png` });
  await page.keyboard.press('Escape');
  await page.waitForTimeout(400);
  if (width > 800) {
    const boxes = page.getByTestId('compare-checkbox');
    await boxes.nth(0).check(); await boxes.nth(1).check();
    await page.waitForTimeout(400);
    await page.screenshot({ path: `/tmp/shots/tray-${lang}-${width}.png` });
    await boxes.nth(2).check();
    await page.getByTestId('compare-open').click();
  } else {
    await page.evaluate(() => {});
    const ids = await page.evaluate(() => [...document.querySelectorAll('[data-testid="quote-card"]')].slice(0, 3).map((e) => e.getAttribute('data-quote-id')));
    // compare ids are compare_id; read them from the API response instead
    const data = await post('/miscellaneous/travel/wiz/compare-quotes', { uuid, lang }) as any;
    await page.evaluate((cids) => localStorage.setItem('compare_data', JSON.stringify(cids)), data.data.quotes.slice(0, 3).map((q: any) => q.compare_id));
    void ids;
    await page.goto(`${base}/compare-offers?uuid=${uuid}&lang=${lang}`);
  }
  await page.getByTestId('offers-table').waitFor({ timeout: 20000 });
  await page.waitForTimeout(500);
  await page.screenshot({ path: `/tmp/shots/offers-${lang}-${width}.png`, fullPage: width > 800 });
  console.log(lang, width, 'offers overflow', await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth));
  await context.close();
}
await browser.close();
