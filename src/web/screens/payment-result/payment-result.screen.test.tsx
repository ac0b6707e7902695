import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CANCELLED,
  CHANGED,
  DECLINED,
  FAILED_OTHER,
  PAID,
  PAID_TWICE,
  PENDING,
  REFUNDED,
  RESULT_LEAD_UUID,
  RESULT_REFERENCE,
  SECOND_REFERENCE,
} from '../../../../machines/payment-result/payment-result.model';
import { PAYMENT_POLL_LIMIT, PAYMENT_POLL_MS } from '../../../../machines/payment-result/payment-result.types';
import type { JourneyInput } from '../../../../machines/journey.types';
import { renderApp } from '../../../../tests/support/render-app';
import { formatMoney } from '../../i18n/format';
import { activateLanguage } from '../../i18n/locale';
import { ApiError, configureHttpClient } from '../../services/http-client';
import * as paymentService from '../../services/payment.service';
import { COMPANY_INFO_FALLBACK } from '../../shell/company-info.fallback';
import { localStore } from '../../storage/local-store';

/**
 * /payment-result in the whole app (issue 11 item 4), payment-status replaced by a stub: the
 * policy, each failure with "Try again" back to checkout, the wait for the bank's answer, and a
 * return address that names no payment. Every other call (checkout, travel details after "Start
 * a new quote") stays pending: those screens are tested beside them.
 */

vi.mock('../../services/payment.service', () => ({ fetchPaymentStatus: vi.fn() }));
const payment = vi.mocked(paymentService);
const INFO = COMPANY_INFO_FALLBACK.en;

const pendingFetch: typeof fetch = (input) =>
  new Promise((_resolve, reject) => {
    const signal = input instanceof Request ? input.signal : undefined;
    signal?.addEventListener('abort', () => reject(signal.reason));
  });

beforeAll(async () => {
  await activateLanguage('en');
  configureHttpClient({ baseUrl: 'http://payment-result.test', signingKey: 'test', fetch: pendingFetch });
});
beforeEach(() => vi.resetAllMocks());
afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.useRealTimers();
});

/** Opens the return address as the return handler builds it (a fresh page load). */
function open(url = `/payment-result?uuid=${RESULT_LEAD_UUID}&ref=${RESULT_REFERENCE}&lang=en`, journey: Partial<JourneyInput> = {}) {
  const uuid = new URLSearchParams(url.split('?')[1] ?? '').get('uuid');
  const { router, actor } = renderApp(url, { path: '/payment-result', uuid, sessionId: null, agentId: null, ...journey });
  return { router, actor, step: () => actor.getSnapshot().value };
}

const heading = () => screen.getByTestId('screen-payment-result');

describe('/payment-result: paid', () => {
  it('reads the order named by the address and shows the policy number (left to right), the amount, the e-mail note and the certificate link', async () => {
    payment.fetchPaymentStatus.mockResolvedValue(PAID);
    open();
    expect(heading().textContent).toBe('Checking your payment');
    // The tab names the page and, once known, the outcome (issue 21, WCAG 2.4.2).
    expect(document.title).toBe('Checking your payment · Safar');
    expect(within(screen.getByRole('status')).getByText('Checking your payment…')).toBeTruthy();

    await screen.findByTestId('policy-card');
    expect(payment.fetchPaymentStatus).toHaveBeenCalledWith({ uuid: RESULT_LEAD_UUID, reference: RESULT_REFERENCE, lang: 'en' });
    expect(heading().textContent).toBe('Your policy is ready');
    expect(heading().tagName).toBe('H1');
    expect(document.title).toBe('Your policy is ready · Safar');
    const number = screen.getByTestId('policy-number');
    expect(number.textContent).toBe('SFR-26-7K3Q9M2T');
    expect(number.getAttribute('dir')).toBe('ltr');
    expect(screen.getByRole('button', { name: 'Copy policy number' })).toBeTruthy();
    // What was paid, to the cent (RULINGS 26).
    expect(screen.getByTestId('amount-paid').textContent).toContain('$133.20');
    expect(screen.getByText('We sent the certificate to your e-mail.')).toBeTruthy();
    // A real link: keyboard, links list, no script needed.
    const link = screen.getByRole('link', { name: 'Download certificate (PDF)' });
    expect(link.getAttribute('href')).toBe(PAID.policy!.certificate_url);
    expect(link.hasAttribute('download')).toBe(true);
    // The policy is inside the announced status region.
    expect(within(screen.getByTestId('payment-paid')).getByTestId('policy-number')).toBeTruthy();
    expect(screen.getByTestId('payment-paid').getAttribute('role')).toBe('status');
    const contact = screen.getByTestId('contact-options');
    expect(within(contact).getByRole('link', { name: `Call us toll-free on ${INFO.toll_free_number}` })).toBeTruthy();
  });

  it('stores the thank-you flag and spends the stored coupon, so checkout opened again starts a new quote', async () => {
    localStore.set('coupon', 'SAVE10');
    payment.fetchPaymentStatus.mockResolvedValue(PAID);
    open();
    await screen.findByTestId('policy-card');
    expect(localStore.get('thankyou')).toBe('1');
    expect(localStore.get('coupon')).toBeNull();
  });

  it('keeps the ref in the address, and a reload shows the same policy', async () => {
    payment.fetchPaymentStatus.mockResolvedValue(PAID);
    const first = open();
    await screen.findByTestId('policy-card');
    const query = new URLSearchParams(first.router.state.location.search);
    expect(first.router.state.location.pathname).toBe('/payment-result');
    expect({ uuid: query.get('uuid'), ref: query.get('ref') }).toEqual({ uuid: RESULT_LEAD_UUID, ref: RESULT_REFERENCE });
    cleanup();

    open(`${first.router.state.location.pathname}${first.router.state.location.search}`);
    await screen.findByTestId('policy-card');
    expect(screen.getByTestId('policy-number').textContent).toBe('SFR-26-7K3Q9M2T');
    expect(payment.fetchPaymentStatus).toHaveBeenCalledTimes(2);
    expect(payment.fetchPaymentStatus).toHaveBeenLastCalledWith({ uuid: RESULT_LEAD_UUID, reference: RESULT_REFERENCE, lang: 'en' });
  });

  it('"Start a new quote" opens travel details without the lead', async () => {
    payment.fetchPaymentStatus.mockResolvedValue(PAID);
    const { step, router } = open();
    await screen.findByTestId('policy-card');
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Start a new quote' })));
    expect(step()).toBe('travellerDetails');
    expect(new URLSearchParams(router.state.location.search).get('uuid')).toBeNull();
  });
});

describe('/payment-result: paid twice (a second payment for the same policy)', () => {
  // $122.10, the second payment; the order itself is $133.20.
  const refunded = formatMoney(PAID_TWICE.refund!.amount, 'en', { cents: true });

  it('shows the policy and, in its own announced notice, that the second payment comes back to the card', async () => {
    payment.fetchPaymentStatus.mockResolvedValue(PAID_TWICE);
    open();
    const notice = await screen.findByTestId('payment-paid-twice');
    expect(notice.getAttribute('role')).toBe('status');
    expect(
      within(notice).getByText(`You paid twice for this policy. The second payment of ${refunded} will be refunded to your card; you do not need to do anything.`),
    ).toBeTruthy();
    expect(notice.textContent).toContain('$122.10');
    expect(within(notice).getByText(SECOND_REFERENCE).getAttribute('dir')).toBe('ltr');
    // The policy as for any paid order, with what the order cost; not inside the notice.
    expect(heading().textContent).toBe('Your policy is ready');
    expect(screen.getByTestId('policy-number').textContent).toBe('SFR-26-7K3Q9M2T');
    expect(screen.getByTestId('amount-paid').textContent).toContain('$133.20');
    expect(within(notice).queryByTestId('policy-card')).toBeNull();
    expect(localStore.get('thankyou')).toBe('1');
  });

  it('says nothing of a refund when the customer paid once', async () => {
    payment.fetchPaymentStatus.mockResolvedValue(PAID);
    open();
    await screen.findByTestId('policy-card');
    expect(screen.queryByTestId('payment-paid-twice')).toBeNull();
    expect(screen.queryByText(/paid twice/)).toBeNull();
  });

  describe('in Arabic', () => {
    beforeAll(() => activateLanguage('ar'));
    afterAll(() => activateLanguage('en'));

    it('the notice in Arabic, with the amount in Western digits read left to right', async () => {
      payment.fetchPaymentStatus.mockResolvedValue(PAID_TWICE);
      open();
      const notice = await screen.findByTestId('payment-paid-twice');
      expect(within(notice).getByText(`لقد دفعت ثمن هذه البوليصة مرتين. ستُعاد الدفعة الثانية البالغة ${refunded} إلى بطاقتك، ولا داعي لأن تقوم بأي شيء.`)).toBeTruthy();
      expect(notice.textContent).toContain('\u2066$122.10\u2069');
      expect(notice.textContent).not.toMatch(/[\u0660-\u0669\u06F0-\u06F9]/);
    });
  });
});

describe('/payment-result: failed', () => {
  it.each([
    ['declined', DECLINED, 'Your bank declined the payment. No money was taken.'],
    ['cancelled', CANCELLED, 'You cancelled the payment.'],
    ['other', FAILED_OTHER, 'The payment could not be completed. Please try again, or contact us if it keeps failing.'],
    [
      'changed',
      CHANGED,
      'Your order changed after this payment started, so it could not be paid. No money was taken. Go back to checkout to pay for your plan as it is now.',
    ],
    [
      'refund',
      REFUNDED,
      `Your payment arrived after your order had changed, so no policy was issued for it. The payment of ${formatMoney(12_210, 'en', { cents: true })} will be refunded in full to your card. Go back to checkout to buy your plan as it is now.`,
    ],
  ] as const)('%s: an alert with the reason, the amount and the reference; no flag stored', async (reason, answer, text) => {
    payment.fetchPaymentStatus.mockResolvedValue(answer);
    open();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(text)).toBeTruthy();
    expect(alert.textContent).toContain('$133.20');
    // The reference is one left-to-right run on one line: in Arabic it neither breaks at a hyphen nor reorders (issue 21).
    const reference = within(alert).getByTestId('payment-reference');
    expect(reference.textContent).toBe(RESULT_REFERENCE);
    expect([reference.getAttribute('dir'), reference.style.whiteSpace]).toEqual(['ltr', 'nowrap']);
    // A refunded payment did go through: it bought no policy.
    expect(heading().textContent).toBe(reason === 'refund' ? 'No policy was issued for this payment' : 'Your payment did not go through');
    expect(document.title).toBe(`${heading().textContent} · Safar`);
    expect(within(alert).getByText(reason === 'refund' ? 'Your payment will be refunded' : 'Payment not completed')).toBeTruthy();
    expect(localStore.get('thankyou')).toBeNull();
    expect(screen.queryByTestId('policy-card')).toBeNull();
  });

  it.each([
    ['changed', CHANGED],
    ['refund', REFUNDED],
  ] as const)('%s: "Try again" returns to checkout, to pay for the plan as it is now', async (_reason, answer) => {
    payment.fetchPaymentStatus.mockResolvedValue(answer);
    const { step, router } = open();
    const retry = await screen.findByRole('button', { name: 'Try again' });
    expect(retry.hasAttribute('disabled')).toBe(false);
    // A refunded payment is not a second policy: no thank-you flag, no notice of the paid view.
    expect(localStore.get('thankyou')).toBeNull();
    expect(screen.queryByTestId('payment-paid-twice')).toBeNull();
    act(() => fireEvent.click(retry));
    expect(step()).toBe('checkout');
    expect(router.state.location.pathname).toBe('/checkout');
    expect(new URLSearchParams(router.state.location.search).get('uuid')).toBe(RESULT_LEAD_UUID);
  });

  describe('in Arabic', () => {
    beforeAll(() => activateLanguage('ar'));
    afterAll(() => activateLanguage('en'));

    it.each([
      ['changed', CHANGED, 'تغيّر طلبك بعد أن بدأت عملية الدفع هذه، لذا تعذّر إتمامها. لم يُقتطع أي مبلغ. عُد إلى صفحة إتمام الشراء لتدفع ثمن خطتك كما هي الآن.'],
      [
        'refund',
        REFUNDED,
        `وصلت دفعتك بعد أن تغيّر طلبك، لذا لم تُصدَر أي بوليصة مقابلها. سيُعاد مبلغ ${formatMoney(12_210, 'ar', { cents: true })} كاملًا إلى بطاقتك. عُد إلى صفحة إتمام الشراء لشراء خطتك كما هي الآن.`,
      ],
    ] as const)('%s: the reason in Arabic, and "Try again"', async (_reason, answer, text) => {
      payment.fetchPaymentStatus.mockResolvedValue(answer);
      open();
      const alert = await screen.findByRole('alert');
      expect(within(alert).getByText(text)).toBeTruthy();
      expect(screen.getByRole('button', { name: 'حاول مجددًا' })).toBeTruthy();
    });
  });

  it('"Try again" returns to checkout for the same lead (a new history entry), the stored coupon kept', async () => {
    localStore.set('coupon', 'SAVE10');
    payment.fetchPaymentStatus.mockResolvedValue(DECLINED);
    const { step, router } = open();
    const retry = await screen.findByRole('button', { name: 'Try again' });
    expect(retry.hasAttribute('disabled')).toBe(false);
    act(() => fireEvent.click(retry));
    expect(step()).toBe('checkout');
    expect(router.state.location.pathname).toBe('/checkout');
    expect(new URLSearchParams(router.state.location.search).get('uuid')).toBe(RESULT_LEAD_UUID);
    expect(router.state.historyAction).toBe('PUSH');
    // Checkout first asks whether the lead was paid meanwhile (RULINGS 28), then shows.
    expect(await screen.findByTestId('screen-checkout')).toBeTruthy();
    expect(localStore.get('coupon')).toBe('SAVE10');
    // Back shows the failure again (read anew).
    await act(() => router.navigate(-1));
    expect(step()).toBe('paymentResult');
    await screen.findByRole('button', { name: 'Try again' });
    expect(payment.fetchPaymentStatus).toHaveBeenCalledTimes(2);
  });
});

describe('/payment-result: waiting for the bank (the browser came back before the gateway told the server)', () => {
  it('asks again every 2 s and shows the policy when the answer arrives', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    payment.fetchPaymentStatus.mockResolvedValueOnce(PENDING).mockResolvedValueOnce(PENDING).mockResolvedValue(PAID);
    open();
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByRole('status').textContent).toContain("We are waiting for your bank's answer.");
    expect(payment.fetchPaymentStatus).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(PAYMENT_POLL_MS - 1));
    expect(payment.fetchPaymentStatus).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(payment.fetchPaymentStatus).toHaveBeenCalledTimes(2);
    await act(() => vi.advanceTimersByTimeAsync(PAYMENT_POLL_MS));
    expect(payment.fetchPaymentStatus).toHaveBeenCalledTimes(3);
    expect(screen.getByTestId('policy-number').textContent).toBe('SFR-26-7K3Q9M2T');
  });

  it(`after ${PAYMENT_POLL_LIMIT} more reads says the answer will come by e-mail; Refresh looks again`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    payment.fetchPaymentStatus.mockResolvedValue(PENDING);
    open();
    await act(() => vi.advanceTimersByTimeAsync(PAYMENT_POLL_MS * PAYMENT_POLL_LIMIT));
    expect(payment.fetchPaymentStatus).toHaveBeenCalledTimes(1 + PAYMENT_POLL_LIMIT);
    const late = screen.getByTestId('payment-unconfirmed');
    expect(late.getAttribute('role')).toBe('status');
    expect(late.textContent).toContain("We have not received your bank's answer yet. We will e-mail you as soon as it arrives");
    expect(heading().textContent).toBe('We are still waiting for your bank');
    // No more reads until asked.
    await act(() => vi.advanceTimersByTimeAsync(PAYMENT_POLL_MS * 3));
    expect(payment.fetchPaymentStatus).toHaveBeenCalledTimes(1 + PAYMENT_POLL_LIMIT);

    payment.fetchPaymentStatus.mockResolvedValue(PAID);
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Refresh' })));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByTestId('policy-number')).toBeTruthy();
  });
});

describe('/payment-result: nothing to show', () => {
  it('a refused return (/payment-result?lang=en: no lead) says so, asks nothing, and offers contact and a new quote', () => {
    open('/payment-result?lang=en');
    expect(heading().textContent).toBe('We could not find this payment');
    expect(screen.getByTestId('payment-not-found').textContent).toContain('If money was taken from your card, contact us');
    expect(screen.getByTestId('contact-options')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Start a new quote' })).toBeTruthy();
    expect(payment.fetchPaymentStatus).not.toHaveBeenCalled();
  });

  it('a cut-off reference names no payment: not found, nothing asked', () => {
    open(`/payment-result?uuid=${RESULT_LEAD_UUID}&ref=SAF/42&lang=en`);
    expect(heading().textContent).toBe('We could not find this payment');
    expect(payment.fetchPaymentStatus).not.toHaveBeenCalled();
  });

  it('an order the server does not know for this lead (404): not found', async () => {
    payment.fetchPaymentStatus.mockRejectedValue(new ApiError('rejected', '/payment-status', 404, { status: 404, message: 'Not found.', data: { errors: { merchant_reference: 'not_found' } } }));
    open();
    await screen.findByTestId('payment-not-found');
    expect(heading().textContent).toBe('We could not find this payment');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('a failed read shows an error with Refresh, which reads again', async () => {
    payment.fetchPaymentStatus.mockRejectedValueOnce(new ApiError('network', '/payment-status', null, null)).mockResolvedValue(DECLINED);
    open();
    const failed = await screen.findByTestId('payment-read-failed');
    expect(failed.getAttribute('role')).toBe('alert');
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Refresh' })));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy());
    expect(payment.fetchPaymentStatus).toHaveBeenCalledTimes(2);
  });
});
