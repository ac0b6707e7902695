import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAID, RESULT_LEAD_UUID } from '../../../../machines/payment-result/payment-result.model';
import { renderApp } from '../../../../tests/support/render-app';
import { activateLanguage } from '../../i18n/locale';
import { ApiError, configureHttpClient } from '../../services/http-client';
import * as paymentService from '../../services/payment.service';

/**
 * /thank-you-p after a 100 % order (issue 11 item 5): the policy number and the certificate's
 * download link, read with payment-status for the lead alone; the page still thanks the customer
 * when that read fails. payment-status is a stub; travel details (after "Start a new quote")
 * stays loading.
 */

vi.mock('../../services/payment.service', () => ({ fetchPaymentStatus: vi.fn() }));
const payment = vi.mocked(paymentService);

const pendingFetch: typeof fetch = (input) =>
  new Promise((_resolve, reject) => {
    const signal = input instanceof Request ? input.signal : undefined;
    signal?.addEventListener('abort', () => reject(signal.reason));
  });

beforeAll(async () => {
  await activateLanguage('en');
  configureHttpClient({ baseUrl: 'http://thank-you-p.test', signingKey: 'test', fetch: pendingFetch });
});
beforeEach(() => vi.resetAllMocks());
afterEach(() => {
  cleanup();
  localStorage.clear();
});

const FREE_ORDER = { ...PAID, amount: 0 };

function open(uuid: string | null = RESULT_LEAD_UUID) {
  const url = uuid ? `/thank-you-p?uuid=${uuid}` : '/thank-you-p';
  const { actor } = renderApp(url, { path: '/thank-you-p', uuid, sessionId: null, agentId: null });
  return { step: () => actor.getSnapshot().value };
}

describe('/thank-you-p', () => {
  it("shows the lead's policy number and the certificate link, read without a reference", async () => {
    payment.fetchPaymentStatus.mockResolvedValue(FREE_ORDER);
    open();
    expect(screen.getByTestId('hundred-policy').textContent).toContain('Loading your policy…');
    expect(screen.queryByTestId('order-confirmed')).toBeNull();
    await screen.findByTestId('policy-card');
    expect(screen.getByTestId('order-confirmed').textContent).toContain('nothing to pay');
    expect(payment.fetchPaymentStatus).toHaveBeenCalledWith({ uuid: RESULT_LEAD_UUID, reference: null, lang: 'en' });
    expect(screen.getByTestId('policy-number').textContent).toBe(PAID.policy!.policy_number);
    const link = screen.getByRole('link', { name: 'Download certificate (PDF)' });
    expect(link.getAttribute('href')).toBe(PAID.policy!.certificate_url);
    expect(link.hasAttribute('download')).toBe(true);
    // Nothing was paid online: no "Amount paid" line.
    expect(screen.queryByTestId('amount-paid')).toBeNull();
    expect(screen.getByTestId('hundred-policy').getAttribute('role')).toBe('status');
  });

  it('says once, plainly, that the policy was e-mailed (no "will e-mail" beside "has been sent")', async () => {
    payment.fetchPaymentStatus.mockResolvedValue(FREE_ORDER);
    open();
    await screen.findByTestId('policy-card');
    const page = document.body.textContent ?? '';
    expect(page).toContain('Your policy has been issued and e-mailed to you.');
    expect(page).not.toMatch(/will e-mail|has been sent|sent to your e-mail/);
  });

  it.each([
    ['pending', { ...PAID, status: 'pending' as const, policy: null, paid_at: null }],
    ['failed', { ...PAID, status: 'failed' as const, reason: 'other' as const, policy: null, paid_at: null }],
  ])('for an order of the lead that is %s confirms nothing and shows no policy', async (_label, answer) => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      payment.fetchPaymentStatus.mockResolvedValue(answer);
      open();
      await act(async () => {
        await vi.advanceTimersByTimeAsync(60_000);
      });
      await screen.findByTestId('hundred-no-order');
      expect(screen.queryByTestId('order-confirmed')).toBeNull();
      expect(screen.queryByTestId('policy-card')).toBeNull();
      expect(document.body.textContent).not.toContain('Your policy has been issued');
    } finally {
      vi.useRealTimers();
    }
  });

  it('for an unknown uuid (404) says no order was found, confirms nothing and offers a new quote and contact', async () => {
    payment.fetchPaymentStatus.mockRejectedValue(new ApiError('rejected', '/payment-status', 404, null));
    open();
    const notice = await screen.findByTestId('hundred-no-order');
    expect(screen.getByTestId('screen-thank-you-hundred').textContent).toBe('No order found');
    expect(notice.textContent).toContain('We found no completed order for this link');
    expect(document.body.textContent).not.toContain('Your policy has been issued');
    expect(screen.queryByTestId('order-confirmed')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Download certificate (PDF)' })).toBeNull();
    expect(screen.getByTestId('contact-options')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Start a new quote' })).toBeTruthy();
  });

  describe('in Arabic', () => {
    beforeAll(() => activateLanguage('ar'));
    afterAll(() => activateLanguage('en'));

    it('for an unknown uuid (404) says in Arabic that no order was found, confirms nothing and offers a new quote', async () => {
      payment.fetchPaymentStatus.mockRejectedValue(new ApiError('rejected', '/payment-status', 404, null));
      open();
      const notice = await screen.findByTestId('hundred-no-order');
      expect(screen.getByTestId('screen-thank-you-hundred').textContent).toBe('لم نجد أي طلب');
      expect(notice.textContent).toContain('لم نجد أي طلب مكتمل لهذا الرابط، لذلك لم تصدر أي بوليصة.');
      expect(document.body.textContent).not.toContain('صدرت بوليصتك');
      expect(document.body.textContent).not.toContain('No order found');
      expect(screen.queryByTestId('order-confirmed')).toBeNull();
      expect(screen.getByTestId('contact-options')).toBeTruthy();
      expect(screen.getByRole('button', { name: 'اطلب عرض سعر جديدًا' })).toBeTruthy();
    });
  });

  it('in a fresh browser (no lead, no stored thank-you flag) asks nothing, confirms nothing; "Start a new quote" opens travel details', () => {
    expect(localStorage.getItem('thankyou')).toBeNull();
    const { step } = open(null);
    expect(payment.fetchPaymentStatus).not.toHaveBeenCalled();
    expect(screen.getByTestId('hundred-no-order')).toBeTruthy();
    expect(document.body.textContent).not.toContain('Your policy has been issued');
    expect(screen.queryByTestId('order-confirmed')).toBeNull();
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Start a new quote' })));
    expect(step()).toBe('travellerDetails');
  });

  it('after a failed read says the order could not be checked (not that it exists) and checks again on request', async () => {
    payment.fetchPaymentStatus.mockRejectedValueOnce(new ApiError('network', '/payment-status', null, null)).mockResolvedValueOnce(FREE_ORDER);
    open();
    await screen.findByTestId('hundred-check-failed');
    expect(document.body.textContent).not.toContain('Your policy has been issued');
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Check again' })));
    await screen.findByTestId('policy-card');
    expect(payment.fetchPaymentStatus).toHaveBeenCalledTimes(2);
  });
});
