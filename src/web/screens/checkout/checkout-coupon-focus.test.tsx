import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CouponResult } from '../../../../machines/checkout/checkout.types';
import { CHECKOUT_FAILURES, CHECKOUT_LEAD_UUID, CHECKOUT_SESSION_UUID, EXPIRED_MESSAGE, PLAN_TOTALS, SAVE10, checkoutData } from '../../../../machines/checkout/checkout.model';
import { renderApp } from '../../../../tests/support/render-app';
import { activateLanguage } from '../../i18n/locale';
import * as checkoutService from '../../services/checkout.service';
import { configureHttpClient } from '../../services/http-client';
import * as reviewService from '../../services/review.service';

/**
 * Issue 21 (WCAG 2.4.3, 4.1.3): the coupon box by keyboard and screen reader. Apply keeps the
 * focus while the server checks the code; the focus then follows to Remove, and after Remove to
 * the box; each change is said through the page's live regions with the new total, a refusal at
 * once. A failed check opens the system error dialog, which gives the focus back to Apply. The
 * lead read and coupon/validate are stubs at the service edge.
 */

vi.mock('../../services/review.service', () => ({ fetchLeadWithPlan: vi.fn(), fetchWhatsappTemplate: vi.fn() }));
vi.mock('../../services/checkout.service', () => ({ validateCoupon: vi.fn(), tempCheckout: vi.fn() }));
const review = vi.mocked(reviewService);
const checkout = vi.mocked(checkoutService);

const pendingFetch: typeof fetch = () => new Promise(() => {});

beforeAll(async () => {
  await activateLanguage('en');
  configureHttpClient({ baseUrl: 'http://checkout-focus.test', signingKey: 'test', fetch: pendingFetch });
});
beforeEach(() => {
  vi.resetAllMocks();
  review.fetchLeadWithPlan.mockResolvedValue(checkoutData().details);
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const polite = () => (screen.getByTestId('announcer').textContent ?? '').replace(/[\u2066-\u2069]/g, '');
const urgent = () => screen.getByTestId('announcer-urgent').textContent;
const input = () => screen.getByTestId('coupon-input') as HTMLInputElement;

/** Opens checkout, types `code` and presses Apply from the keyboard (Enter in the box submits it). */
async function applyByKeyboard(code: string) {
  renderApp(`/checkout?uuid=${CHECKOUT_LEAD_UUID}&lang=en`, { path: '/checkout', uuid: CHECKOUT_LEAD_UUID, sessionId: CHECKOUT_SESSION_UUID, agentId: null });
  await screen.findByTestId('coupon-input');
  fireEvent.change(input(), { target: { value: code } });
  const apply = screen.getByTestId('coupon-apply') as HTMLButtonElement;
  apply.focus();
  fireEvent.click(apply);
  return apply;
}

/** A coupon check that answers when the test says so. */
function heldCheck() {
  let settle: { resolve: (result: CouponResult) => void; reject: (error: unknown) => void } | undefined;
  checkout.validateCoupon.mockImplementation(() => new Promise((resolve, reject) => (settle = { resolve, reject })));
  return {
    resolve: (result: CouponResult) => settle!.resolve(result),
    reject: (error: unknown) => settle!.reject(error),
  };
}

describe('the coupon box by keyboard and screen reader (issue 21)', () => {
  it('Apply keeps the focus while the code is checked; then Remove has it, and the coupon and new total are announced', async () => {
    const check = heldCheck();
    const apply = await applyByKeyboard('SAVE10');
    await waitFor(() => expect(apply.getAttribute('aria-disabled')).toBe('true'));
    expect(apply.disabled).toBe(false);
    expect(document.activeElement).toBe(apply);

    check.resolve(SAVE10);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('coupon-remove')));
    await waitFor(() => expect(polite()).toBe(`Coupon SAVE10 applied. New total: ${dollars(SAVE10.totals.total)}`));
  });

  it('Remove gives the focus to the emptied box and announces the plan total again', async () => {
    checkout.validateCoupon.mockResolvedValue(SAVE10);
    await applyByKeyboard('SAVE10');
    const remove = await screen.findByTestId('coupon-remove');
    remove.focus();
    fireEvent.click(remove);
    await waitFor(() => expect(document.activeElement).toBe(input()));
    expect(input().value).toBe('');
    await waitFor(() => expect(polite()).toBe(`Coupon removed. New total: ${dollars(PLAN_TOTALS.total)}`));
  });

  it("a refused coupon's reason is announced at once, and the focus stays on Apply", async () => {
    checkout.validateCoupon.mockRejectedValue(CHECKOUT_FAILURES.couponExpired);
    const apply = await applyByKeyboard('OLD10');
    await waitFor(() => expect(urgent()).toBe(EXPIRED_MESSAGE));
    expect(document.activeElement).toBe(apply);
  });

  it('a check that fails opens the system error dialog, which gives the focus back to Apply when closed', async () => {
    const check = heldCheck();
    const apply = await applyByKeyboard('SAVE10');
    check.reject(CHECKOUT_FAILURES.server);
    const dialog = await screen.findByTestId('system-error-dialog');
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(document.activeElement).toBe(apply));
  });
});
