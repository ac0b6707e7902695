import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAID, RESULT_LEAD_UUID } from '../../../../machines/payment-result.model';
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
    expect(screen.getByTestId('order-confirmed')).toBeTruthy();
    expect(screen.getByTestId('hundred-policy').textContent).toContain('Loading your policy…');
    await screen.findByTestId('policy-card');
    expect(payment.fetchPaymentStatus).toHaveBeenCalledWith({ uuid: RESULT_LEAD_UUID, reference: null, lang: 'en' });
    expect(screen.getByTestId('policy-number').textContent).toBe(PAID.policy!.policy_number);
    const link = screen.getByRole('link', { name: 'Download certificate (PDF)' });
    expect(link.getAttribute('href')).toBe(PAID.policy!.certificate_url);
    expect(link.hasAttribute('download')).toBe(true);
    // Nothing was paid online: no "Amount paid" line.
    expect(screen.queryByTestId('amount-paid')).toBeNull();
    expect(screen.getByTestId('hundred-policy').getAttribute('role')).toBe('status');
  });

  it.each([
    ['a failed read', () => payment.fetchPaymentStatus.mockRejectedValue(new ApiError('network', '/payment-status', null, null))],
    ['an unknown order (404)', () => payment.fetchPaymentStatus.mockRejectedValue(new ApiError('rejected', '/payment-status', 404, null))],
  ])('after %s keeps the thanks, leaves the link out and says the e-mail has it', async (_label, arrange) => {
    arrange();
    open();
    await screen.findByTestId('hundred-policy-missing');
    expect(screen.getByTestId('order-confirmed').textContent).toContain('Your coupon covered the full amount');
    expect(screen.getByTestId('hundred-policy-missing').textContent).toContain('You will find them in the e-mail we sent you.');
    expect(screen.queryByRole('link', { name: 'Download certificate (PDF)' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Start a new quote' })).toBeTruthy();
  });

  it('without a lead asks nothing and still thanks; "Start a new quote" opens travel details', () => {
    const { step } = open(null);
    expect(payment.fetchPaymentStatus).not.toHaveBeenCalled();
    expect(screen.getByTestId('hundred-policy-missing')).toBeTruthy();
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Start a new quote' })));
    expect(step()).toBe('travellerDetails');
  });
});
