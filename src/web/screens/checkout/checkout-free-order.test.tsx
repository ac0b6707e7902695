import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CHECKOUT_LEAD_UUID,
  CHECKOUT_SESSION_UUID,
  FREE100,
  FREE_PLAN_INVOICE,
  PAID_RESULT,
  checkoutData,
} from '../../../../machines/checkout/checkout.model';
import { renderApp } from '../../../../tests/support/render-app';
import { activateLanguage } from '../../i18n/locale';
import * as checkoutService from '../../services/checkout.service';
import { configureHttpClient } from '../../services/http-client';
import * as reviewService from '../../services/review.service';

/**
 * Issue 38: with FREE100 the server's total is $0.00, and a $0 order has no payments page: the
 * policy is issued at once (RULINGS 18, /thank-you-p). The button then says what it does, "Get my
 * policy", and so does the wait that follows; with anything to pay it stays "Proceed to payment".
 * The lead read, coupon/validate and temp-checkout are stubs at the service edge.
 */

vi.mock('../../services/review.service', () => ({ fetchLeadWithPlan: vi.fn(), fetchWhatsappTemplate: vi.fn() }));
vi.mock('../../services/checkout.service', () => ({ validateCoupon: vi.fn(), tempCheckout: vi.fn() }));
const review = vi.mocked(reviewService);
const checkout = vi.mocked(checkoutService);

const pendingFetch: typeof fetch = () => new Promise(() => {});

beforeAll(async () => {
  await activateLanguage('en');
  configureHttpClient({ baseUrl: 'http://checkout-free.test', signingKey: 'test', fetch: pendingFetch });
});
beforeEach(() => {
  vi.resetAllMocks();
  review.fetchLeadWithPlan.mockResolvedValue(checkoutData({ invoice: FREE_PLAN_INVOICE }).details);
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

function open(query = '') {
  return renderApp(`/checkout?uuid=${CHECKOUT_LEAD_UUID}&lang=en${query}`, { path: '/checkout', uuid: CHECKOUT_LEAD_UUID, sessionId: CHECKOUT_SESSION_UUID, agentId: null });
}

const payButton = () => screen.getByTestId('checkout-pay');

describe('a $0 total at checkout', () => {
  it('with something to pay, the button leads to payment', async () => {
    open();
    await screen.findByTestId('price-total');
    expect(payButton().textContent).toBe('Proceed to payment');
  });

  it('with FREE100 the total is $0.00 and the button says "Get my policy"; pressing it waits for the policy, not a payment, and ends on /thank-you-p', async () => {
    checkout.validateCoupon.mockResolvedValue(FREE100);
    let answer: (result: typeof PAID_RESULT) => void = () => {};
    checkout.tempCheckout.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    const { actor } = open('&coupon=FREE100');
    await screen.findByTestId('coupon-applied');
    expect(screen.getByTestId('price-total').textContent).toContain('0.00');
    expect(payButton().textContent).toBe('Get my policy');
    expect(screen.queryByText('Proceed to payment')).toBeNull();

    act(() => fireEvent.click(payButton()));
    await waitFor(() => expect(screen.getByTestId('checkout-paying-status').textContent).toBe('Please wait while we issue your policy…'));
    expect(screen.queryByText(/prepare your secure payment/)).toBeNull();
    // A review draft kept for a reload (its names and passports) goes with the finished trip.
    sessionStorage.setItem('reload_draft', JSON.stringify({ path: '/review-details', values: {} }));
    act(() => answer(PAID_RESULT));
    await waitFor(() => expect(actor.getSnapshot().value).toBe('thankYouHundred'));
    expect(sessionStorage.getItem('reload_draft')).toBeNull();
  });
});
